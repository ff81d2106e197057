// CallArguments.cpp - what a `call` passes its callee; see CallArguments.h.
#include "CallArguments.h"

#include <string>

namespace ptxdvfs::ptx::analysis {

const Function *calleeOf(const Module &module, const Instruction &call) {
  for (const Operand &operand : call.operands)
    if (const auto *symbol = operand.getIf<Symbol>())
      for (const Function &function : module.functions)
        if (function.name == symbol->name && function.hasBody)
          return &function;
  return nullptr;
}

Bindings callArguments(const ControlFlowGraph &graph, const ValueEvaluator &values, std::uint32_t call,
                       const Function &callee, const Bindings &bindings) {
  Bindings arguments;
  const auto &operands = graph.instructions[call]->operands;
  const ArgumentList *list = nullptr;
  for (std::size_t o = 0; o + 1 < operands.size() && !list; ++o)
    if (const auto *symbol = operands[o].getIf<Symbol>(); symbol && symbol->name == callee.name)
      list = operands[o + 1].getIf<ArgumentList>();
  if (!list)
    return arguments;
  for (std::size_t a = 0; a < list->elements.size() && a < callee.parameters.size(); ++a) {
    const auto *argument = list->elements[a].getIf<Symbol>();
    if (!argument)
      continue;
    // The store is in the call's own `{ // callseq ... }` block, after the
    // previous call: a struct of 30 fields is 30 stores, so no fixed window.
    constexpr std::uint32_t kMaxCallSequence = 4096;
    for (std::uint32_t i = call; i-- > 0 && call - i <= kMaxCallSequence;) {
      const Instruction &store = *graph.instructions[i];
      if (store.opcode == "call")
        break;
      if (store.opcode != "st" || store.details.space != StateSpace::Param || store.operands.size() != 2)
        continue;
      const auto *address = store.operands[0].getIf<Address>();
      if (!address || address->parts.size() != 1)
        continue;
      const auto *symbol = address->parts[0].getIf<Symbol>();
      const auto *offset = address->parts[0].getIf<RegisterOffset>();
      if ((symbol && symbol->name == argument->name) || (offset && offset->base == argument->name)) {
        // A struct passed by value is stored field by field (`[param0+4]`),
        // each bound as NAME+BYTES; the last store before the call counts.
        const std::int64_t field = offset ? offset->offset : 0;
        std::string name = callee.parameters[a].name + (field != 0 ? "+" + std::to_string(field) : "");
        arguments.try_emplace(std::move(name), Binding{values.operandAt(store.operands[1], i, bindings), {}});
      }
    }
  }
  return arguments;
}

} // namespace ptxdvfs::ptx::analysis
