// SyntaxParser.cpp - the module level of grammar/PTXParser.g4 as recursive descent over lexed
// tokens, building the AST directly; recovery from a failed item; parseTokens.
#include "SyntaxRules.h"

namespace ptxdvfs::ptx {

namespace syntax {

SyntaxParseResult SyntaxParser::run() {
  SyntaxParseResult result;
  while (position_ < end_) {
    std::size_t itemStart = position_;
    std::size_t keptDiagnostics = diagnostics_.size();
    try {
      moduleItem();
    } catch (const SyntaxError &error) {
      diagnostics_.resize(keptDiagnostics);
      if (!result.firstError)
        result.firstError = describe(error);
      ++result.failedItems;
      position_ = resumePoint(itemStart, error.at);
    }
  }
  return result;
}

Diagnostic SyntaxParser::describe(const SyntaxError &error) const {
  if (error.at >= end_) {
    SourceLocation where = error.at > 0 ? locationOf(tokens_[error.at - 1]) : SourceLocation{};
    return {path_, where, Severity::Error, std::string("expected ") + error.expected +
                                               " before the end of the input"};
  }
  const LexedToken &token = tokens_[error.at];
  return {path_, locationOf(token), Severity::Error,
          std::string("expected ") + error.expected + " at '" +
              std::string(reader_.text(token)) + "'"};
}

/// Where to try the next item after one failed at `failedAt`: the first
/// token after it, outside every brace the item opened, that can start a
/// top-level item. Skipping less than the whole remaining chunk keeps the
/// kernels after a damaged line in the best-effort module.
std::size_t SyntaxParser::resumePoint(std::size_t itemStart, std::size_t failedAt) const {
  std::size_t braces = 0;
  for (std::size_t i = itemStart; i < end_; ++i) {
    std::uint32_t type = tokens_[i].type;
    if (i > itemStart && i >= failedAt && braces == 0 && startsModuleItem(type))
      return i;
    if (type == Tok::LBRACE)
      ++braces;
    else if (type == Tok::RBRACE && braces > 0)
      --braces;
  }
  return end_;
}

bool SyntaxParser::startsModuleItem(std::uint32_t type) {
  switch (type) {
  case Tok::VERSION: case Tok::TARGET: case Tok::ADDRESS_SIZE: case Tok::FILE:
  case Tok::SECTION: case Tok::PRAGMA: case Tok::VISIBLE: case Tok::EXTERN:
  case Tok::WEAK: case Tok::COMMON: case Tok::ENTRY: case Tok::FUNC: case Tok::DOT_NAME:
    return true;
  default:
    return isStateSpace(type);
  }
}

void SyntaxParser::moduleItem() {
  const LexedToken &first = tokens_[position_];
  switch (first.type) {
  case Tok::VERSION: { // VERSION FLOAT
    take();
    module_.version = std::string(reader_.text(expect(Tok::FLOAT, "a version number")));
    return;
  }
  case Tok::TARGET: { // TARGET IDENT (COMMA IDENT)*
    take();
    std::vector<std::string> targets;
    do
      targets.emplace_back(reader_.text(expect(Tok::IDENT, "a target name")));
    while (accept(Tok::COMMA));
    for (auto &target : targets)
      module_.targets.push_back(std::move(target));
    return;
  }
  case Tok::ADDRESS_SIZE: // ADDRESS_SIZE INTEGER
    take();
    module_.addressSize =
        static_cast<unsigned>(reader_.integerValue(expect(Tok::INTEGER, "an address size")));
    return;
  case Tok::FILE: { // FILE INTEGER STRING (COMMA INTEGER)*
    take();
    auto index = static_cast<std::uint32_t>(
        reader_.integerValue(expect(Tok::INTEGER, "a file number")));
    std::string name = unquote(reader_.text(expect(Tok::STRING, "a quoted file name")));
    while (accept(Tok::COMMA))
      expect(Tok::INTEGER, "a number");
    module_.files[index] = std::move(name);
    return;
  }
  case Tok::SECTION: { // SECTION DOT_NAME+ LBRACE (~(LBRACE | RBRACE))* RBRACE
    take();
    std::string name(reader_.text(expect(Tok::DOT_NAME, "a section name")));
    while (at(Tok::DOT_NAME))
      name += reader_.text(take());
    expect(Tok::LBRACE, "'{'");
    while (position_ < end_ && !at(Tok::LBRACE) && !at(Tok::RBRACE))
      take();
    expect(Tok::RBRACE, "'}'");
    module_.directives.push_back({".section", std::move(name), locationOf(first)});
    return;
  }
  case Tok::PRAGMA:
    module_.directives.push_back(pragmaDirective());
    return;
  case Tok::DOT_NAME:
    module_.directives.push_back(genericDirective());
    return;
  default:
    declaration();
  }
}

/// linkage* (functionDecl | variableDecl)
void SyntaxParser::declaration() {
  const LexedToken &first = tokens_[position_];
  Linkage linkage = Linkage::None;
  for (;; take()) {
    if (at(Tok::VISIBLE)) linkage = Linkage::Visible;
    else if (at(Tok::EXTERN)) linkage = Linkage::Extern;
    else if (at(Tok::WEAK)) linkage = Linkage::Weak;
    else if (at(Tok::COMMON)) linkage = Linkage::Common;
    else break;
  }
  if (at(Tok::ENTRY) || at(Tok::FUNC)) {
    functionDecl(linkage);
    Function &function = module_.functions.back();
    function.sourceBegin = first.offset;
    function.sourceEnd = previous().offset + previous().length;
  } else if (isStateSpace(peek())) {
    std::vector<VariableDecl> globals;
    variableDecl(globals);
    for (auto &global : globals)
      module_.globals.push_back(std::move(global));
  } else {
    fail("a directive or declaration");
  }
}

/// kind=(ENTRY | FUNC) results=paramList? name=IDENT params=paramList?
/// performanceDirective* (functionBody | SEMI)
void SyntaxParser::functionDecl(Linkage linkage) {
  const LexedToken &kind = take();
  Function function;
  function.kind = kind.type == Tok::ENTRY ? FunctionKind::Entry : FunctionKind::Func;
  function.linkage = linkage;
  function.location = locationOf(kind);
  if (at(Tok::LPAREN)) {
    if (function.kind == FunctionKind::Entry)
      reader_.error(locationOf(tokens_[position_]), "a kernel (.entry) cannot return values");
    paramList(function.results);
  }
  function.name = std::string(reader_.text(expect(Tok::IDENT, "a function name")));
  if (at(Tok::LPAREN))
    paramList(function.parameters);
  while (at(Tok::DOT_NAME))
    function.performanceDirectives.push_back(performanceDirective());
  if (at(Tok::LBRACE)) {
    function.hasBody = true;
    debugLocation_.reset();
    inlinedPositions_.clear();
    statementsBetweenBraces(function.body);
    resolveScopedRegisterNames(function);
  } else {
    expect(Tok::SEMI, "'{' or ';'");
  }
  module_.functions.push_back(std::move(function));
}

/// LPAREN (parameter (COMMA parameter)*)? RPAREN
void SyntaxParser::paramList(std::vector<VariableDecl> &out) {
  expect(Tok::LPAREN, "'('");
  if (!at(Tok::RPAREN)) {
    do
      parameter(out);
    while (accept(Tok::COMMA));
  }
  expect(Tok::RPAREN, "')'");
}

/// space=(PARAM | REG) variableAttribute* name=IDENT (LBRACK INTEGER? RBRACK)*
void SyntaxParser::parameter(std::vector<VariableDecl> &out) {
  VariableDecl decl;
  if (at(Tok::REG))
    decl.space = StateSpace::Reg;
  else if (at(Tok::PARAM))
    decl.space = StateSpace::Param;
  else
    fail("'.param' or '.reg'");
  take();
  while (startsVariableAttribute(peek()))
    variableAttribute(decl);
  const LexedToken &name = expect(Tok::IDENT, "a parameter name");
  decl.name = std::string(reader_.text(name));
  decl.location = locationOf(name);
  arrayDimensions(decl);
  out.push_back(std::move(decl));
}

/// (LBRACK INTEGER? RBRACK)*
void SyntaxParser::arrayDimensions(VariableDecl &decl) {
  while (accept(Tok::LBRACK)) {
    decl.arrayDims.emplace_back();
    if (at(Tok::INTEGER))
      decl.arrayDims.back() = reader_.integerValue(take());
    expect(Tok::RBRACK, "']'");
  }
}

/// DOT_NAME (INTEGER (COMMA INTEGER)*)?
PerformanceDirective SyntaxParser::performanceDirective() {
  PerformanceDirective directive;
  directive.name = std::string(reader_.text(take()).substr(1));
  if (at(Tok::INTEGER)) {
    do
      directive.values.push_back(reader_.integerValue(expect(Tok::INTEGER, "a number")));
    while (accept(Tok::COMMA));
  }
  return directive;
}

/// DOT_NAME (LPAREN DOT_NAME (COMMA DOT_NAME)* RPAREN)? | ALIGN INTEGER
/// | GLOBAL | SHARED | CONST | LOCAL
void SyntaxParser::variableAttribute(VariableDecl &decl) {
  const LexedToken &first = take();
  if (first.type == Tok::ALIGN) {
    decl.alignment =
        static_cast<unsigned>(reader_.integerValue(expect(Tok::INTEGER, "an alignment")));
    return;
  }
  if (first.type == Tok::DOT_NAME && at(Tok::LPAREN)) { // `.attribute(.managed)`
    take();
    do
      expect(Tok::DOT_NAME, "a dot-word");
    while (accept(Tok::COMMA));
    expect(Tok::RPAREN, "')'");
    decl.attributes.emplace_back(textFrom(first).substr(1));
    return;
  }
  std::string_view word = reader_.text(first).substr(1);
  if (first.type == Tok::DOT_NAME && !decl.type) {
    if (auto type = parseScalarType(word)) {
      decl.type = type;
      return;
    }
  }
  decl.attributes.emplace_back(word);
}

/// space=(REG | ...) variableAttribute* declarator (COMMA declarator)* SEMI
void SyntaxParser::variableDecl(std::vector<VariableDecl> &out) {
  VariableDecl common;
  common.space = stateSpaceOf(take().type);
  while (startsVariableAttribute(peek()))
    variableAttribute(common);
  do
    declarator(common, out);
  while (accept(Tok::COMMA));
  expect(Tok::SEMI, "';'");
}

/// name=IDENT (LT count=INTEGER GT)? (LBRACK INTEGER? RBRACK)* (EQUAL initializer)?
void SyntaxParser::declarator(const VariableDecl &common, std::vector<VariableDecl> &out) {
  VariableDecl decl = common;
  const LexedToken &name = expect(Tok::IDENT, "a variable name");
  decl.name = std::string(reader_.text(name));
  decl.location = locationOf(name);
  if (accept(Tok::LT)) {
    decl.rangeCount =
        static_cast<unsigned>(reader_.integerValue(expect(Tok::INTEGER, "a register count")));
    expect(Tok::GT, "'>'");
  }
  arrayDimensions(decl);
  if (accept(Tok::EQUAL)) {
    const LexedToken &first = tokens_[position_];
    initializer();
    decl.initializer = std::string(textFrom(first));
  }
  out.push_back(std::move(decl));
}

/// LBRACE initializer (COMMA initializer)* RBRACE | initialValue
void SyntaxParser::initializer() {
  if (accept(Tok::LBRACE)) {
    do
      initializer();
    while (accept(Tok::COMMA));
    expect(Tok::RBRACE, "'}'");
    return;
  }
  // initialValue: MINUS? initialTerm ((PLUS | MINUS | STAR) MINUS? initialTerm)*
  accept(Tok::MINUS);
  initialTerm();
  while (at(Tok::PLUS) || at(Tok::MINUS) || at(Tok::STAR)) {
    take();
    accept(Tok::MINUS);
    initialTerm();
  }
}

/// IDENT (LPAREN IDENT RPAREN)? | INTEGER | FLOAT | HEX_FLOAT
void SyntaxParser::initialTerm() {
  if (accept(Tok::IDENT)) {
    if (accept(Tok::LPAREN)) {
      expect(Tok::IDENT, "a name");
      expect(Tok::RPAREN, "')'");
    }
    return;
  }
  if (!isValueToken(peek()))
    fail("a value");
  take();
}

/// PRAGMA STRING (COMMA STRING)* SEMI
Directive SyntaxParser::pragmaDirective() {
  const LexedToken &first = take();
  do
    expect(Tok::STRING, "a quoted string");
  while (accept(Tok::COMMA));
  expect(Tok::SEMI, "';'");
  return {".pragma", std::string(textFrom(first)), locationOf(first)};
}

/// DOT_NAME (~(SEMI | LBRACE | RBRACE))* SEMI
Directive SyntaxParser::genericDirective() {
  const LexedToken &first = take();
  while (position_ < end_ && !at(Tok::SEMI) && !at(Tok::LBRACE) && !at(Tok::RBRACE))
    take();
  expect(Tok::SEMI, "';'");
  return {std::string(reader_.text(first)), std::string(textFrom(first)), locationOf(first)};
}

} // namespace syntax

SyntaxParseResult parseTokens(const std::vector<LexedToken> &tokens, std::size_t begin,
                              std::size_t end, std::string_view source, const std::string &path,
                              Module &module, Diagnostics &diagnostics) {
  return syntax::SyntaxParser(tokens, begin, end, source, path, module, diagnostics).run();
}

} // namespace ptxdvfs::ptx
