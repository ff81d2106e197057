// AstBuilder.cpp - parse tree to AST: instructions, operands, declarations.
#include "AstBuilder.h"

#include "TokenStream.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace ptxdvfs::ptx {

using antlr4::tree::ParseTree;
using antlr4::tree::TerminalNode;

namespace {

/// Parses an INTEGER token: decimal, 0x hex, 0b binary, leading-0 octal
/// (PTX ISA 4.5.1), optional U suffix. nullopt when it exceeds 64 bits.
std::optional<std::uint64_t> parseIntegerLiteral(std::string_view text) {
  if (!text.empty() && text.back() == 'U')
    text.remove_suffix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
  }
  std::uint64_t value = 0;
  for (char c : text) {
    unsigned digit = (c >= '0' && c <= '9')   ? unsigned(c - '0')
                     : (c >= 'a' && c <= 'f') ? unsigned(c - 'a' + 10)
                     : (c >= 'A' && c <= 'F') ? unsigned(c - 'A' + 10)
                                              : 99;
    if (digit >= static_cast<unsigned>(base))
      return std::nullopt;
    if (value > (UINT64_MAX - digit) / static_cast<unsigned>(base))
      return std::nullopt;
    value = value * static_cast<unsigned>(base) + digit;
  }
  return value;
}

class Builder {
public:
  Builder(std::string_view source, const std::string &path, bool treeHasErrors,
          Module &module, Diagnostics &diagnostics)
      : source_(source), path_(path), treeHasErrors_(treeHasErrors), module_(module),
        diagnostics_(diagnostics) {}

  void build(PTXParser::ModuleContext *tree) {
    // moduleItem* EOF
    for (std::size_t i = 0; i + 1 < tree->children.size(); ++i) {
      auto *item = ruleAt<PTXParser::ModuleItemContext>(tree, i);
      if (usable(item))
        buildModuleItem(item);
    }
  }

private:
  // ---- helpers over tokens and text ---------------------------------------

  bool usable(ParseTree *tree) const { return !treeHasErrors_ || isClean(tree); }

  static bool isClean(ParseTree *tree) {
    if (dynamic_cast<antlr4::tree::ErrorNode *>(tree))
      return false;
    if (auto *rule = dynamic_cast<antlr4::ParserRuleContext *>(tree); rule && rule->exception)
      return false;
    for (auto *child : tree->children)
      if (!isClean(child))
        return false;
    return true;
  }

  /// Tokens of clean subtrees all come from the lexer (conjured ones have
  /// no index and only appear inside error nodes).
  static const PtxToken *ptxToken(antlr4::Token *token) {
    if (!token || token->getTokenIndex() == INVALID_INDEX)
      return nullptr;
    return static_cast<const PtxToken *>(token);
  }

  static std::string_view text(antlr4::Token *token) {
    const PtxToken *ptx = ptxToken(token);
    return ptx ? ptx->textView() : std::string_view();
  }
  static std::string_view text(TerminalNode *node) {
    return node ? text(node->getSymbol()) : std::string_view();
  }

  // Clean subtrees have exactly the shape the grammar gives them, so the
  // hot paths read children by position instead of the generated
  // accessors, which dynamic_cast every child on every call.
  static antlr4::Token *tokenAt(antlr4::ParserRuleContext *ctx, std::size_t i) {
    return static_cast<TerminalNode *>(ctx->children[i])->getSymbol();
  }
  template <typename Context> static Context *ruleAt(antlr4::ParserRuleContext *ctx, std::size_t i) {
    return static_cast<Context *>(ctx->children[i]);
  }
  static std::size_t firstTokenType(antlr4::ParserRuleContext *ctx) {
    return ctx->getStart()->getType();
  }

  static SourceLocation locationOf(antlr4::Token *token) {
    const PtxToken *ptx = ptxToken(token);
    if (!ptx)
      return {};
    return {ptx->lexed().line, ptx->lexed().column};
  }
  static SourceLocation locationOf(antlr4::ParserRuleContext *ctx) {
    return locationOf(ctx->getStart());
  }

  /// The source text a rule covers, as written (comments and spacing kept).
  std::string_view sourceText(antlr4::ParserRuleContext *ctx) const {
    const PtxToken *start = ptxToken(ctx->getStart());
    const PtxToken *stop = ptxToken(ctx->getStop());
    if (!start || !stop || stop->lexed().offset < start->lexed().offset)
      return {};
    std::size_t end = stop->lexed().offset + stop->lexed().length;
    return source_.substr(start->lexed().offset, end - start->lexed().offset);
  }

  std::string_view lineContaining(std::uint32_t offset) const {
    std::size_t begin = offset == 0 ? std::string_view::npos : source_.rfind('\n', offset - 1);
    begin = begin == std::string_view::npos ? 0 : begin + 1;
    std::size_t end = source_.find('\n', offset);
    if (end == std::string_view::npos)
      end = source_.size();
    if (end > begin && source_[end - 1] == '\r')
      --end;
    return source_.substr(begin, end - begin);
  }

  void error(SourceLocation location, std::string message) {
    diagnostics_.push_back({path_, location, Severity::Error, std::move(message)});
  }

  std::uint64_t integerValue(antlr4::Token *token) {
    auto value = parseIntegerLiteral(text(token));
    if (!value) {
      error(locationOf(token),
            "integer literal '" + std::string(text(token)) + "' does not fit in 64 bits");
      return 0;
    }
    return *value;
  }
  std::uint64_t integerValue(TerminalNode *node) {
    return node ? integerValue(node->getSymbol()) : 0;
  }

  static std::string unquote(std::string_view quoted) {
    if (quoted.size() < 2)
      return std::string(quoted);
    quoted = quoted.substr(1, quoted.size() - 2);
    std::string result;
    result.reserve(quoted.size());
    for (std::size_t i = 0; i < quoted.size(); ++i) {
      if (quoted[i] == '\\' && i + 1 < quoted.size())
        ++i;
      result += quoted[i];
    }
    return result;
  }

  // ---- module level -------------------------------------------------------

  void buildModuleItem(PTXParser::ModuleItemContext *item) {
    if (auto *version = dynamic_cast<PTXParser::VersionDirectiveContext *>(item)) {
      module_.version = std::string(text(version->FLOAT()));
    } else if (auto *target = dynamic_cast<PTXParser::TargetDirectiveContext *>(item)) {
      for (auto *name : target->IDENT())
        module_.targets.emplace_back(text(name));
    } else if (auto *size = dynamic_cast<PTXParser::AddressSizeDirectiveContext *>(item)) {
      module_.addressSize = static_cast<unsigned>(integerValue(size->INTEGER()));
    } else if (auto *file = dynamic_cast<PTXParser::FileDirectiveContext *>(item)) {
      auto index = static_cast<std::uint32_t>(integerValue(file->INTEGER(0)));
      module_.files[index] = unquote(text(file->STRING()));
    } else if (auto *section = dynamic_cast<PTXParser::SectionDirectiveContext *>(item)) {
      // The name is the dot-words before `{`; the body holds more of them.
      std::string name;
      for (auto *child : section->children) {
        auto *terminal = dynamic_cast<TerminalNode *>(child);
        if (terminal && terminal->getSymbol()->getType() == PTXParser::LBRACE)
          break;
        if (terminal && terminal->getSymbol()->getType() == PTXParser::DOT_NAME)
          name += text(terminal);
      }
      module_.directives.push_back({".section", name, locationOf(section)});
    } else if (auto *pragma = dynamic_cast<PTXParser::ModulePragmaContext *>(item)) {
      module_.directives.push_back(
          {".pragma", std::string(sourceText(pragma)), locationOf(pragma)});
    } else if (auto *declaration = dynamic_cast<PTXParser::DeclarationContext *>(item)) {
      buildDeclaration(declaration);
    } else if (auto *other = dynamic_cast<PTXParser::OtherModuleDirectiveContext *>(item)) {
      auto *directive = other->genericDirective();
      module_.directives.push_back({std::string(text(directive->DOT_NAME())),
                                    std::string(sourceText(directive)), locationOf(other)});
    }
  }

  static Linkage linkageOf(PTXParser::LinkageContext *ctx) {
    switch (ctx->getStart()->getType()) {
    case PTXParser::VISIBLE: return Linkage::Visible;
    case PTXParser::EXTERN: return Linkage::Extern;
    case PTXParser::WEAK: return Linkage::Weak;
    case PTXParser::COMMON: return Linkage::Common;
    }
    return Linkage::None;
  }

  void buildDeclaration(PTXParser::DeclarationContext *ctx) {
    Linkage linkage = Linkage::None;
    for (auto *link : ctx->linkage())
      linkage = linkageOf(link);
    if (auto *variable = ctx->variableDecl()) {
      buildVariables(variable, module_.globals);
      return;
    }
    if (auto *function = ctx->functionDecl())
      buildFunction(function, linkage);
  }

  void buildFunction(PTXParser::FunctionDeclContext *ctx, Linkage linkage) {
    Function function;
    function.kind = ctx->kind->getType() == PTXParser::ENTRY ? FunctionKind::Entry
                                                             : FunctionKind::Func;
    function.linkage = linkage;
    function.name = std::string(text(ctx->name));
    function.location = locationOf(ctx->kind);
    if (ctx->results) {
      if (function.kind == FunctionKind::Entry)
        error(locationOf(ctx->results), "a kernel (.entry) cannot return values");
      buildParameters(ctx->results, function.results);
    }
    if (ctx->params)
      buildParameters(ctx->params, function.parameters);
    for (auto *directive : ctx->performanceDirective())
      function.performanceDirectives.push_back(buildPerformanceDirective(directive));
    if (auto *body = ctx->functionBody()) {
      function.hasBody = true;
      currentDebugLocation_.reset();
      buildStatementsBetweenBraces(body, function.body);
    }
    module_.functions.push_back(std::move(function));
  }

  PerformanceDirective buildPerformanceDirective(PTXParser::PerformanceDirectiveContext *ctx) {
    PerformanceDirective directive;
    directive.name = std::string(text(ctx->DOT_NAME()).substr(1));
    for (auto *value : ctx->INTEGER())
      directive.values.push_back(integerValue(value));
    return directive;
  }

  void buildParameters(PTXParser::ParamListContext *ctx, std::vector<VariableDecl> &out) {
    for (auto *param : ctx->parameter()) {
      VariableDecl decl;
      decl.space = param->space->getType() == PTXParser::REG ? StateSpace::Reg
                                                             : StateSpace::Param;
      for (auto *attribute : param->variableAttribute())
        applyAttribute(attribute, decl);
      decl.name = std::string(text(param->name));
      decl.location = locationOf(param->name);
      readArrayDims(param->children, decl);
      out.push_back(std::move(decl));
    }
  }

  /// `[4][]`: a dimension's INTEGER, if any, follows its `[` among the
  /// rule's direct children.
  void readArrayDims(const std::vector<ParseTree *> &children, VariableDecl &decl) {
    bool inBrackets = false;
    for (auto *child : children) {
      auto *terminal = dynamic_cast<TerminalNode *>(child);
      if (!terminal)
        continue;
      std::size_t type = terminal->getSymbol()->getType();
      if (type == PTXParser::LBRACK) {
        inBrackets = true;
        decl.arrayDims.push_back(std::nullopt);
      } else if (type == PTXParser::INTEGER && inBrackets) {
        decl.arrayDims.back() = integerValue(terminal);
      } else if (type == PTXParser::RBRACK) {
        inBrackets = false;
      }
    }
  }

  static std::optional<StateSpace> spaceOfToken(std::size_t type) {
    switch (type) {
    case PTXParser::REG: return StateSpace::Reg;
    case PTXParser::SREG: return StateSpace::SReg;
    case PTXParser::LOCAL: return StateSpace::Local;
    case PTXParser::SHARED: return StateSpace::Shared;
    case PTXParser::GLOBAL: return StateSpace::Global;
    case PTXParser::CONST: return StateSpace::Const;
    case PTXParser::PARAM: return StateSpace::Param;
    case PTXParser::TEX: return StateSpace::Tex;
    default: return std::nullopt;
    }
  }

  void applyAttribute(PTXParser::VariableAttributeContext *ctx, VariableDecl &decl) {
    if (ctx->ALIGN()) {
      decl.alignment = static_cast<unsigned>(integerValue(ctx->INTEGER()));
      return;
    }
    if (!ctx->DOT_NAME().empty()) {
      std::string_view word = text(ctx->DOT_NAME(0)).substr(1);
      if (auto type = parseScalarType(word); type && !decl.type && ctx->DOT_NAME().size() == 1) {
        decl.type = type;
        return;
      }
      std::string_view whole = sourceText(ctx);
      decl.attributes.emplace_back(whole.substr(1));
      return;
    }
    decl.attributes.emplace_back(text(ctx->getStart()).substr(1));
  }

  void buildVariables(PTXParser::VariableDeclContext *ctx, std::vector<VariableDecl> &out) {
    VariableDecl common;
    common.space = spaceOfToken(ctx->space->getType()).value_or(StateSpace::Reg);
    for (auto *attribute : ctx->variableAttribute())
      applyAttribute(attribute, common);
    for (auto *declarator : ctx->declarator()) {
      VariableDecl decl = common;
      decl.name = std::string(text(declarator->name));
      decl.location = locationOf(declarator->name);
      if (declarator->count)
        decl.rangeCount =
            static_cast<unsigned>(integerValue(declarator->INTEGER(0)));
      readArrayDims(declarator->children, decl);
      if (auto *init = declarator->initializer())
        decl.initializer = std::string(sourceText(init));
      out.push_back(std::move(decl));
    }
  }

  // ---- statements ---------------------------------------------------------

  /// `{ statement* }`: a function body or a nested block.
  void buildStatementsBetweenBraces(antlr4::ParserRuleContext *ctx, std::vector<Statement> &out) {
    std::size_t end = ctx->children.size() - 1;
    out.reserve(out.size() + end - 1);
    for (std::size_t i = 1; i < end; ++i) {
      auto *statement = ruleAt<PTXParser::StatementContext>(ctx, i);
      if (usable(statement))
        buildStatement(statement, out);
    }
  }

  void buildStatement(PTXParser::StatementContext *ctx, std::vector<Statement> &out) {
    switch (firstTokenType(ctx)) {
    case PTXParser::AT: {
      // AT BANG? predicate opcode (operand (COMMA operand)*)? SEMI
      bool negated = tokenAt(ctx, 1)->getType() == PTXParser::BANG;
      std::size_t opcodeAt = negated ? 3 : 2;
      Instruction instruction = startInstruction(tokenAt(ctx, opcodeAt), ctx->getStart());
      instruction.guard = Guard{std::string(text(tokenAt(ctx, opcodeAt - 1))), negated};
      buildOperandsFrom(ctx, opcodeAt + 1, instruction.operands);
      out.push_back({std::move(instruction)});
      return;
    }
    case PTXParser::IDENT: {
      // IDENT (COLON | (operand (COMMA operand)*)? SEMI)
      antlr4::Token *name = ctx->getStart();
      if (ctx->getStop()->getType() == PTXParser::COLON) {
        out.push_back({Label{std::string(text(name)), locationOf(name)}});
        return;
      }
      Instruction instruction = startInstruction(name, name);
      buildOperandsFrom(ctx, 1, instruction.operands);
      out.push_back({std::move(instruction)});
      return;
    }
    case PTXParser::LBRACE: {
      Block nested;
      nested.location = locationOf(ctx);
      buildStatementsBetweenBraces(ctx, nested.statements);
      out.push_back({std::move(nested)});
      return;
    }
    case PTXParser::LOC:
      updateDebugLocation(ctx);
      return;
    case PTXParser::PRAGMA:
    case PTXParser::CALLPROTOTYPE:
    case PTXParser::DOT_NAME:
      out.push_back({Directive{std::string(text(ctx->getStart())), std::string(sourceText(ctx)),
                               locationOf(ctx)}});
      return;
    default: {
      // A state-space keyword: `.reg`, `.local`, `.shared`, `.param`, ...
      std::vector<VariableDecl> decls;
      buildVariables(ruleAt<PTXParser::VariableDeclContext>(ctx, 0), decls);
      for (auto &decl : decls)
        out.push_back({std::move(decl)});
      return;
    }
    }
  }

  /// LOC file line column (COMMA locAttribute)*, where a locAttribute is
  /// `function_name LABEL` (not kept) or `inlined_at FILE LINE COLUMN`.
  void updateDebugLocation(antlr4::ParserRuleContext *ctx) {
    auto number = [&](antlr4::Token *token) {
      return static_cast<std::uint32_t>(integerValue(token));
    };
    DebugLocation location;
    location.fileIndex = number(tokenAt(ctx, 1));
    location.line = number(tokenAt(ctx, 2));
    location.column = number(tokenAt(ctx, 3));
    for (std::size_t i = 5; i < ctx->children.size(); i += 2) {
      auto *attribute = ruleAt<antlr4::ParserRuleContext>(ctx, i);
      std::string_view key = text(tokenAt(attribute, 0));
      std::size_t parts = attribute->children.size();
      if (key == "inlined_at" && parts == 4) {
        location.inlinedAt = InlinedAt{number(tokenAt(attribute, 1)),
                                       number(tokenAt(attribute, 2)),
                                       number(tokenAt(attribute, 3))};
      }
    }
    currentDebugLocation_ = std::move(location);
  }

  Instruction startInstruction(antlr4::Token *mnemonic, antlr4::Token *first) {
    Instruction instruction;
    instruction.mnemonic = text(mnemonic);
    splitMnemonic(instruction.mnemonic, instruction.opcode, instruction.modifiers);
    instruction.details = readDetails(instruction.modifiers);
    instruction.location = locationOf(first);
    if (const PtxToken *token = ptxToken(first))
      instruction.lineText = lineContaining(token->lexed().offset);
    instruction.debugLocation = currentDebugLocation_;
    return instruction;
  }

  // ---- operands -----------------------------------------------------------

  /// Operands stand at `first`, `first + 2`, ... separated by commas, and
  /// one closing token (`;`, `]`, `}` or `)`) ends the list.
  void buildOperandsFrom(antlr4::ParserRuleContext *ctx, std::size_t first,
                         std::vector<Operand> &out) {
    std::size_t end = ctx->children.size() - 1;
    if (first >= end)
      return;
    out.reserve((end - first + 1) / 2);
    for (std::size_t i = first; i < end; i += 2)
      out.push_back(buildOperand(ruleAt<PTXParser::OperandContext>(ctx, i)));
  }

  Operand buildOperand(PTXParser::OperandContext *ctx) {
    Operand operand;
    operand.location = locationOf(ctx);
    switch (firstTokenType(ctx)) {
    case PTXParser::LBRACK: {
      Address value;
      buildOperandsFrom(ctx, 1, value.parts);
      operand.value = std::move(value);
      break;
    }
    case PTXParser::LBRACE: {
      VectorPack value;
      buildOperandsFrom(ctx, 1, value.elements);
      operand.value = std::move(value);
      break;
    }
    case PTXParser::LPAREN: {
      ArgumentList value;
      buildOperandsFrom(ctx, 1, value.elements);
      operand.value = std::move(value);
      break;
    }
    default:
      operand.value = buildScalar(ctx);
    }
    return operand;
  }

  static OperandValue namedValue(std::string_view name, bool negated) {
    if (name == "_")
      return Sink{};
    if (name.front() != '%')
      return Symbol{std::string(name)};
    std::size_t dot = name.find('.');
    if (dot != std::string_view::npos)
      return VectorElement{std::string(name.substr(0, dot)), std::string(name.substr(dot + 1))};
    return Register{std::string(name), negated};
  }

  Immediate buildImmediate(antlr4::Token *token, bool negative) {
    Immediate immediate;
    std::string_view digits = text(token);
    immediate.negative = negative;
    immediate.text = (negative ? "-" : "") + std::string(digits);
    switch (token->getType()) {
    case PTXParser::HEX_FLOAT: {
      bool isDouble = digits[1] == 'd' || digits[1] == 'D';
      std::size_t expected = isDouble ? 16 : 8;
      immediate.kind = isDouble ? ImmediateKind::Float64Bits : ImmediateKind::Float32Bits;
      if (digits.size() != expected + 2) {
        error(locationOf(token), "floating-point literal '" + std::string(digits) + "' needs " +
                                     std::to_string(expected) + " hex digits");
        return immediate;
      }
      immediate.bits = parseIntegerLiteral("0x" + std::string(digits.substr(2))).value_or(0);
      if (isDouble) {
        double value;
        std::memcpy(&value, &immediate.bits, sizeof value);
        immediate.value = value;
      } else {
        auto bits = static_cast<std::uint32_t>(immediate.bits);
        float value;
        std::memcpy(&value, &bits, sizeof value);
        immediate.value = value;
      }
      break;
    }
    case PTXParser::FLOAT:
      immediate.kind = ImmediateKind::DecimalFloat;
      immediate.value = std::strtod(std::string(digits).c_str(), nullptr);
      break;
    default: {
      immediate.kind = ImmediateKind::Integer;
      auto value = parseIntegerLiteral(digits);
      if (!value)
        error(locationOf(token),
              "integer literal '" + std::string(digits) + "' does not fit in 64 bits");
      immediate.bits = value.value_or(0);
      immediate.value = static_cast<double>(immediate.bits);
      break;
    }
    }
    if (negative) {
      immediate.value = -immediate.value;
      if (immediate.kind == ImmediateKind::Integer)
        immediate.bits = ~immediate.bits + 1;
    }
    return immediate;
  }

  /// The scalar forms, recognised from their token shape; anything else is
  /// kept as an Expression.
  OperandValue buildScalar(PTXParser::OperandContext *ctx) {
    antlr4::Token *tokens[4] = {};
    std::size_t count = 0;
    for (auto *child : ctx->children) {
      if (count == 4)
        return Expression{std::string(sourceText(ctx))};
      tokens[count++] = static_cast<TerminalNode *>(child)->getSymbol();
    }
    auto typeAt = [&](std::size_t i) { return tokens[i]->getType(); };
    auto isNumber = [&](std::size_t i) {
      std::size_t type = typeAt(i);
      return type == PTXParser::INTEGER || type == PTXParser::FLOAT ||
             type == PTXParser::HEX_FLOAT;
    };
    if (count == 1) {
      if (typeAt(0) == PTXParser::IDENT)
        return namedValue(text(tokens[0]), false);
      return buildImmediate(tokens[0], false);
    }
    if (count == 2 && typeAt(0) == PTXParser::MINUS && isNumber(1))
      return buildImmediate(tokens[1], true);
    if (count == 2 && typeAt(0) == PTXParser::BANG && typeAt(1) == PTXParser::IDENT)
      return Register{std::string(text(tokens[1])), true};
    if (count == 3 && typeAt(1) == PTXParser::PIPE)
      return PredicatePair{std::string(text(tokens[0])), std::string(text(tokens[2]))};
    bool offsetShape = typeAt(0) == PTXParser::IDENT &&
                       (typeAt(1) == PTXParser::PLUS || typeAt(1) == PTXParser::MINUS) &&
                       typeAt(count - 1) == PTXParser::INTEGER &&
                       (count == 3 || (count == 4 && typeAt(2) == PTXParser::MINUS));
    if (offsetShape) {
      auto magnitude = parseIntegerLiteral(text(tokens[count - 1]));
      bool negative = (typeAt(1) == PTXParser::MINUS) != (count == 4);
      if (magnitude && *magnitude <= static_cast<std::uint64_t>(INT64_MAX)) {
        auto offset = static_cast<std::int64_t>(*magnitude);
        return RegisterOffset{std::string(text(tokens[0])), negative ? -offset : offset};
      }
    }
    return Expression{std::string(sourceText(ctx))};
  }

  std::string_view source_;
  const std::string &path_;
  bool treeHasErrors_;
  Module &module_;
  Diagnostics &diagnostics_;
  std::optional<DebugLocation> currentDebugLocation_;
};

} // namespace

void splitMnemonic(std::string_view mnemonic, std::string_view &opcode,
                   std::vector<std::string_view> &modifiers) {
  std::size_t dot = mnemonic.find('.');
  opcode = mnemonic.substr(0, dot);
  modifiers.reserve(static_cast<std::size_t>(std::count(mnemonic.begin(), mnemonic.end(), '.')));
  while (dot != std::string_view::npos) {
    std::size_t next = mnemonic.find('.', dot + 1);
    modifiers.emplace_back(mnemonic.substr(dot + 1, next == std::string_view::npos
                                                        ? std::string_view::npos
                                                        : next - dot - 1));
    dot = next;
  }
}

InstructionDetails readDetails(const std::vector<std::string_view> &modifiers) {
  InstructionDetails details;
  for (std::string_view modifier : modifiers) {
    auto space = details.space ? std::nullopt : parseStateSpace(modifier);
    if (space) {
      details.space = space;
      continue;
    }
    if (auto type = parseScalarType(modifier)) {
      details.types.push_back(*type);
      continue;
    }
    if (modifier == "v2" || modifier == "v4" || modifier == "v8")
      details.vectorWidth = static_cast<unsigned>(modifier[1] - '0');
  }
  return details;
}

void buildAst(PTXParser::ModuleContext *tree, std::string_view source, const std::string &path,
              bool treeHasErrors, Module &module, Diagnostics &diagnostics) {
  Builder(source, path, treeHasErrors, module, diagnostics).build(tree);
}

} // namespace ptxdvfs::ptx
