// TripCounts.cpp - recognising induction variables and solving a loop's exit test for its count.
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include "IntegerSemantics.h"
#include "Reasons.h"

#include <algorithm>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Searches for the exit no further than this many iterations: a loop
/// that has not left by then is reported as not understood.
constexpr std::uint64_t kMaxSearch = std::uint64_t{1} << 40;

/// One side of the exit comparison, as a function of the iteration.
struct Side {
  std::optional<InductionVariable> induction; ///< empty: loop-invariant `value`
  bool afterUpdate = false; ///< reads the variable after this iteration's update
  std::int64_t offset = 0;  ///< plus a loop-invariant (`add %r7, %iv, 1` then compared)
  Value value;              ///< the invariant value, or the variable's initial value
  Value offsetValue = Value::constant(0); ///< where `offset` came from
  bool initialIsBound = false; ///< the variable's initial value is only its upper bound

  std::int64_t at(std::uint64_t k) const { // k: 1-based iteration
    if (!induction)
      return *value.number;
    return induction->atIteration(afterUpdate ? k : k - 1) + offset;
  }
};

void merge(TripCount &count, const Value &value) {
  count.origin = std::max(count.origin, value.origin);
  appendReasons(count.why, value.why);
}

} // namespace

std::int64_t InductionVariable::atIteration(std::uint64_t k) const {
  const IntType type{bits, isSigned, true};
  const IntType asBits{bits, false, true};
  std::int64_t start = *initial.number;
  switch (kind) {
  case Update::Add:
    return normalise(start + static_cast<std::int64_t>(k) * step, type);
  case Update::ShiftLeft: {
    std::uint64_t shift = k * static_cast<std::uint64_t>(step);
    if (k > 64 || shift >= bits)
      return 0;
    return normalise(static_cast<std::int64_t>(static_cast<std::uint64_t>(start) << shift), type);
  }
  case Update::ShiftRight: {
    std::uint64_t shift = k * static_cast<std::uint64_t>(step);
    if (k > 64 || shift >= bits)
      return isSigned && start < 0 ? -1 : 0;
    return isSigned ? normalise(start, type) >> shift
                    : static_cast<std::int64_t>(static_cast<std::uint64_t>(normalise(start, asBits)) >> shift);
  }
  case Update::Multiply: {
    std::int64_t value = start;
    for (std::uint64_t i = 0; i < std::min<std::uint64_t>(k, 128); ++i)
      value = normalise(static_cast<std::int64_t>(static_cast<std::uint64_t>(value) *
                                                  static_cast<std::uint64_t>(step)),
                        type);
    return value;
  }
  }
  return start;
}

TripCountAnalysis::TripCountAnalysis(const ControlFlowGraph &graph, const LoopForest &forest,
                                     const ValueEvaluator &values, std::vector<bool> inlineAsm)
    : graph_(graph), forest_(forest), values_(values), inlineAsm_(std::move(inlineAsm)) {}

bool TripCountAnalysis::insideLoop(std::uint32_t loop, std::uint32_t instruction) const {
  return instruction != ValueEvaluator::kNoDefinition &&
         forest_.loops[loop].contains(graph_.blockOf[instruction]);
}

bool TripCountAnalysis::changesInside(std::uint32_t loop, const std::string &reg, std::uint32_t at) const {
  auto defs = values_.reachingDefinitions(reg, at);
  return std::any_of(defs.begin(), defs.end(), [&](std::uint32_t def) { return insideLoop(loop, def); });
}

std::string TripCountAnalysis::whyNotInduction(std::uint32_t loop, const std::string &reg, std::uint32_t at) const {
  constexpr std::size_t kMaxDefinitions = 64; // a bound's chain is short; stop rather than walk a whole body
  std::vector<std::pair<std::string, std::uint32_t>> pending{{reg, at}};
  std::vector<std::uint32_t> seen;
  bool loadsData = false;
  while (!pending.empty() && seen.size() < kMaxDefinitions) {
    auto [name, readAt] = pending.back();
    pending.pop_back();
    for (std::uint32_t def : values_.reachingDefinitions(name, readAt)) {
      if (!insideLoop(loop, def) || std::find(seen.begin(), seen.end(), def) != seen.end())
        continue;
      seen.push_back(def);
      const Instruction &instruction = *graph_.instructions[def];
      if (instruction.opcode == "ld" || instruction.opcode == "ldu") {
        bool sameAddress = true;
        if (instruction.operands.size() > 1)
          if (const auto *address = instruction.operands[1].getIf<Address>())
            for (const Operand &part : address->parts) {
              const auto *base = part.getIf<Register>();
              const auto *offset = part.getIf<RegisterOffset>();
              if ((base && changesInside(loop, base->name, def)) ||
                  (offset && changesInside(loop, offset->base, def)))
                sameAddress = false;
            }
        if (sameAddress)
          return "the exit test's " + reg +
                 " is re-read from the same address in every iteration (nvcc cannot prove the loop's "
                 "stores leave it alone; a local copy of the bound or __restrict__ pointers let it be "
                 "read once)";
        loadsData = true;
        continue;
      }
      for (std::size_t i = 1; i < instruction.operands.size(); ++i)
        if (const auto *source = instruction.operands[i].getIf<Register>())
          pending.emplace_back(source->name, def);
    }
  }
  if (loadsData)
    return "the exit test's " + reg + " depends on data loaded in the loop (a count only a run can tell)";
  return "register " + reg + " in the exit test is not an induction variable";
}

std::optional<InductionVariable> TripCountAnalysis::asInduction(std::uint32_t loop,
                                                                const std::string &reg,
                                                                const Bindings &outer) const {
  std::vector<std::uint32_t> inside;
  for (std::uint32_t def : values_.definitionsOf(reg))
    if (insideLoop(loop, def))
      inside.push_back(def);
  if (inside.size() != 1)
    return std::nullopt;
  InductionVariable variable;
  variable.reg = reg;
  variable.update = inside[0];
  // `mov %r, %t` where `%t = %r op step` is the only write of %t in the loop.
  std::uint32_t arithmetic = inside[0];
  std::string updated = reg;
  const Instruction *instruction = graph_.instructions[arithmetic];
  if (instruction->opcode == "mov" && instruction->operands.size() == 2) {
    const auto *from = instruction->operands[1].getIf<Register>();
    if (!from)
      return std::nullopt;
    std::vector<std::uint32_t> temporaries;
    for (std::uint32_t def : values_.definitionsOf(from->name))
      if (insideLoop(loop, def))
        temporaries.push_back(def);
    if (temporaries.size() != 1)
      return std::nullopt;
    arithmetic = temporaries[0];
    instruction = graph_.instructions[arithmetic];
  }
  std::string_view op = instruction->opcode;
  if (instruction->operands.size() != 3 || instruction->details.types.empty())
    return std::nullopt;
  const auto *left = instruction->operands[1].getIf<Register>();
  const auto *right = instruction->operands[2].getIf<Register>();
  bool commutes = op == "add" || op == "mul";
  // `mov %t, %r` then `%r = %t op step`: nvcc copies the counter first when
  // the body reads the old value (lud's `for (i = 0; i < 15; i++)` reading
  // i after `++i`). The copy must be the only value of %t the update can
  // read, so it runs before the update in every iteration.
  auto copiesUpdated = [&](const Register *operand) {
    if (!operand)
      return false;
    auto reaching = values_.reachingDefinitions(operand->name, arithmetic);
    if (reaching.size() != 1 || reaching[0] == ValueEvaluator::kNoDefinition || !insideLoop(loop, reaching[0]))
      return false;
    const Instruction &copy = *graph_.instructions[reaching[0]];
    const auto *source = copy.operands.size() == 2 ? copy.operands[1].getIf<Register>() : nullptr;
    return copy.opcode == "mov" && source && source->name == updated && !source->negated;
  };
  const Operand *stepOperand = nullptr;
  if (left && (left->name == updated || copiesUpdated(left)))
    stepOperand = &instruction->operands[2];
  else if (commutes && right && (right->name == updated || copiesUpdated(right)))
    stepOperand = &instruction->operands[1];
  if (!stepOperand)
    return std::nullopt;
  if (const auto *stepRegister = stepOperand->getIf<Register>();
      stepRegister && changesInside(loop, stepRegister->name, arithmetic))
    return std::nullopt; // the step changes inside the loop
  Value step = values_.operandAt(*stepOperand, arithmetic, outer);
  if (!step.known())
    return std::nullopt;
  if (op == "add" || op == "sub") {
    variable.kind = InductionVariable::Update::Add;
    variable.step = op == "add" ? *step.number : -*step.number;
  } else if (op == "shl" || op == "shr") {
    variable.kind = op == "shl" ? InductionVariable::Update::ShiftLeft
                                : InductionVariable::Update::ShiftRight;
    variable.step = *step.number;
    if (variable.step <= 0)
      return std::nullopt;
  } else if (op == "mul" && std::find(instruction->modifiers.begin(), instruction->modifiers.end(),
                                      "wide") == instruction->modifiers.end()) {
    variable.kind = InductionVariable::Update::Multiply;
    variable.step = *step.number;
  } else {
    return std::nullopt;
  }
  ScalarType type = instruction->details.types.back();
  variable.bits = intTypeOf(type).bits;
  variable.isSigned = intTypeOf(type).isSigned;

  // The value on entry: every definition reaching the header from outside.
  const BasicBlock &header = graph_.blocks[forest_.loops[loop].header];
  std::vector<std::uint32_t> entering;
  for (std::uint32_t def : values_.reachingDefinitions(reg, header.first))
    if (!insideLoop(loop, def))
      entering.push_back(def);
  // Several values entering (a counter left by an earlier loop, or copied
  // on both paths around it) can be known from a binding of the expansion.
  std::optional<Value> bound =
      entering.size() > 1 ? values_.boundValue(reg, entering, header.first, outer) : std::nullopt;
  Value initial = bound ? *bound : Value{};
  bool first = !bound;
  for (std::uint32_t def : bound ? std::vector<std::uint32_t>{} : entering) {
    Value value = def == ValueEvaluator::kNoDefinition
                      ? Value::unknown("register " + reg + " read before it is written")
                      : values_.definedBy(def, reg, outer);
    if (!value.known() || (!first && *value.number != *initial.number)) {
      initial = value.known() ? Value::unknown("register " + reg + " enters the loop with different values")
                              : value;
      first = false;
      break;
    }
    initial = value;
    first = false;
  }
  if (first)
    initial = Value::unknown("no value of " + reg + " enters the loop");
  // The step's provenance travels with the initial value into the count.
  if (initial.known()) {
    std::optional<std::int64_t> number = initial.number;
    initial.origin = std::max(initial.origin, step.origin);
    for (const std::string &reason : step.why)
      initial.why.push_back(reason);
    initial.number = number;
  }
  variable.initial = initial;
  return variable;
}

std::vector<InductionVariable> TripCountAnalysis::inductionVariables(std::uint32_t loop,
                                                                     const Bindings &outer) const {
  std::vector<std::string> candidates;
  for (std::uint32_t block : forest_.loops[loop].blocks)
    for (std::uint32_t i = graph_.blocks[block].first; i < graph_.blocks[block].end; ++i)
      for (std::string &reg : destinationRegisters(*graph_.instructions[i]))
        candidates.push_back(std::move(reg));
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::vector<InductionVariable> variables;
  for (const std::string &reg : candidates)
    if (auto variable = asInduction(loop, reg, outer); variable && variable->initial.known())
      variables.push_back(std::move(*variable));
  return variables;
}

TripCount TripCountAnalysis::tripCount(std::uint32_t loop, const Bindings &outer) const {
  const Loop &theLoop = forest_.loops[loop];
  std::optional<TripCount> best;
  std::optional<TripCount> firstFailure;
  auto fail = [&](std::string reason) {
    if (!firstFailure) {
      firstFailure = TripCount{};
      firstFailure->why.push_back(std::move(reason));
    }
  };

  for (std::uint32_t block : theLoop.blocks) {
    const Instruction *branch = graph_.terminator(block);
    const auto &successors = graph_.blocks[block].successors;
    if (!branch || branch->opcode != "bra" || !branch->guard || successors.size() != 2)
      continue;
    bool takenInside = theLoop.contains(successors[0]);
    if (takenInside == theLoop.contains(successors[1]))
      continue;
    bool stayWhen = takenInside != branch->guard->negated;
    std::string predicate = branch->guard->predicate;
    auto branchIndex = graph_.blocks[block].end - 1;
    auto defs = values_.reachingDefinitions(predicate, branchIndex);
    // Unoptimised code (nvcc -G) negates or copies the comparison first:
    // `not.pred %p8, %p7; @%p8 bra`.
    for (int hops = 0; hops < 4 && defs.size() == 1 && insideLoop(loop, defs[0]); ++hops) {
      const Instruction &copy = *graph_.instructions[defs[0]];
      const auto *from = copy.operands.size() == 2 ? copy.operands[1].getIf<Register>() : nullptr;
      if (!from || from->negated || (copy.opcode != "not" && copy.opcode != "mov") ||
          copy.details.types.empty() || copy.details.types.back() != ScalarType::Pred)
        break;
      if (copy.opcode == "not")
        stayWhen = !stayWhen;
      predicate = from->name;
      defs = values_.reachingDefinitions(predicate, defs[0]);
    }
    if (defs.size() != 1 || !insideLoop(loop, defs[0])) {
      fail("the exit test of the loop is not a comparison made in the loop");
      continue;
    }
    std::uint32_t test = defs[0];
    const Instruction &setp = *graph_.instructions[test];
    if (setp.opcode != "setp" || setp.modifiers.size() != 2 || setp.operands.size() != 3 ||
        setp.details.types.empty() || kindOf(setp.details.types.back()) == ScalarTypeKind::Float) {
      fail("the exit test (line " + std::to_string(setp.location.line) +
                      ") is not an integer comparison");
      continue;
    }
    if (const auto *pair = setp.operands[0].getIf<PredicatePair>(); pair && pair->second == predicate)
      stayWhen = !stayWhen;
    std::string_view comparison = setp.modifiers[0];
    IntType type = intTypeOf(setp.details.types.back());

    // Each side: invariant, an induction variable, or one plus a constant.
    auto classify = [&](const Operand &operand, std::string &problem) -> std::optional<Side> {
      Side side;
      const auto *reg = operand.getIf<Register>();
      if (!reg || reg->negated) {
        side.value = values_.operandAt(operand, test, outer);
        return side;
      }
      auto reaching = values_.reachingDefinitions(reg->name, test);
      if (std::none_of(reaching.begin(), reaching.end(),
                       [&](std::uint32_t def) { return insideLoop(loop, def); })) {
        side.value = values_.registerAt(reg->name, test, outer);
        return side;
      }
      std::string base = reg->name;
      std::uint32_t readAt = test;
      if (!asInduction(loop, base, outer) && reaching.size() == 1) {
        // `add %t, %iv, c` (or `add %t, c, %iv`, `sub %t, %iv, c`), c
        // loop-invariant, then `setp ... %t, bound`.
        std::uint32_t at = reaching[0];
        const Instruction &derived = *graph_.instructions[at];
        bool isAdd = derived.opcode == "add", isSub = derived.opcode == "sub";
        for (int ivSide = 1; (isAdd || isSub) && derived.operands.size() == 3 && ivSide <= (isAdd ? 2 : 1); ++ivSide) {
          const auto *from = derived.operands[static_cast<std::size_t>(ivSide)].getIf<Register>();
          const Operand &other = derived.operands[static_cast<std::size_t>(3 - ivSide)];
          if (!from || !asInduction(loop, from->name, outer))
            continue;
          if (const auto *otherRegister = other.getIf<Register>();
              otherRegister && changesInside(loop, otherRegister->name, at))
            continue;
          Value constant = values_.operandAt(other, at, outer);
          if (!constant.known()) {
            side.value = constant;
            return side; // the count is unknown, and `constant` says why
          }
          side.offset = isAdd ? *constant.number : -*constant.number;
          side.offsetValue = constant;
          base = from->name;
          readAt = at;
          reaching = values_.reachingDefinitions(base, readAt);
          break;
        }
      }
      side.induction = asInduction(loop, base, outer);
      if (!side.induction) {
        problem = whyNotInduction(loop, reg->name, test);
        return std::nullopt;
      }
      Value &initial = side.induction->initial;
      if (!initial.known() && initial.atMost && side.induction->kind == InductionVariable::Update::Add &&
          side.induction->step < 0) {
        // A counter that starts at most at M and counts down (nvcc's
        // remainder loop after unrolling by 4: `r = n & 3; do ... while
        // (--r)`) runs at most M times: read as M, as the guarded copies of
        // an unrolled remainder would be, and not as the default.
        std::string bound = std::to_string(*initial.atMost);
        initial.number = *initial.atMost;
        initial.atMost.reset(); // known now
        initial.origin = std::max(initial.origin, ValueOrigin::Defaulted);
        initial.why.push_back(side.induction->reg + " starts at most at " + bound + " (a remainder): read as " + bound);
        side.initialIsBound = true;
      }
      side.afterUpdate = reaching.size() == 1 && reaching[0] == side.induction->update;
      side.value = initial;
      return side;
    };
    std::string problem;
    auto left = classify(setp.operands[1], problem);
    auto right = left ? classify(setp.operands[2], problem) : std::nullopt;
    if (!left || !right) {
      fail(problem);
      continue;
    }
    // Two addresses from one base (`for (p = a; p < a + n; ++p)`) compare
    // as their offsets from it, with the offsets' provenance.
    if (!left->value.known() && !right->value.known() && left->value.fromBase && right->value.fromBase &&
        left->value.fromBase->base == right->value.fromBase->base) {
      for (Side *side : {&*left, &*right}) {
        const Value::FromBase &from = *side->value.fromBase;
        side->value = Value{from.offset, from.origin, from.why, side->value.perThread};
        if (side->induction)
          side->induction->initial = side->value;
      }
    }
    TripCount count;
    count.exitingBlock = block;
    count.origin = ValueOrigin::Constant;
    merge(count, left->value);
    merge(count, right->value);
    merge(count, left->offsetValue);
    merge(count, right->offsetValue);
    if (!left->value.known() || !right->value.known() || (!left->induction && !right->induction)) {
      if (left->value.known() && right->value.known())
        count.why.push_back("the exit test does not change from one iteration to the next");
      count.origin = ValueOrigin::Unknown;
      if (!firstFailure)
        firstFailure = count;
      continue;
    }
    auto describe = [&](const Side &side, const Operand &operand) {
      std::string text = toString(operand);
      if (!side.induction)
        return text + " (= " + std::to_string(*side.value.number) + ")";
      const InductionVariable &iv = *side.induction;
      const char *update[] = {"+", "<<", ">>", "*"};
      bool down = iv.kind == InductionVariable::Update::Add && iv.step < 0;
      std::string step = (down ? "" : update[static_cast<int>(iv.kind)]) + std::to_string(iv.step);
      return text + " (" + iv.reg + " from " + std::to_string(*iv.initial.number) + ", " + step +
             " per iteration)";
    };
    count.atMost = left->initialIsBound || right->initialIsBound;
    count.rule = "stays while " + std::string(stayWhen ? "" : "not ") + describe(*left, setp.operands[1]) +
                 " " + std::string(comparison) + " " + describe(*right, setp.operands[2]);

    bool comparable = true;
    auto stays = [&](std::uint64_t k) {
      std::optional<bool> holds = compare(comparison, left->at(k), right->at(k), type);
      comparable = comparable && holds.has_value();
      return holds.value_or(false) == stayWhen;
    };
    // `!=` against a linear variable: solved exactly, with wrap-around.
    bool linearNotEqual = ((comparison == "ne") == stayWhen) &&
                          (comparison == "ne" || comparison == "eq") &&
                          (left->induction.has_value() != right->induction.has_value());
    const Side &moving = left->induction ? *left : *right;
    const Side &fixed = left->induction ? *right : *left;
    if (linearNotEqual && moving.induction->kind == InductionVariable::Update::Add) {
      std::int64_t distance = normalise(fixed.at(1) - moving.at(1), {type.bits, true, true});
      std::int64_t step = normalise(moving.induction->step, {type.bits, true, true});
      if (step != 0 && distance % step == 0 && distance / step >= 0) {
        count.headerRuns = static_cast<std::uint64_t>(distance / step) + 1;
      } else {
        count.headerRuns = 0;
        count.why.push_back("the counter never meets its bound for these values: a guard must skip the loop");
      }
    } else {
      std::uint64_t low = 0, high = 1;
      while (high <= kMaxSearch && stays(high)) {
        low = high;
        high *= 2;
      }
      if (!comparable) {
        fail("the exit comparison '" + std::string(comparison) + "' is not modelled");
        continue;
      }
      if (high > kMaxSearch) {
        count.headerRuns.reset();
        count.origin = ValueOrigin::Unknown;
        count.why.push_back("the loop does not end within 2^40 iterations for these values");
        if (!firstFailure)
          firstFailure = count;
        continue;
      }
      while (high - low > 1) {
        std::uint64_t middle = low + (high - low) / 2;
        (stays(middle) ? low : high) = middle;
      }
      count.headerRuns = high; // the first iteration whose test leaves
    }
    if (!best || *count.headerRuns < *best->headerRuns)
      best = std::move(count);
  }
  if (best)
    return *best;
  if (firstFailure) {
    firstFailure->headerRuns.reset();
    firstFailure->origin = ValueOrigin::Unknown;
    firstFailure->exitingBlock = kNoBlock;
    return *firstFailure;
  }
  TripCount none;
  none.why.push_back("the loop has no conditional exit branch");
  return none;
}

std::vector<bool> TripCountAnalysis::blocksAfterExit(std::uint32_t loop,
                                                     std::uint32_t exitingBlock) const {
  const Loop &theLoop = forest_.loops[loop];
  std::vector<bool> after(graph_.blocks.size(), false);
  if (exitingBlock == kNoBlock)
    return after;
  std::vector<std::uint32_t> work;
  for (std::uint32_t to : graph_.blocks[exitingBlock].successors)
    if (theLoop.contains(to) && to != theLoop.header)
      work.push_back(to);
  while (!work.empty()) {
    std::uint32_t block = work.back();
    work.pop_back();
    if (after[block] || block == exitingBlock)
      continue;
    after[block] = true;
    for (std::uint32_t to : graph_.blocks[block].successors)
      if (theLoop.contains(to) && to != theLoop.header)
        work.push_back(to);
  }
  return after;
}

} // namespace ptxdvfs::ptx::analysis
