# Run at build time (cmake -P): writes the build-info header with the current git commit.
# configure_file leaves the file untouched when nothing changed, so nothing rebuilds needlessly.
# Inputs: SOURCE_DIR, OUTPUT, VERSION, GIT_EXECUTABLE.
set(COLLBENCH_GIT_COMMIT "unknown")
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY "${SOURCE_DIR}" OUTPUT_VARIABLE _commit
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _commit)
    set(COLLBENCH_GIT_COMMIT "${_commit}")
  endif()
endif()
set(PROJECT_VERSION "${VERSION}")
configure_file("${SOURCE_DIR}/cmake/build_info.hpp.in" "${OUTPUT}" @ONLY)
