// PTXParser.g4 - the syntax of a PTX module, from `.version` to the last `}`.
//
// Factored so that every decision is LL(1): the generated parser then
// switches on the next token instead of running adaptive prediction, which
// is what makes it fast enough (see bench/ParseBench.cpp). In particular a
// label and an instruction share the `IDENT` prefix and are told apart by
// the token after it, and opcodes are not listed: any mnemonic followed by
// well-formed operands parses, and later layers decide what it means.
parser grammar PTXParser;

options { tokenVocab = PTXLexer; }

module : moduleItem* EOF ;

moduleItem
    : VERSION FLOAT                                         # versionDirective
    | TARGET IDENT (COMMA IDENT)*                           # targetDirective
    | ADDRESS_SIZE INTEGER                                  # addressSizeDirective
    | FILE INTEGER STRING (COMMA INTEGER)*                  # fileDirective
    | SECTION DOT_NAME+ LBRACE (~(LBRACE | RBRACE))* RBRACE # sectionDirective
    | pragmaDirective                                       # modulePragma
    | linkage* (functionDecl | variableDecl)                # declaration
    | genericDirective                                      # otherModuleDirective
    ;

linkage : VISIBLE | EXTERN | WEAK | COMMON ;

// `.func (.param .b32 ret) name (params) .noreturn { ... }` or a prototype
// ending in `;`. Only `.func` has the result list; the builder checks that.
functionDecl
    : kind=(ENTRY | FUNC) results=paramList? name=IDENT params=paramList?
      performanceDirective* (functionBody | SEMI)
    ;

paramList : LPAREN (parameter (COMMA parameter)*)? RPAREN ;

parameter : space=(PARAM | REG) variableAttribute* name=IDENT (LBRACK INTEGER? RBRACK)* ;

// `.maxntid 256, 1, 1`, `.reqntid 128`, `.minnctapersm 4`, `.noreturn`, ...
performanceDirective : DOT_NAME (INTEGER (COMMA INTEGER)*)? ;

functionBody : LBRACE statement* RBRACE ;

// The hottest rules, `statement` and `operand`, carry no alternative labels:
// a labelled alternative makes ANTLR allocate a second context per match.
// The AST builder tells the alternatives apart by their first token.
statement
@init { _localctx->children.reserve(8); } // an instruction has ~7 children: skip 3 regrowths
    : AT BANG? IDENT IDENT (operand (COMMA operand)*)? SEMI   // guarded instruction
    | IDENT (COLON | (operand (COMMA operand)*)? SEMI)       // label or instruction
    | LBRACE statement* RBRACE                                // nested block
    | variableDecl
    | LOC INTEGER INTEGER INTEGER (COMMA locAttribute)*
    | pragmaDirective
    | CALLPROTOTYPE paramList? IDENT paramList performanceDirective* SEMI
    | genericDirective
    ;

// `function_name $L__info_string0` or `inlined_at 1 23 5`.
locAttribute : IDENT (IDENT | INTEGER INTEGER INTEGER) ;

pragmaDirective : PRAGMA STRING (COMMA STRING)* SEMI ;

// Anything else that starts with a dot-word and ends with `;`
// (`.alias`, `.calltargets`, `.branchtargets`, future directives).
genericDirective : DOT_NAME (~(SEMI | LBRACE | RBRACE))* SEMI ;

variableDecl
    : space=(REG | SREG | LOCAL | SHARED | GLOBAL | CONST | PARAM | TEX)
      variableAttribute* declarator (COMMA declarator)* SEMI
    ;

// `.b32`, `.v4`, `.ptr`, `.align 8`, `.attribute(.managed)`, and the state
// space of a pointer parameter (`.ptr .global`).
variableAttribute
    : DOT_NAME (LPAREN DOT_NAME (COMMA DOT_NAME)* RPAREN)?
    | ALIGN INTEGER
    | GLOBAL | SHARED | CONST | LOCAL
    ;

// `%r<5>` declares %r0..%r4; `x[4][8]`; `x[] = {1, 2}`.
declarator : name=IDENT (LT count=INTEGER GT)? (LBRACK INTEGER? RBRACK)* (EQUAL initializer)? ;

initializer
    : LBRACE initializer (COMMA initializer)* RBRACE
    | initialValue
    ;

// `5`, `-1`, `0f3F800000`, `x`, `x+4`, `generic(x)`.
initialValue
    : MINUS? initialTerm ((PLUS | MINUS | STAR) MINUS? initialTerm)*
    ;

initialTerm : IDENT (LPAREN IDENT RPAREN)? | INTEGER | FLOAT | HEX_FLOAT ;

// One rule with flat alternatives keeps the parse tree at one node per
// operand for the common cases (`%r1`, `42`, `$L__BB0_2`).
operand
    : LBRACK operand (COMMA operand)* RBRACK                // address
    | LBRACE (operand (COMMA operand)*)? RBRACE             // vector
    | LPAREN (operand (COMMA operand)*)? RPAREN             // call argument list
    | (MINUS | BANG | TILDE)? (IDENT | INTEGER | FLOAT | HEX_FLOAT)
      ((PLUS | MINUS | STAR) MINUS? (IDENT | INTEGER | FLOAT | HEX_FLOAT))*
      (PIPE IDENT)?                                         // scalar
    ;
