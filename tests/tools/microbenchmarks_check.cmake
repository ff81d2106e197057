# microbenchmarks_check.cmake - the suite builds for every architecture asked, each file holds at
# least 120 kernels with the one signature the collector launches, and ptxdvfs reads them all.
# Inputs: PROGRAM (ptxdvfs), BUILD_DIR, ARCHS (a ;-list of sm numbers).
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target microbenchmarks
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "building the suite failed (${status}):\n${out}\n${err}")
endif()
foreach(arch ${ARCHS})
  set(ptx ${BUILD_DIR}/microbenchmarks/suite_sm${arch}.ptx)
  file(READ ${ptx} text)
  string(REGEX MATCHALL "\\.visible \\.entry [a-z0-9_]+\\(" entries "${text}")
  list(LENGTH entries count)
  if(count LESS 120)
    message(FATAL_ERROR "${ptx}: ${count} kernels, expected at least 120")
  endif()
  # out, in, bytes (three 64-bit parameters) and repeats (32-bit).
  string(REGEX MATCHALL
         "\\.entry ([a-z0-9_]+)\\(\n\t\\.param \\.u64[^\n]*_param_0,\n\t\\.param \\.u64[^\n]*_param_1,\n\t\\.param \\.u64[^\n]*_param_2,\n\t\\.param \\.u32[^\n]*_param_3\n\\)"
         uniform "${text}")
  list(LENGTH uniform same)
  if(NOT same EQUAL count)
    message(FATAL_ERROR "${ptx}: ${same} of ${count} kernels have the signature (out, in, bytes, repeats)")
  endif()
  execute_process(COMMAND ${PROGRAM} parse --json ${ptx} RESULT_VARIABLE status
                  OUTPUT_VARIABLE report ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ptxdvfs parse ${ptx} failed (${status}): ${err}")
  endif()
  string(JSON kernels LENGTH "${report}" files 0 kernels)
  if(NOT kernels EQUAL count)
    message(FATAL_ERROR "ptxdvfs parse found ${kernels} kernels in ${ptx}, the text ${count}")
  endif()
  message(STATUS "sm_${arch}: ${count} kernels")
endforeach()
