# PtxdvfsWarnings.cmake - the warning set our own (not generated) code compiles with.
function(ptxdvfs_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
endfunction()
