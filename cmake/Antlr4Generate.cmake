# Antlr4Generate.cmake - runs Debian's `antlr4` tool on a lexer/parser grammar pair at build time.
#
# ptxdvfs_antlr4_generate(<out-var> LEXER <file.g4> PARSER <file.g4> OUTPUT_DIR <dir>)
# sets <out-var> to the generated .cpp files. Generated code is never committed.
find_program(ANTLR4_TOOL antlr4 DOC "ANTLR 4 generator (Debian package antlr4)")
if(NOT ANTLR4_TOOL)
  message(FATAL_ERROR "antlr4 not found: install the Debian package 'antlr4' (see README)")
endif()

function(ptxdvfs_antlr4_generate out_var)
  cmake_parse_arguments(ARG "" "LEXER;PARSER;OUTPUT_DIR" "" ${ARGN})
  get_filename_component(lexer_name ${ARG_LEXER} NAME_WE)
  get_filename_component(parser_name ${ARG_PARSER} NAME_WE)
  set(lexer_out ${ARG_OUTPUT_DIR}/${lexer_name}.cpp ${ARG_OUTPUT_DIR}/${lexer_name}.h
                ${ARG_OUTPUT_DIR}/${lexer_name}.tokens)
  set(parser_out ${ARG_OUTPUT_DIR}/${parser_name}.cpp ${ARG_OUTPUT_DIR}/${parser_name}.h)
  add_custom_command(
    OUTPUT ${lexer_out}
    COMMAND ${ANTLR4_TOOL} -Dlanguage=Cpp -no-listener -no-visitor
            -o ${ARG_OUTPUT_DIR} ${ARG_LEXER}
    DEPENDS ${ARG_LEXER}
    COMMENT "ANTLR: generating ${lexer_name}"
    VERBATIM)
  add_custom_command(
    OUTPUT ${parser_out}
    COMMAND ${ANTLR4_TOOL} -Dlanguage=Cpp -no-listener -no-visitor
            -lib ${ARG_OUTPUT_DIR} -o ${ARG_OUTPUT_DIR} ${ARG_PARSER}
    DEPENDS ${ARG_PARSER} ${lexer_out}
    COMMENT "ANTLR: generating ${parser_name}"
    VERBATIM)
  set(${out_var} ${ARG_OUTPUT_DIR}/${lexer_name}.cpp ${ARG_OUTPUT_DIR}/${parser_name}.cpp
      PARENT_SCOPE)
endfunction()
