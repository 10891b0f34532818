# The install tree (cmake --install, and the Debian packages of cmake/CollbenchPackage.cmake),
# in GNU directories under the prefix:
#   bin/collbench, bin/<collective>_perf        the host build and nccl-tests' names (links)
#   share/collbench/schema/*.schema.json        the JSON schemas (validate carries its own copy)
#   share/man/man1/collbench.1.gz               generated from the CLI (bench/cli/docs)
#   share/bash-completion/completions/collbench generated from the CLI, and a link per drop-in
#   share/doc/collbench/                        README.md, docs/, copyright, changelog.Debian.gz
# Component host: all of the above (package collbench). Component cuda, where NCCL is built:
#   libexec/collbench-cuda/collbench, *_perf    the NCCL build and its drop-in names
#   bin/collbench-cuda                          a link to it, with its man page and completion
# Nothing installed is read at run time: the schemas and the published references are compiled
# into the binary, so that an installed collbench works at any prefix and without the sources.
include(GNUInstallDirs)

# The binary of the collbench package: the host build where device adapters are built
# (bench/CMakeLists.txt), else collbench itself.
if(TARGET collbench_host)
  set(COLLBENCH_PACKAGE_EXE collbench_host)
else()
  set(COLLBENCH_PACKAGE_EXE collbench)
endif()
install(TARGETS ${COLLBENCH_PACKAGE_EXE} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT host)

# Relative links made here and installed as links (file(INSTALL) keeps a link a link).
set(_links "${PROJECT_BINARY_DIR}/install-links")
function(_collbench_install_link target name destination component)
  file(MAKE_DIRECTORY "${_links}/${component}/${destination}")
  file(CREATE_LINK "${target}" "${_links}/${component}/${destination}/${name}" SYMBOLIC)
  install(FILES "${_links}/${component}/${destination}/${name}" DESTINATION "${destination}" COMPONENT ${component})
endfunction()

# Man page and completion, written by the package's binary at build time (cmake/GenerateCliDocs.cmake).
set(_docs "${PROJECT_BINARY_DIR}/share")
set(COLLBENCH_MAN_PAGE "${_docs}/man/man1/collbench.1")
set(COLLBENCH_COMPLETION "${_docs}/bash-completion/completions/collbench")
find_program(COLLBENCH_GZIP gzip REQUIRED)
add_custom_command(OUTPUT "${COLLBENCH_MAN_PAGE}" "${COLLBENCH_MAN_PAGE}.gz" "${COLLBENCH_COMPLETION}"
  COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:${COLLBENCH_PACKAGE_EXE}> -DMAN=${COLLBENCH_MAN_PAGE}
          -DCOMPLETION=${COLLBENCH_COMPLETION} -DGZIP=${COLLBENCH_GZIP} -P "${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.cmake"
  DEPENDS ${COLLBENCH_PACKAGE_EXE} "${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.cmake"
  COMMENT "Writing collbench(1) and the bash completion from the CLI's definitions" VERBATIM)
add_custom_target(collbench_cli_docs ALL DEPENDS "${COLLBENCH_MAN_PAGE}.gz" "${COLLBENCH_COMPLETION}")
install(FILES "${COLLBENCH_MAN_PAGE}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" COMPONENT host)
set(_completions "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")
install(FILES "${COLLBENCH_COMPLETION}" DESTINATION "${_completions}" COMPONENT host)

# nccl-tests' names (COLLBENCH_DROP_INS, bench/CMakeLists.txt); bash-completion loads a
# completion by the command's name, so each name links to collbench's, as its man page does.
foreach(name ${COLLBENCH_DROP_INS})
  _collbench_install_link(collbench ${name} "${CMAKE_INSTALL_BINDIR}" host)
  _collbench_install_link(collbench ${name} "${_completions}" host)
  _collbench_install_link(collbench.1.gz ${name}.1.gz "${CMAKE_INSTALL_MANDIR}/man1" host)
endforeach()

install(FILES "${PROJECT_SOURCE_DIR}/report/documents/schema/run.schema.json"
              "${PROJECT_SOURCE_DIR}/report/documents/schema/preflight.schema.json"
              "${PROJECT_SOURCE_DIR}/report/documents/schema/locate.schema.json"
              "${PROJECT_SOURCE_DIR}/report/documents/schema/health.schema.json"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/collbench/schema" COMPONENT host)

# Documentation: README.md's links to docs/ keep working in share/doc/collbench.
file(GLOB _doc_pages CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/*.md")
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT host)
install(FILES ${_doc_pages} DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs" COMPONENT host)

# Debian's copyright and changelog.Debian.gz, in each package's own doc folder.
set(COLLBENCH_DEBIAN_CHANGELOG "${PROJECT_BINARY_DIR}/packaging/changelog.Debian.gz")
file(MAKE_DIRECTORY "${PROJECT_BINARY_DIR}/packaging")
execute_process(COMMAND ${COLLBENCH_GZIP} -9n -c "${PROJECT_SOURCE_DIR}/packaging/debian/changelog.Debian"
                OUTPUT_FILE "${COLLBENCH_DEBIAN_CHANGELOG}" COMMAND_ERROR_IS_FATAL ANY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/packaging/debian/changelog.Debian")
function(_collbench_debian_docs package component)
  install(FILES "${PROJECT_SOURCE_DIR}/packaging/debian/copyright" "${COLLBENCH_DEBIAN_CHANGELOG}"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/${package}" COMPONENT ${component})
endfunction()
_collbench_debian_docs(collbench host)

if(TARGET collbench_host)
  set(_cuda_dir "${CMAKE_INSTALL_LIBEXECDIR}/collbench-cuda")
  install(TARGETS collbench RUNTIME DESTINATION "${_cuda_dir}" COMPONENT cuda)
  foreach(name ${COLLBENCH_DROP_INS})
    _collbench_install_link(collbench ${name} "${_cuda_dir}" cuda)
  endforeach()
  file(RELATIVE_PATH _to_cuda "/${CMAKE_INSTALL_BINDIR}" "/${_cuda_dir}/collbench")
  _collbench_install_link("${_to_cuda}" collbench-cuda "${CMAKE_INSTALL_BINDIR}" cuda)
  _collbench_install_link(collbench.1.gz collbench-cuda.1.gz "${CMAKE_INSTALL_MANDIR}/man1" cuda)
  _collbench_install_link(collbench collbench-cuda "${_completions}" cuda)
  _collbench_debian_docs(collbench-cuda cuda)
endif()
