// Function.cpp - walking the instructions of a function body, and the
// scopes of the registers it declares.
#include "ptxdvfs/ptx/Function.h"

#include <algorithm>
#include <cctype>

namespace ptxdvfs::ptx {

static void visitStatements(const std::vector<Statement> &statements,
                            const std::function<void(const Instruction &)> &visit) {
  for (const Statement &statement : statements) {
    if (const auto *instruction = statement.getIf<Instruction>())
      visit(*instruction);
    else if (const auto *block = statement.getIf<Block>())
      visitStatements(block->statements, visit);
  }
}

void Function::forEachInstruction(const std::function<void(const Instruction &)> &visit) const {
  visitStatements(body, visit);
}

std::size_t Function::instructionCount() const {
  std::size_t count = 0;
  forEachInstruction([&](const Instruction &) { ++count; });
  return count;
}

namespace {

/// The `.reg` names without `%` visible at one point of a body, innermost last.
class RegisterScopes {
public:
  void declare(const VariableDecl &variable) {
    if (variable.space == StateSpace::Reg && !variable.name.empty() && variable.name.front() != '%')
      names_.push_back(&variable);
  }
  std::size_t mark() const { return names_.size(); }
  void leave(std::size_t mark) { names_.resize(mark); }
  bool empty() const { return names_.empty(); }

  /// Whether `name` is one of them: `r0`, or `t3` of `.reg .b32 t<4>`.
  bool declares(std::string_view name) const {
    return std::any_of(names_.begin(), names_.end(), [&](const VariableDecl *variable) {
      if (!variable->rangeCount)
        return name == variable->name;
      std::string_view base = variable->name;
      if (name.size() <= base.size() || name.substr(0, base.size()) != base)
        return false;
      std::string_view digits = name.substr(base.size());
      if (digits.size() > 9 || (digits.size() > 1 && digits.front() == '0') ||
          !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return false;
      return std::stoul(std::string(digits)) < *variable->rangeCount;
    });
  }

private:
  std::vector<const VariableDecl *> names_;
};

void resolveOperand(Operand &operand, const RegisterScopes &scopes) {
  if (auto *symbol = std::get_if<Symbol>(&operand.value)) {
    if (scopes.declares(symbol->name))
      operand.value = Register{std::move(symbol->name), false};
  } else if (auto *address = std::get_if<Address>(&operand.value)) {
    for (Operand &part : address->parts)
      resolveOperand(part, scopes);
  } else if (auto *pack = std::get_if<VectorPack>(&operand.value)) {
    for (Operand &element : pack->elements)
      resolveOperand(element, scopes);
  } else if (auto *arguments = std::get_if<ArgumentList>(&operand.value)) {
    for (Operand &element : arguments->elements)
      resolveOperand(element, scopes);
  }
}

void resolveStatements(std::vector<Statement> &statements, RegisterScopes &scopes) {
  const std::size_t mark = scopes.mark();
  // A block's declarations cover all of it, wherever in it they stand.
  for (const Statement &statement : statements)
    if (const auto *variable = statement.getIf<VariableDecl>())
      scopes.declare(*variable);
  for (Statement &statement : statements) {
    if (auto *instruction = std::get_if<Instruction>(&statement.value)) {
      if (!scopes.empty())
        for (Operand &operand : instruction->operands)
          resolveOperand(operand, scopes);
    } else if (auto *block = std::get_if<Block>(&statement.value)) {
      resolveStatements(block->statements, scopes);
    }
  }
  scopes.leave(mark);
}

} // namespace

void resolveScopedRegisterNames(Function &function) {
  RegisterScopes scopes;
  for (const std::vector<VariableDecl> *declared : {&function.results, &function.parameters})
    for (const VariableDecl &variable : *declared)
      scopes.declare(variable);
  resolveStatements(function.body, scopes);
}

} // namespace ptxdvfs::ptx
