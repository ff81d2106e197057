# encode_output.cmake - `ptxdvfs encode -o` writes the conformance layout byte for byte,
# into an existing folder (replacing stale kernel files of an earlier run, keeping others)
# and into a new one (built beside it and renamed into place), and leaves no temporary files.
# Inputs: PROGRAM, CASE_DIR (a shared conformance case), WORK_DIR.
# Fails unless `dir` holds exactly the case's kernel files, byte for byte.
function(expect_conformance_layout dir)
  file(GLOB expected RELATIVE ${CASE_DIR} ${CASE_DIR}/kernel_*)
  file(GLOB written RELATIVE ${dir} ${dir}/*)
  list(SORT expected)
  list(SORT written)
  if(NOT expected STREQUAL written)
    message(FATAL_ERROR "wrote '${written}' into ${dir}, expected '${expected}'")
  endif()
  foreach(name ${expected})
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${CASE_DIR}/${name} ${dir}/${name}
                    RESULT_VARIABLE different)
    if(different)
      message(FATAL_ERROR "${dir}/${name} differs from ${CASE_DIR}/${name}")
    endif()
  endforeach()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(WRITE ${WORK_DIR}/kernel_7.codes "stale\n")
file(WRITE ${WORK_DIR}/kernel_7.readable "stale\n")
file(WRITE ${WORK_DIR}/notes.txt "the user's own file\n")
execute_process(COMMAND ${PROGRAM} encode -q ${CASE_DIR}/input.ptx -o ${WORK_DIR}
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "encode failed (${status}): ${err}")
endif()
if(NOT EXISTS ${WORK_DIR}/notes.txt)
  message(FATAL_ERROR "encode -o removed a file it did not write")
endif()
file(REMOVE ${WORK_DIR}/notes.txt)
expect_conformance_layout(${WORK_DIR})

# A folder that does not exist yet, two levels down.
set(fresh ${WORK_DIR}/new/encoded)
execute_process(COMMAND ${PROGRAM} encode -q ${CASE_DIR}/input.ptx -o ${fresh}
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "encode into a new folder failed (${status}): ${err}")
endif()
expect_conformance_layout(${fresh})
file(GLOB beside RELATIVE ${WORK_DIR}/new ${WORK_DIR}/new/*)
if(NOT beside STREQUAL "encoded")
  message(FATAL_ERROR "left beside the new folder: '${beside}'")
endif()
