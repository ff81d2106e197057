# encode_output.cmake - `ptxdvfs encode -o` writes the conformance layout byte for byte,
# replaces stale kernel files of an earlier run, and leaves no temporary files.
# Inputs: PROGRAM, CASE_DIR (a shared conformance case), WORK_DIR.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(WRITE ${WORK_DIR}/kernel_7.codes "stale\n")
file(WRITE ${WORK_DIR}/kernel_7.readable "stale\n")
execute_process(COMMAND ${PROGRAM} encode -q ${CASE_DIR}/input.ptx -o ${WORK_DIR}
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "encode failed (${status}): ${err}")
endif()
file(GLOB expected RELATIVE ${CASE_DIR} ${CASE_DIR}/kernel_*)
file(GLOB written RELATIVE ${WORK_DIR} ${WORK_DIR}/*)
list(SORT expected)
list(SORT written)
if(NOT expected STREQUAL written)
  message(FATAL_ERROR "wrote '${written}', expected '${expected}'")
endif()
foreach(name ${expected})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${CASE_DIR}/${name} ${WORK_DIR}/${name}
                  RESULT_VARIABLE different)
  if(different)
    message(FATAL_ERROR "${name} differs from ${CASE_DIR}/${name}")
  endif()
endforeach()
