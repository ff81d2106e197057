# install_check.cmake - `cmake --install` into a fresh prefix: the installed ptxdvfs finds its
# shipped model (not the source tree's) and its LibTorch half, and the CMake package is there.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${err}")
endif()
foreach(file bin/ptxdvfs libexec/ptxdvfs/ptxdvfs-model lib/cmake/ptxdvfs/ptxdvfs-config.cmake
             share/ptxdvfs/trained_weights/gtxtitanx/manifest.json)
  if(NOT EXISTS ${PREFIX}/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
unset(ENV{PTXDVFS_MODEL})
foreach(predictor knn_log_histogram lstm)
  execute_process(COMMAND ${PREFIX}/bin/ptxdvfs recommend --json --predictor ${predictor} ${EXAMPLE}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT status EQUAL 0 OR NOT out MATCHES "\"model\": \"${PREFIX}/share/ptxdvfs/trained_weights/gtxtitanx\"")
    message(FATAL_ERROR "installed ptxdvfs (${predictor}) did not answer from its own model (${status}):\n${out}${err}")
  endif()
endforeach()
execute_process(COMMAND ${PREFIX}/bin/ptxdvfs encode --help OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT out MATCHES "${PREFIX}/share/ptxdvfs/trained_weights/gtxtitanx/vocabulary")
  message(FATAL_ERROR "installed encode does not default to the installed vocabulary:\n${out}${err}")
endif()
