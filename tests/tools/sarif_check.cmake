# sarif_check.cmake - `lint --format sarif -o FILE` on the bundled example: the log's structure,
# and, with VALIDATOR set (Microsoft's sarif-multitool), its validity against the SARIF 2.1.0 schema.
set(log ${WORK_DIR}/saxpy.sarif)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${PROGRAM} lint --all --format sarif --source-root ${SOURCE_ROOT} -o ${log}
                        ${SOURCE_ROOT}/examples/saxpy.ptx
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT status EQUAL 0 OR NOT EXISTS ${log})
  message(FATAL_ERROR "lint --format sarif failed (${status}):\n${out}${err}")
endif()
file(READ ${log} sarif)

function(expect_json expected)
  string(JSON actual GET "${sarif}" ${ARGN})
  if(NOT actual STREQUAL "${expected}")
    message(FATAL_ERROR "${ARGN}: '${actual}', expected '${expected}'")
  endif()
endfunction()
expect_json("2.1.0" version)
expect_json("ptxdvfs" runs 0 tool driver name)
string(JSON rules LENGTH "${sarif}" runs 0 tool driver rules)
if(NOT rules EQUAL 4)
  message(FATAL_ERROR "expected 4 rules, got ${rules}")
endif()
string(JSON rule_id GET "${sarif}" runs 0 results 0 ruleId)
string(JSON rule_index GET "${sarif}" runs 0 results 0 ruleIndex)
expect_json("${rule_id}" runs 0 tool driver rules ${rule_index} id)
expect_json("examples/saxpy.cu" runs 0 results 0 locations 0 physicalLocation artifactLocation uri)
expect_json("SRCROOT" runs 0 results 0 locations 0 physicalLocation artifactLocation uriBaseId)
expect_json("3" runs 0 results 0 locations 0 physicalLocation region startLine)
expect_json("saxpy" runs 0 results 0 properties kernel)
string(JSON root GET "${sarif}" runs 0 originalUriBaseIds SRCROOT uri)
if(NOT root MATCHES "^file:///.*/$")
  message(FATAL_ERROR "SRCROOT must be an absolute file URI ending in '/': ${root}")
endif()

# A failing input: nothing is written, an existing log is kept.
execute_process(COMMAND ${PROGRAM} lint --format sarif -o ${log} ${SOURCE_ROOT}/examples/saxpy.ptx ${BAD_PTX}
                RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET TIMEOUT 120)
file(READ ${log} after)
if(NOT status EQUAL 1 OR NOT after STREQUAL sarif)
  message(FATAL_ERROR "a failing input must exit 1 (got ${status}) and leave the log as it was")
endif()

if(VALIDATOR)
  if(NOT EXISTS ${VALIDATOR})
    message("sarif-multitool not installed (scripts/bootstrap.sh installs it when npm is present): skipped")
    return()
  endif()
  set(ENV{DOTNET_SYSTEM_GLOBALIZATION_INVARIANT} 1)
  execute_process(COMMAND ${VALIDATOR} validate ${log} -o ${WORK_DIR}/validation.sarif
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  # The multitool exits 0 even when the log breaks the schema; its findings say so.
  if(NOT status EQUAL 0 OR "${out}${err}" MATCHES ": error [A-Z]+[0-9]+")
    message(FATAL_ERROR "the SARIF log does not validate:\n${out}${err}")
  endif()
  message("${out}")
endif()
