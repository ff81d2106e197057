# PtxDvfs.cmake - DVFS hints for CUDA targets as a post-build step, in the build log.
#
#   find_package(ptxdvfs REQUIRED)
#   ptxdvfs_add_dvfs_hints(TARGET app [WERROR] [ARGS --all --assume n=1048576 ...])
#
# Compiles the target's .cu sources once more to PTX (an object library with
# CUDA_PTX_COMPILATION, the target's include directories, definitions and
# options but device debug (-G), plus -lineinfo so hints land on CUDA lines) and runs
# `ptxdvfs lint` on that PTX after the target is built. Hints are printed in
# the GCC format (`file:line:col: warning: ...`) that IDEs and CI already
# parse. WERROR fails the build when a hint is a warning; ARGS go to
# `ptxdvfs lint` as they are (see `ptxdvfs lint --help`).
#
# PTXDVFS_EXECUTABLE names the program (set by ptxdvfs-config.cmake).

function(ptxdvfs_add_dvfs_hints)
  cmake_parse_arguments(PARSE_ARGV 0 HINTS "WERROR" "TARGET" "ARGS")
  if(NOT HINTS_TARGET OR NOT TARGET ${HINTS_TARGET})
    message(FATAL_ERROR "ptxdvfs_add_dvfs_hints: TARGET must name an existing target (got '${HINTS_TARGET}')")
  endif()
  if(NOT PTXDVFS_EXECUTABLE)
    message(FATAL_ERROR "ptxdvfs_add_dvfs_hints: PTXDVFS_EXECUTABLE is not set; use find_package(ptxdvfs)")
  endif()
  get_target_property(sources ${HINTS_TARGET} SOURCES)
  get_target_property(source_dir ${HINTS_TARGET} SOURCE_DIR)
  set(cuda_sources)
  foreach(source IN LISTS sources)
    if(source MATCHES "\\.cu$")
      if(NOT IS_ABSOLUTE "${source}")
        set(source "${source_dir}/${source}")
      endif()
      list(APPEND cuda_sources "${source}")
    endif()
  endforeach()
  if(NOT cuda_sources)
    message(FATAL_ERROR "ptxdvfs_add_dvfs_hints: target '${HINTS_TARGET}' has no .cu sources")
  endif()

  # PTX is made for one virtual architecture: the target's first.
  get_target_property(architectures ${HINTS_TARGET} CUDA_ARCHITECTURES)
  if(NOT architectures)
    set(architectures ${CMAKE_CUDA_ARCHITECTURES})
  endif()
  list(GET architectures 0 architecture)
  string(REGEX REPLACE "-(real|virtual)$" "" architecture "${architecture}")

  set(ptx_target ${HINTS_TARGET}_dvfs_ptx)
  add_library(${ptx_target} OBJECT ${cuda_sources})
  set_target_properties(${ptx_target} PROPERTIES CUDA_PTX_COMPILATION ON CUDA_ARCHITECTURES "${architecture}")
  target_include_directories(${ptx_target} PRIVATE $<TARGET_PROPERTY:${HINTS_TARGET},INCLUDE_DIRECTORIES>)
  target_compile_definitions(${ptx_target} PRIVATE $<TARGET_PROPERTY:${HINTS_TARGET},COMPILE_DEFINITIONS>)
  # Without device debug (-G): its unoptimised code is not what a release
  # build runs, nor what the model was trained on.
  target_compile_options(${ptx_target} PRIVATE
                         "$<FILTER:$<TARGET_PROPERTY:${HINTS_TARGET},COMPILE_OPTIONS>,EXCLUDE,^(-G|--device-debug)$>"
                         $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  add_dependencies(${HINTS_TARGET} ${ptx_target})

  set(werror)
  if(HINTS_WERROR)
    set(werror --werror)
  endif()
  add_custom_command(TARGET ${HINTS_TARGET} POST_BUILD
    COMMAND ${PTXDVFS_EXECUTABLE} lint ${werror} ${HINTS_ARGS} $<TARGET_OBJECTS:${ptx_target}>
    COMMENT "ptxdvfs: DVFS hints for ${HINTS_TARGET}"
    COMMAND_EXPAND_LISTS VERBATIM)
endfunction()
