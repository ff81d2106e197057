# postbuild_check.cmake - configure and build examples/postbuild with this build's ptxdvfs,
# in its Debug configuration (device debug, -G, for the program): the hint must appear in
# the build log, read from optimised PTX. Skipped, saying why, without nvcc.
find_program(nvcc nvcc PATHS /usr/local/cuda/bin)
if(NOT nvcc)
  message("skipped: nvcc not found (PATH, /usr/local/cuda/bin); the post-build example needs it")
  return()
endif()
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${WORK_DIR} -Dptxdvfs_DIR=${PTXDVFS_DIR}
                        -DCMAKE_CUDA_COMPILER=${nvcc} -DCMAKE_BUILD_TYPE=Debug
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "configuring the post-build example failed:\n${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "building the post-build example failed:\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "stream.cu:4:[0-9]+: (note|warning): kernel 'triad' [^\n]*\\[dvfs-")
  message(FATAL_ERROR "no DVFS hint for triad in the build log:\n${out}${err}")
endif()
if("${out}${err}" MATCHES "compiled with nvcc -G")
  message(FATAL_ERROR "the hints read the program's -G build, not optimised PTX:\n${out}${err}")
endif()
