# The fuzz targets (tests/fuzz/<name>_fuzz.cpp), shared by the fuzzers (tests/fuzz/CMakeLists.txt)
# and the corpus replay unit test of the normal build (tests/unit/CMakeLists.txt).
set(COLLBENCH_FUZZ_TARGETS units types fault run_flags run_json document_json topo_nccl_xml topo_hwloc_xml
    topo_json rendezvous fabric)
set(COLLBENCH_FUZZ_SOURCES)
foreach(_name ${COLLBENCH_FUZZ_TARGETS})
  list(APPEND COLLBENCH_FUZZ_SOURCES "${CMAKE_CURRENT_LIST_DIR}/${_name}_fuzz.cpp")
endforeach()
# What the entry functions call; static libraries, so each binary takes only what it uses.
set(COLLBENCH_FUZZ_LIBS collbench_cli collbench_engine collbench_report collbench_topo collbench_bootstrap_tcp
    collbench_coll collbench_common CLI11::CLI11)
