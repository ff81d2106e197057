# expect.cmake - run PROGRAM with ARGS ('|'-separated), require EXPECTED_EXIT and PATTERN in stdout+stderr
# (and, when ABSENT is not empty, no match of it).
# ENV_VARS: optional NAME=VALUE pairs, '|'-separated, set for PROGRAM.
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" env_vars "${ENV_VARS}")
foreach(pair IN LISTS env_vars)
  string(FIND "${pair}" "=" equals)
  string(SUBSTRING "${pair}" 0 ${equals} name)
  math(EXPR value_start "${equals} + 1")
  string(SUBSTRING "${pair}" ${value_start} -1 value)
  set(ENV{${name}} "${value}")
endforeach()
execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 120)
set(all "${out}${err}")
if(NOT status STREQUAL "${EXPECTED_EXIT}")
  message(FATAL_ERROR "exit status ${status}, expected ${EXPECTED_EXIT}\n${all}")
endif()
if(NOT all MATCHES "${PATTERN}")
  message(FATAL_ERROR "output does not match '${PATTERN}':\n${all}")
endif()
if(NOT "${ABSENT}" STREQUAL "" AND all MATCHES "${ABSENT}")
  message(FATAL_ERROR "output matches '${ABSENT}', which it must not:\n${all}")
endif()
