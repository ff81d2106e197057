// PTXLexer.g4 - token vocabulary of PTX (ISA 1.0 to 9.x).
//
// This lexer is the specification of the tokens. The parser is fed by the
// hand-written lexer in src/Lexer.cpp, which produces the same token types
// several times faster (the generated one converts input to UTF-32 first);
// tests/ptx_parser/LexerTest.cpp checks the two agree on every fixture.
//
// Design notes:
// - Only directives that shape the grammar are keywords. Every other
//   `.word` (types, modifiers, performance directives) is a DOT_NAME, so a
//   new PTX directive or modifier never breaks the lexer.
// - An instruction mnemonic such as `ld.global.v4.f32` or
//   `fence.proxy.async.shared::cta` is one IDENT: PTX forbids spaces inside a
//   mnemonic, and one token instead of five keeps the parser fast. The AST
//   builder splits it into opcode and modifiers. `%tid.x` is an IDENT too.
lexer grammar PTXLexer;

VERSION       : '.version' ;
TARGET        : '.target' ;
ADDRESS_SIZE  : '.address_size' ;
FILE          : '.file' ;
LOC           : '.loc' ;
PRAGMA        : '.pragma' ;
SECTION       : '.section' ;
ENTRY         : '.entry' ;
FUNC          : '.func' ;
VISIBLE       : '.visible' ;
EXTERN        : '.extern' ;
WEAK          : '.weak' ;
COMMON        : '.common' ;
REG           : '.reg' ;
SREG          : '.sreg' ;
LOCAL         : '.local' ;
SHARED        : '.shared' ;
GLOBAL        : '.global' ;
CONST         : '.const' ;
PARAM         : '.param' ;
TEX           : '.tex' ;
ALIGN         : '.align' ;
CALLPROTOTYPE : '.callprototype' ;

DOT_NAME      : '.' FOLLOW+ ('::' FOLLOW+)* ;
IDENT         : ID_START FOLLOW* ('.' FOLLOW+ ('::' FOLLOW+)*)* ;

// 0f/0F: IEEE single as 8 hex digits, 0d/0D: double as 16 (PTX ISA 4.5.1).
HEX_FLOAT     : '0' [fFdD] HEX_DIGIT+ ;
FLOAT         : DIGIT+ '.' DIGIT* EXPONENT? | DIGIT+ EXPONENT ;
INTEGER       : ('0' [xX] HEX_DIGIT+ | '0' [bB] [01]+ | DIGIT+) 'U'? ;
STRING        : '"' (~["\\\r\n] | '\\' .)* '"' ;

LPAREN : '(' ;  RPAREN : ')' ;
LBRACK : '[' ;  RBRACK : ']' ;
LBRACE : '{' ;  RBRACE : '}' ;
LT     : '<' ;  GT     : '>' ;
COMMA  : ',' ;  SEMI   : ';' ;  COLON : ':' ;
PLUS   : '+' ;  MINUS  : '-' ;  STAR  : '*' ;  SLASH : '/' ;
BANG   : '!' ;  TILDE  : '~' ;  AT    : '@' ;  PIPE  : '|' ;
EQUAL  : '=' ;  AMP    : '&' ;  CARET : '^' ;

WS            : [ \t\r\n\f]+ -> skip ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;

fragment ID_START  : [a-zA-Z_$%] ;
fragment FOLLOW    : [a-zA-Z0-9_$] ;
fragment DIGIT     : [0-9] ;
fragment HEX_DIGIT : [0-9a-fA-F] ;
fragment EXPONENT  : [eE] [+-]? DIGIT+ ;
