# Debian packages from the install tree (cmake/CollbenchInstall.cmake), one per component:
#   collbench       component host: the host build (MPI, hwloc), its drop-in names, schemas,
#                   man page, completion and docs. Depends computed by dpkg-shlibdeps.
#   collbench-cuda  component cuda, where NCCL is built: the NCCL build in
#                   libexec/collbench-cuda/ and bin/collbench-cuda. It depends on collbench
#                   (same version: man page, completion, schemas, and the host libraries both
#                   builds link) and on NVIDIA's runtime packages by name.
# The two coexist without Conflicts: no file is in both (docs/packaging.md).
#   cpack --config build/CPackConfig.cmake -B build/packages     (scripts/test-package.sh)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME collbench)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "collbench")
set(CPACK_PACKAGE_CONTACT "collbench maintainers <maintainers@users.noreply.a-seed-bb80b595.example>")
# Each package's Description: its summary line, then the long text (CPack indents it; it prepends
# CPACK_PACKAGE_DESCRIPTION_SUMMARY unless that is empty).
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(_what "collbench measures collective-communication bandwidth the way nccl-tests
does (same flags, same table, same algbw/busbw definitions) and checks every
element of every rank's result. It runs under mpirun, srun or torchrun-style
launchers, maps each host's GPUs, NICs and CPUs, and writes versioned JSON.")
set(CPACK_STRIP_FILES ON)  # lintian: no unstripped binaries in a package
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # collbench_0.1.0-1_amd64.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)      # as packaging/debian/changelog.Debian names it
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(COLLBENCH_PACKAGE_HOMEPAGE "" CACHE STRING "Homepage field of the Debian packages (none when empty)")
if(COLLBENCH_PACKAGE_HOMEPAGE)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${COLLBENCH_PACKAGE_HOMEPAGE}")
endif()

set(CPACK_DEBIAN_HOST_PACKAGE_NAME collbench)
set(CPACK_DEBIAN_HOST_DESCRIPTION "correctness-checked collective bandwidth benchmarks
${_what}

This is the host build (MPI on host memory, hwloc topology), with nccl-tests'
binary names (all_reduce_perf, ...) as links to it. The NCCL build is in
collbench-cuda.")
set(CPACK_DEBIAN_HOST_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps sees the libraries the binary links (libopenmpi3, libhwloc15, ...), not the
# launcher that starts ranks: mpirun and orted are in openmpi-bin.
set(CPACK_DEBIAN_HOST_PACKAGE_DEPENDS "openmpi-bin")
set(CPACK_COMPONENTS_ALL host)

if(TARGET collbench_host)
  list(APPEND CPACK_COMPONENTS_ALL cuda)
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" _cuda "${CUDAToolkit_VERSION}")
  string(REPLACE "." "-" _cuda "${_cuda}")
  set(CPACK_DEBIAN_CUDA_PACKAGE_NAME collbench-cuda)
  set(CPACK_DEBIAN_CUDA_DESCRIPTION "correctness-checked collective bandwidth benchmarks, NCCL build
${_what}

This is the build with the NCCL backend on CUDA GPUs, as collbench-cuda, and
nccl-tests' binary names for it in /usr/libexec/collbench-cuda: with that
folder first on PATH, collbench and all_reduce_perf run it. It needs libnccl2
and the CUDA runtime from NVIDIA's CUDA repository, and an NVIDIA driver.")
  # dpkg-shlibdeps computes the host libraries (libc6, libopenmpi3, ...) here too. It can
  # name only libraries a Debian package owns, and NCCL and cudart come from NVIDIA's
  # repository (libnccl2, cuda-cudart-X-Y) or, on the build machine, from a toolkit outside
  # dpkg: it is shown where they are (CPack passes --ignore-missing-info), and they are
  # named here.
  set(CPACK_DEBIAN_CUDA_PACKAGE_SHLIBDEPS ON)
  get_filename_component(_nccl_dir "${NCCL_LIBRARY}" DIRECTORY)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${_nccl_dir}" "${CUDAToolkit_LIBRARY_DIR}")
  set(CPACK_DEBIAN_CUDA_PACKAGE_DEPENDS
      "collbench (= ${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}), libnccl2 (>= ${COLLBENCH_NCCL_MIN_VERSION}), cuda-cudart-${_cuda}")
endif()

include(CPack)
