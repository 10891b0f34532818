// Output files that are never seen half-written, and output names that never clobber an
// earlier run by accident.
#pragma once

#include <string>
#include <string_view>

#include "common/status.hpp"

namespace collbench::report {

// Writes `content` to a new temporary file in the directory of `path`, fsyncs it, renames it
// over `path` and fsyncs the directory. Readers see the old file or the new one, never a mix;
// on failure the temporary file is removed. The new file's mode follows the umask.
Status write_file_atomically(const std::string& path, std::string_view content);

// `requested` when it does not exist or `force` is set; otherwise the first free name of
// "name.1.json", "name.2.json", ... (the extension stays last; "name" becomes "name.1").
Result<std::string> choose_output_path(const std::string& requested, bool force);
// nccl-tests' own naming for its -J file (src/util.cu): the name itself when free, else the
// first free of "run.json.0", "run.json.1", ...
Result<std::string> choose_nccl_tests_output_path(const std::string& requested, bool force);

// Checks, before a run starts, that `path` could be written: its directory exists and a file
// can be created there (a probe file is created and removed), and `path` is not a directory.
Status check_writable(const std::string& path);

}  // namespace collbench::report
