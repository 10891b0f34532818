// The copy bandwidth of this host's memory, measured once at start-up: what ranks on host
// memory can move at most (topo/busbw_bound.hpp), for a run's "% of expected".
#pragma once

#include <cstdint>

namespace collbench::engine {

// The best of `repeats` memcpy calls of `bytes` between two buffers touched beforehand, in GB/s
// (1e9 bytes copied per second). Choose `bytes` well above the last-level cache.
double measure_copy_gbps(std::uint64_t bytes, int repeats);

// The probe's size on a host with this last-level cache: twice the cache, from 64 MiB to 512 MiB.
std::uint64_t copy_probe_bytes(std::uint64_t llc_bytes);

}  // namespace collbench::engine
