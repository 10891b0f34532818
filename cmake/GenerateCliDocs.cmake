# Run at build time (cmake -P): the man page and bash completion from the built binary's own
# CLI definitions (`--help-man`, `--completion bash`; bench/cli/docs), and the man page gzipped
# as Debian installs it (-n: no name or time stamp, so the same page gives the same bytes).
# Inputs: EXE, MAN, COMPLETION, GZIP.
get_filename_component(_man_dir "${MAN}" DIRECTORY)
get_filename_component(_completion_dir "${COMPLETION}" DIRECTORY)
file(MAKE_DIRECTORY "${_man_dir}" "${_completion_dir}")
execute_process(COMMAND "${EXE}" --help-man OUTPUT_FILE "${MAN}" COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND "${EXE}" --completion bash OUTPUT_FILE "${COMPLETION}" COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND "${GZIP}" -9n -c "${MAN}" OUTPUT_FILE "${MAN}.gz" COMMAND_ERROR_IS_FATAL ANY)
