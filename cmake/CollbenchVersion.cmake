# Build identity: version and git commit in generated/collbench_build_info.hpp; compiled-in
# features in generated/collbench_features.hpp. The commit is refreshed on every build, not only at
# configure time, so a result never names a stale commit.
find_package(Git QUIET)
foreach(flag MPI HWLOC NCCL)
  if(COLLBENCH_HAVE_${flag})
    set(_have_${flag} 1)
  else()
    set(_have_${flag} 0)
  endif()
endforeach()
set(COLLBENCH_BUILD_INFO "${PROJECT_BINARY_DIR}/generated/collbench_build_info.hpp")
configure_file("${PROJECT_SOURCE_DIR}/cmake/features.hpp.in" "${PROJECT_BINARY_DIR}/generated/collbench_features.hpp" @ONLY)
set(_write_args -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${COLLBENCH_BUILD_INFO} -DVERSION=${PROJECT_VERSION}
    -DGIT_EXECUTABLE=${GIT_EXECUTABLE})
execute_process(COMMAND ${CMAKE_COMMAND} ${_write_args} -P "${PROJECT_SOURCE_DIR}/cmake/WriteBuildInfo.cmake")
add_custom_target(collbench_build_info
  COMMAND ${CMAKE_COMMAND} ${_write_args} -P "${PROJECT_SOURCE_DIR}/cmake/WriteBuildInfo.cmake"
  BYPRODUCTS "${COLLBENCH_BUILD_INFO}"
  COMMENT "Recording the git commit of this build" VERBATIM)
file(STRINGS "${COLLBENCH_BUILD_INFO}" _commit_line REGEX "COLLBENCH_GIT_COMMIT")
string(REGEX REPLACE ".*\"(.*)\".*" "\\1" COLLBENCH_GIT_COMMIT "${_commit_line}")
