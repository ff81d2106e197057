// DataDependentExits.cpp - loops whose exit test reads data, counted
// without it: compare-and-swap retries, waits on an mbarrier and binary
// searches.
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include "IntegerSemantics.h"
#include "Reasons.h"

#include <algorithm>

namespace ptxdvfs::ptx::analysis {

std::optional<TripCount> TripCountAnalysis::compareAndSwapRetry(std::uint32_t loop, std::uint32_t test,
                                                                bool stayWhen) const {
  const Instruction &setp = *graph_.instructions[test];
  std::string_view comparison = setp.modifiers[0];
  if ((comparison != "ne" && comparison != "eq") || (comparison == "ne") != stayWhen)
    return std::nullopt; // not "retry while the swap found another value"
  for (std::size_t at : {1, 2}) {
    std::optional<std::uint32_t> definition = soleDefinitionInside(loop, setp.operands[at].getIf<Register>(), test);
    if (!definition)
      continue;
    const Instruction &atom = *graph_.instructions[*definition];
    if (atom.opcode != "atom" || !atom.hasModifier("cas"))
      continue;
    TripCount count;
    count.headerRuns = 1;
    count.origin = ValueOrigin::Defaulted;
    count.rule = "retries while the compare-and-swap (line " + std::to_string(atom.location.line) +
                 ") finds another value";
    count.why.push_back("a compare-and-swap retry loop: read as succeeding on its first try, as "
                        "without contention (how often threads collide only a run can tell)");
    return count;
  }
  return std::nullopt;
}

std::optional<TripCount> TripCountAnalysis::blockingWait(std::uint32_t loop, std::uint32_t test, bool stayWhen) const {
  auto isTryWait = [](const Instruction &instruction) {
    return instruction.opcode == "mbarrier" && instruction.hasModifier("try_wait");
  };
  // Whether the loop leaves when try_wait says the phase is complete, and
  // stays while it is not.
  const Instruction *wait = nullptr;
  bool leavesWhenComplete = false;
  const Instruction &setp = *graph_.instructions[test];
  if (isTryWait(setp)) {
    wait = &setp;
    leavesWhenComplete = !stayWhen;
  } else if (setp.opcode == "setp" && setp.modifiers.size() == 2 && setp.operands.size() == 3 &&
             (setp.modifiers[0] == "eq" || setp.modifiers[0] == "ne")) {
    // `selp.b32 %r2, 1, 0, p; setp.eq.s32 %p1, %r2, 0;`, either operand order.
    for (std::size_t at : {1, 2}) {
      const auto *constant = setp.operands[3 - at].getIf<Immediate>();
      std::optional<std::uint32_t> definition = soleDefinitionInside(loop, setp.operands[at].getIf<Register>(), test);
      if (!constant || constant->kind != ImmediateKind::Integer || !definition)
        continue;
      const Instruction &select = *graph_.instructions[*definition];
      const auto *whenTrue = select.operands.size() == 4 ? select.operands[1].getIf<Immediate>() : nullptr;
      const auto *whenFalse = select.operands.size() == 4 ? select.operands[2].getIf<Immediate>() : nullptr;
      std::optional<std::uint32_t> polled =
          select.opcode == "selp" && whenTrue && whenFalse
              ? soleDefinitionInside(loop, select.operands[3].getIf<Register>(), *definition)
              : std::nullopt;
      if (!polled || !isTryWait(*graph_.instructions[*polled]) || select.operands[3].getIf<Register>()->negated)
        continue;
      auto testHolds = [&](const Immediate &selected) {
        return (selected.bits == constant->bits) == (setp.modifiers[0] == "eq");
      };
      wait = graph_.instructions[*polled];
      leavesWhenComplete = testHolds(*whenTrue) != stayWhen && testHolds(*whenFalse) == stayWhen;
      break;
    }
  }
  if (!wait || !leavesWhenComplete)
    return std::nullopt;
  TripCount count;
  count.headerRuns = 1;
  count.origin = ValueOrigin::Defaulted;
  count.rule = "waits until " + std::string(wait->mnemonic) + " (line " + std::to_string(wait->location.line) +
               ") finds the barrier's phase complete";
  count.why.push_back("a wait on an mbarrier: try_wait suspends the thread until the other threads arrive "
                      "(or a time limit passes), so it is read as one pass");
  return count;
}

namespace {

/// A search over 64-bit indices ends within 64 halvings; an interval
/// still open after this many moves narrows too slowly for a search (a
/// walk of one step at a time) and is left to the default count.
constexpr std::uint64_t kMaxHalvings = 66;

/// One end of a searched interval: a register the loop writes only with
/// `selp end, x, y, p`, x or y being the end itself (kept).
struct IntervalEnd {
  std::string reg;
  std::uint32_t select = 0;     ///< the selp
  std::size_t movedOperand = 0; ///< 1 or 2: the selp operand it takes when it moves
};

} // namespace

std::optional<TripCount> TripCountAnalysis::binarySearch(std::uint32_t loop, std::uint32_t test, bool stayWhen,
                                                         const Bindings &outer) const {
  const Instruction &setp = *graph_.instructions[test];
  // The ends the test reads, directly or through an add or a sub
  // (`hi > lo + 1`, `hi - lo > 1`); loop-invariant operands are not ends.
  std::vector<IntervalEnd> ends;
  struct Pending {
    const Register *reg;
    std::uint32_t at;
    int depth;
  };
  std::vector<Pending> pending{{setp.operands[1].getIf<Register>(), test, 0},
                               {setp.operands[2].getIf<Register>(), test, 0}};
  while (!pending.empty()) {
    Pending next = pending.back();
    pending.pop_back();
    if (!next.reg || !changesInside(loop, next.reg->name, next.at))
      continue;
    std::optional<std::uint32_t> definition = soleDefinitionInside(loop, next.reg, next.at);
    if (!definition)
      return std::nullopt;
    const Instruction &written = *graph_.instructions[*definition];
    if (written.opcode == "selp" && written.operands.size() == 4) {
      std::size_t kept = 0;
      for (std::size_t at : {1, 2})
        if (const auto *operand = written.operands[at].getIf<Register>();
            operand && !operand->negated && operand->name == next.reg->name)
          kept = at;
      if (!kept)
        return std::nullopt;
      if (std::none_of(ends.begin(), ends.end(), [&](const IntervalEnd &end) { return end.reg == next.reg->name; }))
        ends.push_back({next.reg->name, *definition, 3 - kept});
      continue;
    }
    if ((written.opcode != "add" && written.opcode != "sub") || written.operands.size() != 3 || next.depth >= 2)
      return std::nullopt;
    for (std::size_t at : {1, 2})
      pending.push_back({written.operands[at].getIf<Register>(), *definition, next.depth + 1});
  }
  if (ends.size() != 2)
    return std::nullopt;
  // One choice per iteration moves exactly one end: the two selects read
  // the same predicate, and each keeps its end on the other's moving side.
  const Instruction &selectA = *graph_.instructions[ends[0].select];
  const Instruction &selectB = *graph_.instructions[ends[1].select];
  const auto *predicateA = selectA.operands[3].getIf<Register>();
  const auto *predicateB = selectB.operands[3].getIf<Register>();
  if (!predicateA || !predicateB || predicateA->name != predicateB->name ||
      predicateA->negated != predicateB->negated || ends[0].movedOperand == ends[1].movedOperand ||
      values_.reachingDefinitions(predicateA->name, ends[0].select) !=
          values_.reachingDefinitions(predicateB->name, ends[1].select))
    return std::nullopt;

  std::string_view comparison = setp.modifiers[0];
  IntType type = intTypeOf(setp.details.types.back());
  TripCount count;
  count.origin = ValueOrigin::Constant;
  count.rule = "a binary search: the data chooses which of " + ends[0].reg + " .. " + ends[1].reg +
               " moves (line " + std::to_string(selectA.location.line) + ")";
  Value entryA = entryValue(loop, ends[0].reg, outer), entryB = entryValue(loop, ends[1].reg, outer);
  mergeProvenance(count, entryA);
  mergeProvenance(count, entryB);
  if (!entryA.known() || !entryB.known()) {
    count.origin = ValueOrigin::Unknown; // its count is the log of a range not known here
    return count;
  }
  count.why.push_back("read as its longest search, the larger part kept every time (the data can end it "
                      "one iteration sooner)");
  count.atMost = true;
  auto bind = [&](std::int64_t a, std::int64_t b) {
    Bindings bindings = outer;
    bindings[ends[0].reg] = Binding{Value{a, entryA.origin, {}}, {}};
    bindings[ends[1].reg] = Binding{Value{b, entryB.origin, {}}, {}};
    return bindings;
  };
  // The test reads the ends after their selects, through the adds and
  // subs found above; the value analysis binds registers only where
  // definitions meet, so that short chain is computed here.
  auto afterSelects = [&](auto &self, const Operand &operand, std::uint32_t at, std::int64_t a,
                          std::int64_t b) -> std::optional<std::int64_t> {
    const auto *reg = operand.getIf<Register>();
    if (!reg || !changesInside(loop, reg->name, at)) {
      Value invariant = values_.operandAt(operand, at, outer);
      mergeProvenance(count, invariant);
      return invariant.number;
    }
    if (reg->name == ends[0].reg || reg->name == ends[1].reg)
      return reg->name == ends[0].reg ? a : b;
    std::uint32_t definition = *soleDefinitionInside(loop, reg, at);
    const Instruction &arithmetic = *graph_.instructions[definition];
    std::optional<std::int64_t> x = self(self, arithmetic.operands[1], definition, a, b);
    std::optional<std::int64_t> y = self(self, arithmetic.operands[2], definition, a, b);
    if (!x || !y || arithmetic.details.types.empty())
      return std::nullopt;
    std::uint64_t wrapped = arithmetic.opcode == "add" ? static_cast<std::uint64_t>(*x) + static_cast<std::uint64_t>(*y)
                                                       : static_cast<std::uint64_t>(*x) - static_cast<std::uint64_t>(*y);
    return normalise(static_cast<std::int64_t>(wrapped), intTypeOf(arithmetic.details.types.back()));
  };
  auto stays = [&](std::int64_t a, std::int64_t b) -> std::optional<bool> {
    std::optional<std::int64_t> left = afterSelects(afterSelects, setp.operands[1], test, a, b);
    std::optional<std::int64_t> right = afterSelects(afterSelects, setp.operands[2], test, a, b);
    std::optional<bool> holds = left && right ? compare(comparison, *left, *right, type) : std::nullopt;
    return holds ? std::optional<bool>(*holds == stayWhen) : std::nullopt;
  };
  std::int64_t a = *entryA.number, b = *entryB.number;
  // The test reads both ends after their selects, so on the entry values
  // it is the guard nvcc puts before the rotated loop.
  std::optional<bool> entered = stays(a, b);
  if (!entered)
    return std::nullopt;
  if (!*entered) {
    count.headerRuns = 0;
    count.skippedByGuard = true;
    return count;
  }
  // The longest search: a move that keeps the loop going, else the one
  // that keeps more of the interval, measured the way it opens on entry
  // (an inclusive search ends with its ends crossed).
  const bool opensUpward = !lessThan(b, a, type);
  auto width = [&](std::int64_t x, std::int64_t y) { // in double: exact below 2^53, ordered beyond
    double signedWidth = static_cast<double>(y) - static_cast<double>(x);
    return opensUpward ? signedWidth : -signedWidth;
  };
  for (std::uint64_t k = 1; k <= kMaxHalvings; ++k) {
    Bindings now = bind(a, b);
    Value movedA = values_.operandAt(selectA.operands[ends[0].movedOperand], ends[0].select, now);
    Value movedB = values_.operandAt(selectB.operands[ends[1].movedOperand], ends[1].select, now);
    if (!movedA.known() || !movedB.known())
      return std::nullopt;
    mergeProvenance(count, movedA);
    mergeProvenance(count, movedB);
    std::optional<bool> staysA = stays(*movedA.number, b), staysB = stays(a, *movedB.number);
    if (!staysA || !staysB)
      return std::nullopt;
    bool moveA = *staysA != *staysB ? *staysA : width(*movedA.number, b) >= width(a, *movedB.number);
    if (!(moveA ? *staysA : *staysB)) {
      count.headerRuns = k;
      return count;
    }
    (moveA ? a : b) = moveA ? *movedA.number : *movedB.number;
  }
  return std::nullopt;
}

} // namespace ptxdvfs::ptx::analysis
