// Function.cpp - walking the instructions of a function body.
#include "ptxdvfs/ptx/Function.h"

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

} // namespace ptxdvfs::ptx
