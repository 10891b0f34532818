# Build identity: version and git commit, written into generated/collbench_build_info.hpp.
set(COLLBENCH_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${PROJECT_SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE _commit
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _commit)
    set(COLLBENCH_GIT_COMMIT "${_commit}")
  endif()
endif()
foreach(flag MPI HWLOC NCCL)
  if(COLLBENCH_HAVE_${flag})
    set(COLLBENCH_HAVE_${flag}_01 1)
  else()
    set(COLLBENCH_HAVE_${flag}_01 0)
  endif()
endforeach()
configure_file("${PROJECT_SOURCE_DIR}/cmake/build_info.hpp.in"
               "${PROJECT_BINARY_DIR}/generated/collbench_build_info.hpp" @ONLY)
