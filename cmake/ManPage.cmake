# ManPage.cmake - writes ptxdvfs(1) from the program's own --help texts, so the page never
# drifts from the options. Run as: cmake -DPROGRAM=<ptxdvfs> -DOUTPUT=<file> -P ManPage.cmake
function(help_of out)
  execute_process(COMMAND ${PROGRAM} ${ARGN} --help RESULT_VARIABLE status
                  OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${ARGN} --help failed (${status}): ${err}")
  endif()
  # The usage line names the program as it was run; the page names it as installed.
  string(REPLACE "${PROGRAM}" "ptxdvfs" text "${text}")
  # roff: a backslash is an escape, a line may not start with a control character.
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

help_of(overview)
execute_process(COMMAND ${PROGRAM} --version OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX MATCH "Subcommands:\n(.*)\n\n" block "${overview}")
string(REGEX MATCHALL "\n  ([a-z-]+) " entries "\n${CMAKE_MATCH_1}")
set(page ".TH PTXDVFS 1 \"\" \"${version}\" \"User Commands\"
.SH NAME
ptxdvfs \\- predict how a CUDA kernel's time, power and energy change with GPU clocks, from its PTX
.SH SYNOPSIS
.B ptxdvfs
[\\fIOPTIONS\\fR] \\fISUBCOMMAND\\fR [\\fIARGS\\fR]
.SH DESCRIPTION
.nf
${overview}.fi
.SH SUBCOMMANDS
")
foreach(entry ${entries})
  string(STRIP "${entry}" name)
  help_of(text ${name})
  string(APPEND page ".SS ${name}\n.nf\n${text}.fi\n")
endforeach()
string(APPEND page ".SH ENVIRONMENT
.TP
.B PTXDVFS_MODEL
The model folder used when --model is not given.
.TP
.B CUDACXX
The nvcc that compiles .cu inputs (else PATH, then $CUDA_HOME/bin, /usr/local/cuda/bin).
.TP
.B SPDLOG_LEVEL
Log level on stderr.
.SH FILES
.TP
.I share/ptxdvfs/trained_weights/gtxtitanx
The shipped GTX Titan X model.
.TP
.I lib/cmake/ptxdvfs
find_package(ptxdvfs): ptxdvfs_add_dvfs_hints() for nvcc post-build hints.
")
file(WRITE ${OUTPUT}.tmp "${page}")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
