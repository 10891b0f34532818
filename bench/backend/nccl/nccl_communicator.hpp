// Collectives through NCCL on the GPU of a CudaContext, one rank per GPU: native collectives
// where the runtime library has them (ncclAlltoAll, ncclGather, ncclScatter since 2.28),
// sends and receives grouped as nccl-tests builds them otherwise; point-to-point steps for
// `collbench locate`; grouped (-m) and graph-captured (-G) launches; registered buffers (-R).
// Its life and failure follow comm_lifecycle.hpp. Callers include no vendor header.
#pragma once

#include <memory>

#include "bench/backend/backend_entry.hpp"

namespace collbench::backend {

const BackendEntry& nccl_backend_entry();

}  // namespace collbench::backend
