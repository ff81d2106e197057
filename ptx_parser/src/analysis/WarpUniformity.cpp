// WarpUniformity.cpp - a fixpoint of data and sync dependence on thread-varying values.
#include "ptxdvfs/ptx/analysis/WarpUniformity.h"

#include "RegisterNames.h"

#include <algorithm>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Special registers that differ between the lanes of one warp.
bool specialRegisterVaries(std::string_view base, std::string_view component) {
  if (base == "%tid")
    return component == "x";
  return base == "%laneid" || base.substr(0, 10) == "%lanemask_";
}

/// Opcodes whose result differs per lane whatever they read.
bool alwaysVaries(std::string_view opcode) {
  return opcode == "atom" || opcode == "shfl" || opcode == "match" || opcode == "call";
}

bool isLoad(std::string_view opcode) { return opcode == "ld" || opcode == "ldu"; }

} // namespace

WarpUniformity::WarpUniformity(const ControlFlowGraph &graph) : graph_(graph) {
  destinations_.reserve(graph.instructions.size());
  for (const Instruction *instruction : graph.instructions)
    destinations_.push_back(destinationRegisters(*instruction));
  // Reaching definitions and post-dominators serve divergent branches only:
  // built at the first one.
  LaunchAssumptions launch; // no value is evaluated
  std::optional<ValueEvaluator> values;
  std::set<std::uint32_t> handledBranches;
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::uint32_t i = 0; i < graph.instructions.size(); ++i)
      changed = markDestinations(i) || changed;
    changed = markDivergentJoins(launch, values, handledBranches) || changed;
  }
}

bool WarpUniformity::operandVaries(const Operand &operand) const {
  if (const auto *reg = operand.getIf<Register>())
    return specialRegisterVaries(reg->name, {}) || varies(reg->name);
  if (const auto *element = operand.getIf<VectorElement>())
    return specialRegisterVaries(element->base, element->component) || varies(element->base);
  if (const auto *offset = operand.getIf<RegisterOffset>())
    return varies(offset->base);
  if (const auto *address = operand.getIf<Address>())
    return std::any_of(address->parts.begin(), address->parts.end(),
                       [&](const Operand &part) { return operandVaries(part); });
  if (const auto *pack = operand.getIf<VectorPack>())
    return std::any_of(pack->elements.begin(), pack->elements.end(),
                       [&](const Operand &element) { return operandVaries(element); });
  if (const auto *arguments = operand.getIf<ArgumentList>())
    return std::any_of(arguments->elements.begin(), arguments->elements.end(),
                       [&](const Operand &element) { return operandVaries(element); });
  return false;
}

bool WarpUniformity::addressVaries(const Instruction &instruction) const {
  bool hasAddress = false;
  for (const Operand &operand : instruction.operands)
    if (operand.is<Address>()) {
      hasAddress = true;
      if (operandVaries(operand))
        return true;
    }
  return !hasAddress;
}

bool WarpUniformity::isWarpUniformGlobalLoad(const Instruction &instruction) const {
  return isLoad(instruction.opcode) && instruction.details.space == StateSpace::Global &&
         !addressVaries(instruction);
}

bool WarpUniformity::resultVaries(const Instruction &instruction) const {
  if (instruction.guard && varies(instruction.guard->predicate))
    return true;
  if (alwaysVaries(instruction.opcode))
    return true;
  if (isLoad(instruction.opcode)) {
    if (instruction.details.space == StateSpace::Local)
      return true;
    if (instruction.details.space == StateSpace::Param)
      return graph_.function == nullptr || graph_.function->kind != FunctionKind::Entry;
    return addressVaries(instruction);
  }
  // Sources are every operand after the destination (operand 0).
  for (std::size_t i = 1; i < instruction.operands.size(); ++i)
    if (operandVaries(instruction.operands[i]))
      return true;
  return false;
}

bool WarpUniformity::markDestinations(std::uint32_t index) {
  const std::vector<std::string> &destinations = destinations_[index];
  if (destinations.empty() || !resultVaries(*graph_.instructions[index]))
    return false;
  bool changed = false;
  for (const std::string &name : destinations)
    changed = varying_.insert(name).second || changed;
  return changed;
}

bool WarpUniformity::markDivergentJoins(const LaunchAssumptions &launch,
                                        std::optional<ValueEvaluator> &values,
                                        std::set<std::uint32_t> &handled) {
  bool changed = false;
  auto mark = [&](const std::string &name) { changed = varying_.insert(name).second || changed; };
  for (std::uint32_t b = 0; b < graph_.blocks.size(); ++b) {
    const BasicBlock &block = graph_.blocks[b];
    const Instruction *branch = graph_.terminator(b);
    if (!branch || branch->opcode != "bra" || !branch->guard || block.successors.size() < 2 ||
        !varies(branch->guard->predicate) || !handled.insert(b).second)
      continue;
    if (!values) {
      values.emplace(graph_, launch);
      postDominators_.emplace(graph_);
    }
    // The lanes part here and meet again at the immediate post-dominator
    // (kNoBlock: only at the function's end); what lies between is the
    // divergent region, and a join in it meets lanes from both sides.
    std::uint32_t meet = postDominators_->immediate(b);
    std::vector<bool> taken = reachableWithin(graph_, block.successors[0], meet);
    std::vector<bool> fallen = reachableWithin(graph_, block.successors[1], meet);
    if (taken[b] || fallen[b]) {
      // A loop whose exit diverges: lanes leave after different iterations,
      // so whatever the loop defines differs between them afterwards.
      std::vector<bool> after = meet == kNoBlock ? std::vector<bool>(graph_.blocks.size(), false)
                                                 : reachableWithin(graph_, meet, kNoBlock);
      std::set<std::string_view> readAfter = registersRead(after);
      for (std::uint32_t region = 0; region < graph_.blocks.size(); ++region)
        if (taken[region] || fallen[region])
          for (std::uint32_t i = graph_.blocks[region].first; i < graph_.blocks[region].end; ++i)
            for (const std::string &name : destinations_[i])
              if (readAfter.count(name))
                mark(name);
      continue;
    }
    for (std::uint32_t join = 0; join < graph_.blocks.size(); ++join) {
      const BasicBlock &candidate = graph_.blocks[join];
      bool meets = join == meet || (taken[join] && fallen[join] && candidate.predecessors.size() > 1);
      if (!meets || candidate.size() == 0)
        continue;
      // A register live here that arrives with different definitions from
      // the two sides holds different values in the lanes that meet.
      std::set<std::string_view> readLater = registersRead(reachableWithin(graph_, join, kNoBlock));
      for (std::string_view name : readLater)
        if (!varies(name) && values->reachingDefinitions(name, candidate.first).size() > 1)
          mark(std::string(name));
    }
  }
  return changed;
}

std::set<std::string_view> WarpUniformity::registersRead(const std::vector<bool> &blocks) const {
  std::set<std::string_view> names;
  for (std::uint32_t b = 0; b < graph_.blocks.size(); ++b)
    if (blocks[b])
      for (std::uint32_t i = graph_.blocks[b].first; i < graph_.blocks[b].end; ++i)
        for (std::string_view name : sourceRegisters(*graph_.instructions[i], !destinations_[i].empty()))
          names.insert(name);
  return names;
}

} // namespace ptxdvfs::ptx::analysis
