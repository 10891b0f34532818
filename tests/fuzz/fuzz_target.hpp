// What every fuzz target shares. Each tests/fuzz/<name>_fuzz.cpp defines
// collbench::fuzz::<name>(bytes), the entry function, and ends with COLLBENCH_FUZZ_TARGET(<name>).
// In the fuzz build (COLLBENCH_FUZZ_MAIN defined for that target) the macro becomes libFuzzer's
// entry point; in the normal build the same functions are called by the corpus replay test
// (tests/fuzz/replay_test.cpp), so every seed and every regression input is also checked there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

namespace collbench::fuzz {

using Bytes = std::span<const std::uint8_t>;

inline std::string_view as_text(Bytes bytes) { return {reinterpret_cast<const char*>(bytes.data()), bytes.size()}; }

inline std::span<const std::byte> as_bytes(Bytes bytes) { return std::as_bytes(bytes); }

// A property the code under test promises (a round trip, a bound) that does not hold: a bug as
// real as a crash, reported the same way.
[[noreturn]] inline void property_failed(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: fuzz property violated: %s\n", file, line, what);
  std::abort();
}

}  // namespace collbench::fuzz

#define COLLBENCH_FUZZ_REQUIRE(cond) \
  ((cond) ? static_cast<void>(0) : ::collbench::fuzz::property_failed(#cond, __FILE__, __LINE__))

#if defined(COLLBENCH_FUZZ_MAIN)
#define COLLBENCH_FUZZ_TARGET(name)                                                   \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    ::collbench::fuzz::name(::collbench::fuzz::Bytes(data, size));                    \
    return 0;                                                                         \
  }
#else
#define COLLBENCH_FUZZ_TARGET(name)
#endif
