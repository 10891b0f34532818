// Message sizes for people, in binary units, independent of the locale.
#pragma once

#include <cstdint>
#include <string>

namespace collbench::report {

// Axis and list labels: "8", "512", "1K", "32M", "1G", "1.5M" (one decimal when not whole).
std::string short_size(std::uint64_t bytes);

// Table cells: "8 B", "1 KiB", "32 MiB", "1.5 GiB".
std::string size_text(std::uint64_t bytes);

}  // namespace collbench::report
