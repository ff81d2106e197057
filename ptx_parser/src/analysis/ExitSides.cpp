// ExitSides.cpp - reading one side of a loop's exit comparison: an
// invariant, an induction variable, or one plus an invariant.
#include "ExitSides.h"

#include "Copies.h"

#include <algorithm>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Steps a linear sequence starting at `first` (iteration 1) can take by
/// `step` before it leaves `type`'s range and wraps around.
std::uint64_t stepsBeforeWrap(std::int64_t first, std::int64_t step, IntType type) {
  __extension__ using Int128 = __int128;
  if (type.bits == 0 || type.bits > 64)
    return UINT64_MAX - 1;
  Int128 value = type.isSigned ? Int128{normalise(first, type)}
                               : Int128{static_cast<std::uint64_t>(normalise(first, {type.bits, false, true}))};
  Int128 lowest = type.isSigned ? -(Int128{1} << (type.bits - 1)) : 0;
  Int128 highest = (Int128{1} << (type.bits - (type.isSigned ? 1 : 0))) - 1;
  Int128 room = step > 0 ? highest - value : value - lowest;
  Int128 steps = room / (step > 0 ? Int128{step} : -Int128{step});
  return steps > Int128{UINT64_MAX - 1} ? UINT64_MAX - 1 : static_cast<std::uint64_t>(steps);
}

} // namespace

std::uint64_t lastIterationBeforeWrap(const ExitSide &left, const ExitSide &right, IntType comparison) {
  std::uint64_t last = UINT64_MAX;
  for (const ExitSide *side : {&left, &right}) {
    const std::optional<InductionVariable> &counter = side->induction;
    if (!counter || counter->kind != InductionVariable::Update::Add || counter->step == 0)
      continue;
    std::int64_t ownFirst = counter->atIteration(side->afterUpdate ? 1 : 0);
    last = std::min(last, 1 + stepsBeforeWrap(ownFirst, counter->step,
                                              {counter->bits, counter->isSigned, true}));
    std::int64_t compared = side->subtractsVariable ? -counter->step : counter->step;
    last = std::min(last, 1 + stepsBeforeWrap(side->at(1), compared, comparison));
  }
  return last;
}

std::optional<ExitSide> TripCountAnalysis::readExitSide(std::uint32_t loop, std::uint32_t test, const Operand &operand,
                                                        const Bindings &outer, std::string &problem) const {
  ExitSide side;
  const auto *reg = operand.getIf<Register>();
  if (!reg || reg->negated) {
    side.value = values_.operandAt(operand, test, outer);
    return side;
  }
  auto reaching = values_.reachingDefinitions(reg->name, test);
  if (std::none_of(reaching.begin(), reaching.end(), [&](std::uint32_t def) { return insideLoop(loop, def); }) ||
      recomputedInvariant(loop, reg->name, test)) {
    side.value = values_.registerAt(reg->name, test, outer);
    return side;
  }
  std::string base = reg->name;
  std::uint32_t readAt = test;
  std::optional<InductionVariable> induction = asInduction(loop, base, outer);
  // Unoptimised code (nvcc -G) copies a variable into a fresh register
  // before each use (`mov %r2, %r7` in the header, then `setp %p1, %r2,
  // 100`): the test reads the counter the copy was taken from. An int
  // counter kept in 64 bits (stepped by a 64-bit size) is tested through
  // `cvt.u32.u64`: its low bits, which the comparison's width reads.
  // An unsigned char counter, kept in 16 bits, is tested through `and
  // %rs4, %rs5, 255`: its low 8 bits, in which it then wraps.
  unsigned maskBits = 64;
  for (int copies = 0; copies < 4 && !induction && reaching.size() == 1 && insideLoop(loop, reaching[0]);
       ++copies) {
    const Register *from = copySource(*graph_.instructions[reaching[0]]);
    if (!from)
      from = lowBitsSource(*graph_.instructions[reaching[0]]);
    unsigned masked = 64;
    if (!from && (from = maskedLowBits(*graph_.instructions[reaching[0]], masked)))
      maskBits = std::min(maskBits, masked);
    if (!from)
      break;
    base = from->name;
    readAt = reaching[0];
    reaching = values_.reachingDefinitions(base, readAt);
    induction = asInduction(loop, base, outer);
  }
  if (!induction && reaching.size() == 1) {
    // `add %t, %iv, c` (or `add %t, c, %iv`, `sub %t, %iv, c`, `sub
    // %t, c, %iv`: binomialOptions' `for (i = n; i > 0; i -= 32)` tests
    // n - i), c loop-invariant, then `setp ... %t, bound`.
    std::uint32_t at = reaching[0];
    const Instruction &derived = *graph_.instructions[at];
    bool isAdd = derived.opcode == "add", isSub = derived.opcode == "sub";
    for (int ivSide = 1; (isAdd || isSub) && derived.operands.size() == 3 && ivSide <= 2; ++ivSide) {
      const auto *from = derived.operands[static_cast<std::size_t>(ivSide)].getIf<Register>();
      const Operand &other = derived.operands[static_cast<std::size_t>(3 - ivSide)];
      std::optional<InductionVariable> fromInduction = from ? asInduction(loop, from->name, outer) : std::nullopt;
      if (!fromInduction)
        continue;
      if (const auto *otherRegister = other.getIf<Register>();
          otherRegister && changesInside(loop, otherRegister->name, at) &&
          !recomputedInvariant(loop, otherRegister->name, at))
        continue;
      Value constant = values_.operandAt(other, at, outer);
      if (!constant.known()) {
        side.value = constant;
        return side; // the count is unknown, and `constant` says why
      }
      side.subtractsVariable = isSub && ivSide == 2;
      side.offset = isAdd || side.subtractsVariable ? *constant.number : wrappingNeg(*constant.number);
      side.offsetValue = constant;
      base = from->name;
      readAt = at;
      reaching = values_.reachingDefinitions(base, readAt);
      induction = std::move(fromInduction);
      break;
    }
  }
  // `shl %r3, %r8, 1` ... `mov %r8, %r3`: the test reads the
  // temporary the counter is copied from, its next value.
  bool readsNextValue = false;
  if (!induction && reaching.size() == 1 && insideLoop(loop, reaching[0])) {
    induction = inductionCopiedFrom(loop, base, outer);
    readsNextValue = induction.has_value();
  }
  side.induction = std::move(induction);
  if (!side.induction) {
    problem = whyNotInduction(loop, reg->name, test, outer);
    return std::nullopt;
  }
  if (maskBits < side.induction->bits) {
    // The low bits of a sum, product or left shift are those of its
    // operands' low bits: the counter is counted in the mask's width. A
    // right shift would bring high bits down.
    if (side.induction->kind == InductionVariable::Update::ShiftRight || side.offset != 0 ||
        side.subtractsVariable) {
      problem = "register " + reg->name + " in the exit test keeps the low bits of a counter the analysis "
                "does not follow there (shifted right, or moved by an offset first)";
      return std::nullopt;
    }
    side.induction->bits = maskBits;
    side.induction->isSigned = false;
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
  } else if (!initial.known() && initial.atLeast && side.induction->kind == InductionVariable::Update::Add &&
             side.induction->step > 0) {
    // The same remainder counted up to 0 from its negation (64-bit
    // counters: `neg %rd31, %rd3; do ... while (++%rd31 != 0)`).
    std::string bound = std::to_string(*initial.atLeast);
    initial.number = *initial.atLeast;
    initial.atLeast.reset();
    initial.origin = std::max(initial.origin, ValueOrigin::Defaulted);
    initial.why.push_back(side.induction->reg + " starts at least at " + bound + " (a remainder): read as " + bound);
    side.initialIsBound = true;
  }
  side.afterUpdate = readsNextValue || (reaching.size() == 1 && reaching[0] == side.induction->update &&
                                        !side.induction->copiedAtHeaderStart);
  side.value = initial;
  return side;
}

} // namespace ptxdvfs::ptx::analysis
