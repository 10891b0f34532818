# Optional CUDA + NCCL for the NCCL backend and its fill/verify kernels. Sets
# COLLBENCH_HAVE_NCCL. The CUDA language is enabled only when the toolkit, nvcc and NCCL are
# all found, so a machine without them configures and builds everything else unchanged.
include(CheckLanguage)

set(COLLBENCH_NCCL_MIN_VERSION 2.12)
find_package(CUDAToolkit QUIET)
find_package(NCCL QUIET)

set(_collbench_cuda_missing "")
if(NOT CUDAToolkit_FOUND)
  list(APPEND _collbench_cuda_missing "the CUDA toolkit")
elseif(CUDAToolkit_VERSION VERSION_LESS 12.0)
  list(APPEND _collbench_cuda_missing "CUDA >= 12.0, whose nvcc compiles C++20 (found ${CUDAToolkit_VERSION})")
endif()
if(NOT NCCL_FOUND)
  list(APPEND _collbench_cuda_missing "NCCL (set NCCL_ROOT)")
elseif(NCCL_VERSION VERSION_LESS COLLBENCH_NCCL_MIN_VERSION)
  list(APPEND _collbench_cuda_missing "NCCL >= ${COLLBENCH_NCCL_MIN_VERSION} (found ${NCCL_VERSION})")
endif()
if(NOT _collbench_cuda_missing)
  # nvcc hands host code to the same compiler as the rest of the project (one C++ ABI).
  # (CMake 3.25's check_language honours only the CUDAHOSTCXX variable for that.)
  if(NOT DEFINED CMAKE_CUDA_HOST_COMPILER AND "$ENV{CUDAHOSTCXX}" STREQUAL "")
    set(ENV{CUDAHOSTCXX} "${CMAKE_CXX_COMPILER}")
  endif()
  # The toolkit's own nvcc when none is on PATH (a CUDA installed in /usr/local/cuda only).
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND CUDAToolkit_NVCC_EXECUTABLE)
    find_program(_collbench_nvcc_on_path nvcc)
    if(NOT _collbench_nvcc_on_path)
      set(CMAKE_CUDA_COMPILER "${CUDAToolkit_NVCC_EXECUTABLE}" CACHE FILEPATH "CUDA compiler")
    endif()
  endif()
  check_language(CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    list(APPEND _collbench_cuda_missing "nvcc")
  endif()
endif()

if(NOT _collbench_cuda_missing)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES ${COLLBENCH_CUDA_ARCHITECTURES})
  endif()
  # One CUDA runtime in the process, the shared one: targets with .cu files would otherwise
  # take cudart_static while the adapters link CUDA::cudart, two runtimes with two sets of
  # contexts and error states in one binary.
  if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY)
    set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
  endif()
  enable_language(CUDA)
  # CMake 3.25 does not know nvcc's C++20 flag (nvcc has it since CUDA 12.0).
  if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  set(CMAKE_CUDA_EXTENSIONS OFF)
  set(COLLBENCH_HAVE_NCCL ON)
  message(STATUS "NCCL backend: NCCL ${NCCL_VERSION}, CUDA ${CUDAToolkit_VERSION}, "
                 "kernels for sm ${COLLBENCH_CUDA_ARCHITECTURES}")
elseif(COLLBENCH_WITH_NCCL STREQUAL "ON")
  list(JOIN _collbench_cuda_missing ", " _missing)
  message(FATAL_ERROR "COLLBENCH_WITH_NCCL=ON but this machine lacks: ${_missing}")
else()
  list(JOIN _collbench_cuda_missing ", " _missing)
  message(STATUS "NCCL backend disabled (missing: ${_missing})")
endif()
