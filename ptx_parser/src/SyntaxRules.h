// SyntaxRules.h - the recursive-descent parser behind parseTokens, shared by its two halves:
// SyntaxParser.cpp (module level: directives, declarations, functions) and StatementParser.cpp
// (function bodies: statements and operands), as LLVM splits its parsers.
//
// Each rule function is named after the grammar/PTXParser.g4 rule it implements and quotes it
// in its comment; keep them in step with the grammar (SyntaxParserTest compares the verdicts of
// both parsers on every fixture and on damaged copies of them).
#pragma once

#include "AstValues.h"
#include "PTXLexer.h"
#include "SyntaxParser.h"

#include <map>
#include <tuple>

namespace ptxdvfs::ptx::syntax {

using Tok = PTXLexer;

/// Thrown at the first token the grammar does not allow; caught per item.
struct SyntaxError {
  std::size_t at;       ///< token index
  const char *expected; ///< what the rule wanted, for the message
};

inline bool isStateSpace(std::uint32_t type) {
  switch (type) {
  case Tok::REG: case Tok::SREG: case Tok::LOCAL: case Tok::SHARED:
  case Tok::GLOBAL: case Tok::CONST: case Tok::PARAM: case Tok::TEX:
    return true;
  default:
    return false;
  }
}

inline StateSpace stateSpaceOf(std::uint32_t type) {
  switch (type) {
  case Tok::SREG: return StateSpace::SReg;
  case Tok::LOCAL: return StateSpace::Local;
  case Tok::SHARED: return StateSpace::Shared;
  case Tok::GLOBAL: return StateSpace::Global;
  case Tok::CONST: return StateSpace::Const;
  case Tok::PARAM: return StateSpace::Param;
  case Tok::TEX: return StateSpace::Tex;
  default: return StateSpace::Reg;
  }
}

inline bool startsVariableAttribute(std::uint32_t type) {
  return type == Tok::DOT_NAME || type == Tok::ALIGN || type == Tok::GLOBAL ||
         type == Tok::SHARED || type == Tok::CONST || type == Tok::LOCAL;
}

inline bool isValueToken(std::uint32_t type) {
  return type == Tok::IDENT || type == Tok::INTEGER || type == Tok::FLOAT ||
         type == Tok::HEX_FLOAT;
}

class SyntaxParser {
public:
  SyntaxParser(const std::vector<LexedToken> &tokens, std::size_t begin, std::size_t end,
               std::string_view source, const std::string &path, Module &module,
               Diagnostics &diagnostics)
      : tokens_(tokens), position_(begin), end_(end), path_(path), module_(module),
        diagnostics_(diagnostics), reader_(source, path, diagnostics) {}

  /// Parses every top-level item; an item that fails is skipped.
  SyntaxParseResult run();

private:
  // ---- tokens ---------------------------------------------------------------

  std::uint32_t peek() const { return position_ < end_ ? tokens_[position_].type : kEofTokenType; }
  bool at(std::uint32_t type) const { return peek() == type; }
  const LexedToken &take() { return tokens_[position_++]; }
  [[noreturn]] void fail(const char *what) const { throw SyntaxError{position_, what}; }
  const LexedToken &previous() const { return tokens_[position_ - 1]; }
  const LexedToken &expect(std::uint32_t type, const char *what) {
    if (!at(type))
      throw SyntaxError{position_, what};
    return take();
  }
  bool accept(std::uint32_t type) {
    if (!at(type))
      return false;
    ++position_;
    return true;
  }
  std::string_view textFrom(const LexedToken &first) const {
    return reader_.textBetween(first, previous());
  }
  static SourceLocation locationOf(const LexedToken &token) {
    return TokenReader::locationOf(token);
  }

  // ---- module level (SyntaxParser.cpp) --------------------------------------

  Diagnostic describe(const SyntaxError &error) const;
  std::size_t resumePoint(std::size_t itemStart, std::size_t failedAt) const;
  static bool startsModuleItem(std::uint32_t type);
  void moduleItem();
  void declaration();
  void functionDecl(Linkage linkage);
  void paramList(std::vector<VariableDecl> &out);
  void parameter(std::vector<VariableDecl> &out);
  void arrayDimensions(VariableDecl &decl);
  PerformanceDirective performanceDirective();
  void variableAttribute(VariableDecl &decl);
  void variableDecl(std::vector<VariableDecl> &out);
  void declarator(const VariableDecl &common, std::vector<VariableDecl> &out);
  void initializer();
  void initialTerm();
  Directive pragmaDirective();
  Directive genericDirective();

  // ---- function bodies (StatementParser.cpp) --------------------------------

  void statementsBetweenBraces(std::vector<Statement> &out);
  std::size_t statementsAhead() const;
  void statement(std::vector<Statement> &out);
  Directive callPrototype();
  void loc();
  Instruction startInstruction(const LexedToken &mnemonic, const LexedToken &first);
  void operandsUntil(std::vector<Operand> &out, std::uint32_t close, const char *what);
  void operandList(std::vector<Operand> &out);
  std::size_t operandsAhead() const;
  Operand operand();

  const std::vector<LexedToken> &tokens_;
  std::size_t position_;
  std::size_t end_;
  const std::string &path_;
  Module &module_;
  Diagnostics &diagnostics_;
  TokenReader reader_;
  std::optional<DebugLocation> debugLocation_;
  /// Per source position (file, line, column), the call site it was last
  /// seen inlined at in this function: nvcc repeats an inlined position
  /// with a bare `.loc` (see loc()).
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, InlinedAt> inlinedPositions_;
};

} // namespace ptxdvfs::ptx::syntax
