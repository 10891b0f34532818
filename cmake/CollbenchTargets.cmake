# collbench_module(<target> SOURCES ... [DEPS ...] [PRIVATE_DEPS ...])
# One static library per module. Includes are rooted at the repository ("common/status.hpp"),
# so every include names the module it depends on.
function(collbench_module target)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${target} STATIC ${ARG_SOURCES})
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>"
                                              "$<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/generated>")
  target_link_libraries(${target} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  collbench_strict(${target})
endfunction()

# Warnings for the project's own code only (third-party headers are SYSTEM).
function(collbench_strict target)
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "INTERFACE_LIBRARY")
    return()
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
                             -Wcast-align -Woverloaded-virtual -Wconversion -Wsign-conversion
                             -Wformat=2 -Wimplicit-fallthrough>
    # -Wnull-dereference is left out: GCC 12 raises it on std::vector::data() in correct code.
    # GCC 12 reports -Wrestrict inside libstdc++'s own std::string code at -O3 (GCC bug 105329).
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-restrict>)
  # Device code (.cu, nvcc): the host compiler's usual warnings on the host side; nvcc's own
  # diagnostics stay on.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
  # Error locations read "bench/cli/app.cpp:42", not an absolute path of the build machine.
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=>)
  if(COLLBENCH_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>
                                             $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings -Xcompiler=-Werror>)
  endif()
  if(COLLBENCH_SANITIZE)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${COLLBENCH_SANITIZE} -fno-omit-frame-pointer>)
    target_link_options(${target} PRIVATE -fsanitize=${COLLBENCH_SANITIZE})
  endif()
endfunction()
