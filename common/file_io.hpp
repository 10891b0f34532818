// Reading input files whole, with errors that name the file.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.hpp"

namespace collbench {

// A missing or unreadable file is a usage error (exit 2: bad input); so is a file larger
// than `max_bytes`, which protects the parsers from being fed a disk image by mistake.
Result<std::string> read_text_file(const std::string& path, std::uint64_t max_bytes = std::uint64_t{1} << 30);

// "2026-12-02T13:45:07Z"
std::string utc_now_iso8601();
// Local time as nccl-tests prints it in its -S column: "YYYY-MM-DD HH:MM:SS".
std::string local_now_text();

}  // namespace collbench
