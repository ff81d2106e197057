// RareBranches.cpp - recognising a magnitude test against a huge bound.
#include "RareBranches.h"

#include <cmath>
#include <sstream>

namespace ptxdvfs::ptx::analysis {

namespace {

/// `setp`'s comparison of an ordinary magnitude (below `bound`, finite,
/// not NaN) against `bound` >= kRareMagnitude; nullopt for an unknown one.
std::optional<bool> ordinaryComparedWithHuge(std::string_view comparison, bool magnitudeFirst) {
  // Ordered and unordered forms (`ltu`, `neu`) agree when neither side is NaN.
  if (comparison.size() == 3 && comparison.back() == 'u')
    comparison.remove_suffix(1);
  bool less = magnitudeFirst; // magnitude < bound when it is the first operand
  if (comparison == "lt" || comparison == "le")
    return less;
  if (comparison == "gt" || comparison == "ge")
    return !less;
  if (comparison == "eq")
    return false;
  if (comparison == "ne" || comparison == "num")
    return true;
  if (comparison == "nan")
    return false;
  return std::nullopt;
}

std::string boundText(double bound) {
  if (std::isinf(bound))
    return "inf";
  std::ostringstream text;
  text.precision(10);
  text << bound;
  return text.str();
}

} // namespace

std::optional<OrdinarySide> ordinarySideOf(const ControlFlowGraph &graph, const ValueEvaluator &values,
                                           std::uint32_t block) {
  const Instruction *branch = graph.terminator(block);
  if (!branch || branch->opcode != "bra" || !branch->guard || graph.blocks[block].successors.size() != 2)
    return std::nullopt;
  std::optional<std::uint32_t> setpIndex =
      values.soleReachingDefinition(branch->guard->predicate, graph.blocks[block].end - 1);
  if (!setpIndex)
    return std::nullopt;
  const Instruction *setp = graph.instructions[*setpIndex];
  if (setp->opcode != "setp" || setp->modifiers.size() < 2 || setp->operands.size() != 3 ||
      setp->details.types.empty() || kindOf(setp->details.types.back()) != ScalarTypeKind::Float)
    return std::nullopt;
  bool predicateIsNegation = false; // `setp %p|%q`: %q is the negation
  if (const auto *pair = setp->operands[0].getIf<PredicatePair>())
    predicateIsNegation = pair->second == branch->guard->predicate;

  for (int magnitudeAt : {1, 2}) {
    const auto *reg = setp->operands[static_cast<std::size_t>(magnitudeAt)].getIf<Register>();
    const auto *bound = setp->operands[static_cast<std::size_t>(3 - magnitudeAt)].getIf<Immediate>();
    if (!reg || reg->negated || !bound || bound->kind == ImmediateKind::Integer)
      continue;
    double magnitude = bound->value;
    if (!(magnitude >= kRareMagnitude)) // a negative or NaN bound is no magnitude test
      continue;
    std::optional<std::uint32_t> absIndex = values.soleReachingDefinition(reg->name, *setpIndex);
    const Instruction *abs = absIndex ? graph.instructions[*absIndex] : nullptr;
    if (!abs || abs->opcode != "abs")
      continue;
    std::optional<bool> ordinary = ordinaryComparedWithHuge(setp->modifiers[0], magnitudeAt == 1);
    if (!ordinary)
      return std::nullopt;
    bool predicate = *ordinary != predicateIsNegation;
    OrdinarySide side;
    side.taken = predicate != branch->guard->negated;
    const auto *absOperand = abs->operands.size() == 2 ? abs->operands[1].getIf<Register>() : nullptr;
    std::string value = "|" + (absOperand ? absOperand->name : reg->name) + "|";
    side.nonFinite = std::isinf(magnitude);
    side.condition = side.nonFinite ? value + " is infinite or NaN" : value + " >= " + boundText(magnitude);
    return side;
  }
  return std::nullopt;
}

} // namespace ptxdvfs::ptx::analysis
