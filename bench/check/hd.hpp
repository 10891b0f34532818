// Lets the element-level pattern code compile for host and, under nvcc, for the device,
// without including any CUDA header here.
#pragma once

#if defined(__CUDACC__)
#define COLLBENCH_HD __host__ __device__ __forceinline__
#else
#define COLLBENCH_HD inline
#endif
