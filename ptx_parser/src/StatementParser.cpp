// StatementParser.cpp - function bodies: the statement and operand rules of
// grammar/PTXParser.g4, building instructions, labels, blocks and directives.
#include "SyntaxRules.h"

namespace ptxdvfs::ptx::syntax {

/// LBRACE statement* RBRACE (a function body or a nested block)
void SyntaxParser::statementsBetweenBraces(std::vector<Statement> &out) {
  expect(Tok::LBRACE, "'{'");
  out.reserve(out.size() + statementsAhead());
  while (!at(Tok::RBRACE))
    statement(out);
  take();
}

/// About how many statements the block just opened holds: its `;`, `:`
/// and nested `{` (a reserve, so that a body's statements, 232 bytes each,
/// are not copied as the vector grows).
std::size_t SyntaxParser::statementsAhead() const {
  std::size_t count = 0, depth = 1;
  for (std::size_t i = position_; i < end_ && depth > 0; ++i) {
    std::uint32_t type = tokens_[i].type;
    if (type == Tok::LBRACE)
      count += depth++ == 1;
    else if (type == Tok::RBRACE)
      --depth;
    else if (depth == 1 && (type == Tok::SEMI || type == Tok::COLON))
      ++count;
  }
  return count;
}

void SyntaxParser::statement(std::vector<Statement> &out) {
  if (position_ >= end_)
    fail("a statement or '}'");
  const LexedToken &first = tokens_[position_];
  switch (first.type) {
  case Tok::AT: { // AT BANG? IDENT IDENT (operand (COMMA operand)*)? SEMI
    take();
    bool negated = accept(Tok::BANG);
    std::string_view predicate = reader_.text(expect(Tok::IDENT, "a predicate"));
    Instruction instruction = startInstruction(expect(Tok::IDENT, "an opcode"), first);
    instruction.guard = Guard{std::string(predicate), negated};
    operandsUntil(instruction.operands, Tok::SEMI, "';' or ','");
    out.push_back({std::move(instruction)});
    return;
  }
  case Tok::IDENT: { // IDENT (COLON | (operand (COMMA operand)*)? SEMI)
    take();
    if (accept(Tok::COLON)) {
      out.push_back({Label{std::string(reader_.text(first)), locationOf(first)}});
      return;
    }
    Instruction instruction = startInstruction(first, first);
    operandsUntil(instruction.operands, Tok::SEMI, "';' or ','");
    out.push_back({std::move(instruction)});
    return;
  }
  case Tok::LBRACE: {
    Block nested;
    nested.location = locationOf(first);
    statementsBetweenBraces(nested.statements);
    out.push_back({std::move(nested)});
    return;
  }
  case Tok::LOC:
    loc();
    return;
  case Tok::PRAGMA:
    out.push_back({pragmaDirective()});
    return;
  case Tok::CALLPROTOTYPE:
    out.push_back({callPrototype()});
    return;
  case Tok::DOT_NAME:
    out.push_back({genericDirective()});
    return;
  default: {
    if (!isStateSpace(first.type))
      fail("a statement or '}'");
    std::vector<VariableDecl> decls;
    variableDecl(decls);
    for (auto &decl : decls)
      out.push_back({std::move(decl)});
  }
  }
}

/// CALLPROTOTYPE paramList? IDENT paramList performanceDirective* SEMI,
/// kept as text: its parameters declare nothing in the function.
Directive SyntaxParser::callPrototype() {
  const LexedToken &first = take();
  std::size_t keptDiagnostics = diagnostics_.size();
  std::vector<VariableDecl> unused;
  if (at(Tok::LPAREN))
    paramList(unused);
  expect(Tok::IDENT, "a prototype name");
  paramList(unused);
  while (at(Tok::DOT_NAME))
    performanceDirective();
  expect(Tok::SEMI, "';'");
  diagnostics_.resize(keptDiagnostics);
  return {".callprototype", std::string(textFrom(first)), locationOf(first)};
}

/// LOC INTEGER INTEGER INTEGER (COMMA locAttribute)*, where locAttribute
/// is IDENT (IDENT | INTEGER INTEGER INTEGER): `function_name LABEL` (not
/// kept) or `inlined_at FILE LINE COLUMN`.
void SyntaxParser::loc() {
  take();
  auto number = [&] {
    return static_cast<std::uint32_t>(reader_.integerValue(expect(Tok::INTEGER, "a number")));
  };
  DebugLocation location;
  location.fileIndex = number();
  location.line = number();
  location.column = number();
  while (accept(Tok::COMMA)) {
    std::string_view key = reader_.text(expect(Tok::IDENT, "a .loc attribute"));
    if (accept(Tok::IDENT))
      continue;
    if (key != "inlined_at") {
      for (int i = 0; i < 3; ++i)
        expect(Tok::INTEGER, "a number");
      continue;
    }
    InlinedAt inlined;
    inlined.fileIndex = number();
    inlined.line = number();
    inlined.column = number();
    location.inlinedAt = inlined;
  }
  // nvcc repeats an inlined position bare (`.loc 22 60 3, function_name
  // ..., inlined_at 32 639 7`, then `.loc 22 60 3` a few lines on). A
  // position of the source is either the function's own code or inlined
  // into it, so the bare repeat is still inlined at the same call site.
  auto position = std::make_tuple(location.fileIndex, location.line, location.column);
  if (location.inlinedAt)
    inlinedPositions_[position] = *location.inlinedAt;
  else if (auto seen = inlinedPositions_.find(position); seen != inlinedPositions_.end())
    location.inlinedAt = seen->second;
  debugLocation_ = std::move(location);
}

Instruction SyntaxParser::startInstruction(const LexedToken &mnemonic, const LexedToken &first) {
  Instruction instruction;
  instruction.mnemonic = reader_.text(mnemonic);
  splitMnemonic(instruction.mnemonic, instruction.opcode, instruction.modifiers);
  instruction.details = readDetails(instruction.modifiers);
  instruction.location = locationOf(first);
  instruction.lineText = reader_.lineOf(first);
  instruction.debugLocation = debugLocation_;
  return instruction;
}

/// (operand (COMMA operand)*)? CLOSE: an instruction's operands before its
/// `;`, or the elements of a vector `{...}` or argument list `(...)`.
void SyntaxParser::operandsUntil(std::vector<Operand> &out, std::uint32_t close, const char *what) {
  if (!accept(close)) {
    operandList(out);
    expect(close, what);
  }
}

/// operand (COMMA operand)*
void SyntaxParser::operandList(std::vector<Operand> &out) {
  out.reserve(operandsAhead());
  do
    out.push_back(operand());
  while (accept(Tok::COMMA));
}

/// How many operands the list starting here holds: its commas outside
/// brackets, plus one (a reserve, so that each list is allocated once).
std::size_t SyntaxParser::operandsAhead() const {
  std::size_t count = 1, depth = 0;
  for (std::size_t i = position_; i < end_; ++i) {
    std::uint32_t type = tokens_[i].type;
    if (type == Tok::LBRACK || type == Tok::LBRACE || type == Tok::LPAREN) {
      ++depth;
    } else if (type == Tok::RBRACK || type == Tok::RBRACE || type == Tok::RPAREN) {
      if (depth-- == 0)
        break;
    } else if (type == Tok::SEMI) {
      break;
    } else if (type == Tok::COMMA && depth == 0) {
      ++count;
    }
  }
  return count;
}

/// LBRACK operand (COMMA operand)* RBRACK | LBRACE (operand (COMMA operand)*)? RBRACE
/// | LPAREN (operand (COMMA operand)*)? RPAREN
/// | (MINUS | BANG | TILDE)? value ((PLUS | MINUS | STAR) MINUS? value)* (PIPE IDENT)?
Operand SyntaxParser::operand() {
  if (position_ >= end_)
    fail("an operand");
  std::size_t start = position_;
  Operand operand;
  operand.location = locationOf(tokens_[start]);
  switch (take().type) {
  case Tok::LBRACK: {
    Address address;
    operandList(address.parts);
    expect(Tok::RBRACK, "']' or ','");
    operand.value = std::move(address);
    return operand;
  }
  case Tok::LBRACE: {
    VectorPack vector;
    operandsUntil(vector.elements, Tok::RBRACE, "'}' or ','");
    operand.value = std::move(vector);
    return operand;
  }
  case Tok::LPAREN: {
    ArgumentList arguments;
    operandsUntil(arguments.elements, Tok::RPAREN, "')' or ','");
    operand.value = std::move(arguments);
    return operand;
  }
  case Tok::MINUS: case Tok::BANG: case Tok::TILDE:
    break;
  default:
    --position_; // the value itself
  }
  if (!isValueToken(peek()))
    fail("an operand");
  take();
  while (at(Tok::PLUS) || at(Tok::MINUS) || at(Tok::STAR)) {
    take();
    accept(Tok::MINUS);
    if (!isValueToken(peek()))
      fail("a value");
    take();
  }
  if (accept(Tok::PIPE))
    expect(Tok::IDENT, "a predicate");
  operand.value = reader_.scalar(&tokens_[start], position_ - start);
  return operand;
}

} // namespace ptxdvfs::ptx::syntax
