// Where a Status was raised. std::source_location where the standard library has it; clang 14
// with libstdc++ 12 lacks it (libstdc++ needs __builtin_source_location, which clang gained in
// version 15), so there the same two queries come from __builtin_FILE/__builtin_LINE, which
// clang evaluates at the outermost call site when used in default arguments.
#pragma once

#include <cstdint>
#include <version>

#if defined(__cpp_lib_source_location)
#include <source_location>
#endif

namespace collbench {

#if defined(__cpp_lib_source_location)
using SourceLocation = std::source_location;
#else
class SourceLocation {
 public:
  static constexpr SourceLocation current(const char* file = __builtin_FILE(),
                                          std::uint_least32_t line = __builtin_LINE()) noexcept {
    SourceLocation where;
    where.file_ = file;
    where.line_ = line;
    return where;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr std::uint_least32_t line() const noexcept { return line_; }

 private:
  const char* file_ = "";
  std::uint_least32_t line_ = 0;
};
#endif

}  // namespace collbench
