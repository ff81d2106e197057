// TripCounts.cpp - recognising induction variables and solving a loop's exit test for its count.
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include "ExitSides.h"
#include "IntegerSemantics.h"
#include "Reasons.h"

#include <algorithm>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Exit tests of one loop, its branches' and those split from joined predicates.
constexpr std::size_t kMaxExitTests = 64;

/// The k >= 0 with k * step = distance exactly (no wrap); nullopt where
/// there is none. INT64_MIN over -1 is 2^63, which int64 cannot hold (and
/// whose `%` traps).
std::optional<std::uint64_t> stepsCovering(std::int64_t distance, std::int64_t step) {
  if (step == -1 && distance == INT64_MIN)
    return std::uint64_t{1} << 63;
  if (step == 0 || distance % step != 0 || distance / step < 0)
    return std::nullopt;
  return static_cast<std::uint64_t>(distance / step);
}

/// The fewest steps k >= 0 with k * step = distance modulo 2^bits: when a
/// counter that wraps in `bits` first meets a value `distance` away.
/// nullopt when it never does.
std::optional<std::uint64_t> stepsModulo(std::int64_t distance, std::int64_t step, unsigned bits) {
  auto maskOf = [](unsigned width) { return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1; };
  std::uint64_t d = static_cast<std::uint64_t>(distance) & maskOf(bits);
  std::uint64_t s = static_cast<std::uint64_t>(step) & maskOf(bits);
  if (s == 0)
    return d == 0 ? std::optional<std::uint64_t>(0) : std::nullopt;
  unsigned twos = 0;
  while (((s >> twos) & 1) == 0)
    ++twos;
  if ((d & maskOf(twos)) != 0)
    return std::nullopt;
  d >>= twos;
  s >>= twos;
  // s is odd now: its inverse modulo 2^64 by Newton's iteration (each round doubles the correct bits).
  std::uint64_t inverse = s;
  for (int round = 0; round < 6; ++round)
    inverse *= 2 - s * inverse;
  return (d * inverse) & maskOf(bits - twos);
}

/// nvcc rotates a `for`/`while` loop so that its test follows the update
/// at the bottom, behind a guard that makes the same test on the values
/// the loop would enter with. When those values fail it, the guard skips
/// the loop (thread 0 of a grid-stride loop that covers the data in one
/// pass; `j < i` at i = 0). Only a test that reads every counter after its
/// update can be asked about the entry: at(0) is then the entry value. A
/// `do { } while` in the source, whose body runs once whatever its test
/// says, reads the same and is taken for skipped too.
template <typename Stays>
bool rotatedAndFailsOnEntry(const ExitSide &left, const ExitSide &right, Stays &stays) {
  for (const ExitSide *side : {&left, &right})
    if (side->induction && !side->afterUpdate)
      return false;
  return !stays(0);
}

} // namespace

TripCountAnalysis::TripCountAnalysis(const ControlFlowGraph &graph, const DominatorTree &dominators,
                                     const LoopForest &forest, const ValueEvaluator &values,
                                     std::vector<bool> inlineAsm)
    : graph_(graph), dominators_(dominators), forest_(forest), values_(values), inlineAsm_(std::move(inlineAsm)) {}

TripCount TripCountAnalysis::tripCount(std::uint32_t loop, const Bindings &outer) const {
  const Loop &theLoop = forest_.loops[loop];
  std::optional<TripCount> best;
  std::optional<TripCount> firstFailure;
  // The first exit a rule recognised (a counter, a search) whose start or
  // bound is not known: its reasons name what would decide it (a
  // parameter, the launch), which a user can give. An exit the analysis
  // cannot read at all (a float test, a load) is only mentioned beside it.
  std::optional<TripCount> unknownBound;
  bool firstFailureIsUnknownBound = false;
  std::optional<TripCount> neverLeaves; // a `!=` exit whose bound the counter skips over
  auto keepFailure = [&](TripCount count, bool recognised) {
    if (!firstFailure) {
      firstFailure = count;
      firstFailureIsUnknownBound = recognised;
    }
    if (recognised && !unknownBound)
      unknownBound = std::move(count);
  };
  auto fail = [&](std::string reason) {
    TripCount failure;
    failure.why.push_back(std::move(reason));
    keepFailure(std::move(failure), false);
  };
  // A rule's reading of the exit in `block`: the fewest runs win; one
  // without a count is kept as a failure, its reasons saying why.
  auto offer = [&](TripCount count, std::uint32_t block) {
    count.exitingBlock = block;
    if (!count.headerRuns) {
      const bool recognised = !count.why.empty();
      keepFailure(std::move(count), recognised);
    } else if (!best || *count.headerRuns < *best->headerRuns) {
      best = std::move(count);
    }
  };

  // Each exiting branch's predicate, read where the branch reads it; a
  // predicate that joins two conditions the loop needs both of becomes two
  // tests, appended after the branches.
  struct ExitTest {
    std::uint32_t block;
    std::string predicate;
    bool stayWhen;
    std::uint32_t readAt;
  };
  std::vector<ExitTest> exits;
  for (std::uint32_t block : theLoop.blocks) {
    const Instruction *branch = graph_.terminator(block);
    const auto &successors = graph_.blocks[block].successors;
    if (!branch || branch->opcode != "bra" || !branch->guard || successors.size() != 2)
      continue;
    bool takenInside = theLoop.contains(successors[0]);
    if (takenInside == theLoop.contains(successors[1]))
      continue;
    exits.push_back({block, branch->guard->predicate, takenInside != branch->guard->negated,
                     graph_.blocks[block].end - 1});
  }

  for (std::size_t next = 0; next < exits.size(); ++next) {
    const std::uint32_t block = exits[next].block;
    bool stayWhen = exits[next].stayWhen;
    std::string predicate = exits[next].predicate;
    auto defs = values_.reachingDefinitions(predicate, exits[next].readAt);
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
    // `while (err > tol && k < 100)`: nvcc joins the two tests with
    // and.pred (stay while both hold), or with or.pred (leave when either
    // does); each is an exit, as if written with a break.
    // A join that reads itself (a predicate carried around the loop) is
    // split no further than kMaxExitTests.
    if (const Instruction &join = *graph_.instructions[test];
        exits.size() < kMaxExitTests &&
        ((join.opcode == "and" && stayWhen) || (join.opcode == "or" && !stayWhen)) &&
        join.operands.size() == 3 && !join.details.types.empty() && join.details.types.back() == ScalarType::Pred) {
      for (std::size_t side = 1; side <= 2; ++side)
        if (const auto *condition = join.operands[side].getIf<Register>())
          exits.push_back({block, condition->name, stayWhen != condition->negated, test});
      continue;
    }
    const Instruction &setp = *graph_.instructions[test];
    // `mov.pred %p5, 0` before the exit branch: -G's `while (true)`, a test
    // that never leaves (or, set to 1, always does).
    if (const auto *constant = setp.opcode == "mov" && setp.operands.size() == 2
                                   ? setp.operands[1].getIf<Immediate>()
                                   : nullptr;
        constant && constant->kind == ImmediateKind::Integer) {
      if ((constant->bits != 0) == stayWhen)
        continue; // never leaves: the loop's other exits decide
      TripCount once;
      once.headerRuns = 1;
      once.origin = ValueOrigin::Constant;
      offer(std::move(once), block);
      continue;
    }
    if (const auto *pair = setp.operands.empty() ? nullptr : setp.operands[0].getIf<PredicatePair>();
        pair && pair->second == predicate)
      stayWhen = !stayWhen;
    if (auto wait = blockingWait(loop, test, stayWhen)) {
      offer(std::move(*wait), block);
      continue;
    }
    const bool floats = setp.opcode == "setp" && !setp.details.types.empty() &&
                        kindOf(setp.details.types.back()) == ScalarTypeKind::Float;
    if (auto counted = floats ? floatCounter(loop, test, stayWhen, outer) : std::nullopt) {
      offer(std::move(*counted), block);
      continue;
    }
    if (auto converted = floats ? convertedCounter(loop, test, stayWhen, outer) : std::nullopt) {
      offer(std::move(*converted), block);
      continue;
    }
    if (floats || setp.opcode != "setp" || setp.modifiers.size() != 2 || setp.operands.size() != 3 ||
        setp.details.types.empty()) {
      fail("the exit test (line " + std::to_string(setp.location.line) + ") " +
           (floats                    ? "compares floating-point values"
            : setp.opcode == "vote"   ? "is a warp vote: the lanes wait for one another (a spin on a flag "
                                        "another block sets, as in a decoupled look-back), a count only a run "
                                        "can tell"
                                      : "is not an integer comparison"));
      continue;
    }
    std::string_view comparison = setp.modifiers[0];
    IntType type = intTypeOf(setp.details.types.back());
    if (auto retry = compareAndSwapRetry(loop, test, stayWhen)) {
      offer(std::move(*retry), block);
      continue;
    }
    if (auto search = binarySearch(loop, test, stayWhen, outer)) {
      offer(std::move(*search), block);
      continue;
    }

    std::string problem;
    auto left = readExitSide(loop, test, setp.operands[1], outer, problem);
    auto right = left ? readExitSide(loop, test, setp.operands[2], outer, problem) : std::nullopt;
    if (!left || !right) {
      if (auto simulated = simulatedCount(loop, test, block, stayWhen, outer))
        offer(std::move(*simulated), block);
      else
        fail(problem);
      continue;
    }
    // Two addresses from one base (`for (p = a; p < a + n; ++p)`) compare
    // as their offsets from it, with the offsets' provenance.
    if (!left->value.known() && !right->value.known() && left->value.fromBase && right->value.fromBase &&
        left->value.fromBase->base == right->value.fromBase->base) {
      for (ExitSide *side : {&*left, &*right}) {
        const Value::FromBase &from = *side->value.fromBase;
        side->value = Value{from.offset, from.origin, from.why, side->value.perThread};
        if (side->induction)
          side->induction->initial = side->value;
      }
    }
    // An unsigned counter stepping by one against 0 (`for (unsigned i = n;
    // i-- > 0;)`) leaves where it reaches 0: `i > 0` is `i != 0`, solved
    // exactly rather than searched, which would step past 0 to 2^32 - 1.
    if (!type.isSigned && left->induction.has_value() != right->induction.has_value()) {
      const ExitSide &moving = left->induction ? *left : *right;
      const ExitSide &fixed = left->induction ? *right : *left;
      bool fixedOnRight = left->induction.has_value();
      bool unitStep = moving.induction->kind == InductionVariable::Update::Add &&
                      (moving.induction->step == 1 || moving.induction->step == -1);
      if (unitStep && fixed.value.known() && *fixed.value.number == 0) {
        if (comparison == (fixedOnRight ? "gt" : "lt") || comparison == (fixedOnRight ? "hi" : "lo"))
          comparison = "ne";
        else if (comparison == (fixedOnRight ? "le" : "ge") || comparison == (fixedOnRight ? "ls" : "hs"))
          comparison = "eq";
      }
    }
    TripCount count;
    count.exitingBlock = block;
    count.origin = ValueOrigin::Constant;
    if (left->value.threadZeroSkipsLoop || right->value.threadZeroSkipsLoop) {
      // The count rests on the branches that chose the path alone, not on
      // the other side of the test, which thread 0 never evaluates.
      mergeProvenance(count, left->value.threadZeroSkipsLoop ? left->value : right->value);
      count.headerRuns = 0;
      best = std::move(count);
      break;
    }
    mergeProvenance(count, left->value);
    mergeProvenance(count, right->value);
    mergeProvenance(count, left->offsetValue);
    mergeProvenance(count, right->offsetValue);
    if (!left->value.known() || !right->value.known() || (!left->induction && !right->induction)) {
      if (left->value.known() && right->value.known())
        count.why.push_back("the exit test does not change from one iteration to the next");
      count.origin = ValueOrigin::Unknown;
      keepFailure(std::move(count), (left->induction || right->induction) &&
                                        (!left->value.known() || !right->value.known()));
      continue;
    }
    auto describe = [&](const ExitSide &side, const Operand &operand) {
      std::string text = toString(operand);
      if (!side.induction)
        return text + " (= " + std::to_string(*side.value.number) + ")";
      const InductionVariable &iv = *side.induction;
      const char *update[] = {"+", "<<", ">>", "*"};
      bool down = iv.kind == InductionVariable::Update::Add && iv.step < 0;
      std::string step = iv.truncates && iv.step < 63
                             ? "/" + std::to_string(std::int64_t{1} << iv.step) // a signed division
                             : (down ? "" : update[static_cast<int>(iv.kind)]) + std::to_string(iv.step);
      std::string derived = side.subtractsVariable ? "= " + std::to_string(side.offset) + " - " + iv.reg + ", " : "";
      return text + " (" + derived + iv.reg + " from " + std::to_string(normalise(*iv.initial.number, {iv.bits, iv.isSigned, true})) + ", " + step +
             " per iteration)";
    };
    for (const ExitSide *side : {&*left, &*right})
      if (side->induction)
        noteCounterSkips(loop, *side->induction, count);
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
    const ExitSide &moving = left->induction ? *left : *right;
    const ExitSide &fixed = left->induction ? *right : *left;
    if (linearNotEqual && moving.induction->kind == InductionVariable::Update::Add) {
      std::int64_t distance = normalise(wrappingSub(fixed.at(1), moving.at(1)), {type.bits, true, true});
      std::int64_t step = normalise(moving.subtractsVariable ? wrappingNeg(moving.induction->step)
                                                             : moving.induction->step,
                                    {type.bits, true, true});
      // A counter narrower than the test (an unsigned char in 16 bits)
      // wraps in its own width: `c != 4` from 250 meets 4 after 10 steps.
      const IntType counterType{moving.induction->bits, moving.induction->isSigned, true};
      std::optional<std::uint64_t> wrapped =
          moving.induction->bits < type.bits && normalise(fixed.at(1), counterType) == fixed.at(1)
              ? stepsModulo(wrappingSub(fixed.at(1), moving.at(1)), step, moving.induction->bits)
              : std::nullopt;
      if (wrapped) {
        count.headerRuns = *wrapped + 1;
      } else if (std::optional<std::uint64_t> steps = stepsCovering(distance, step);
                 steps && (moving.induction->bits >= type.bits || normalise(fixed.at(1), counterType) != fixed.at(1))) {
        count.headerRuns = *steps + 1;
      } else {
        count.headerRuns = 0;
        count.skippedByGuard = true;
        if (exits.size() > 1) {
          // Never met, with other exits: this one does not leave (a tile
          // loop's `remaining == 0` when a partial tile is left). Only when
          // no other exit counts does it mean a guard skips the loop.
          if (!neverLeaves)
            neverLeaves = std::move(count);
          continue;
        }
      }
    } else if (rotatedAndFailsOnEntry(*left, *right, stays)) {
      count.headerRuns = 0;
      count.skippedByGuard = true;
    } else {
      std::optional<std::uint64_t> leaves =
          firstLeavingIteration(stays, lastIterationBeforeWrap(*left, *right, type));
      if (!comparable) {
        fail("the exit comparison '" + std::string(comparison) + "' is not modelled");
        continue;
      }
      if (!leaves) {
        count.headerRuns.reset();
        count.origin = ValueOrigin::Unknown;
        count.why.push_back(kNoEndWithinSearch);
        keepFailure(std::move(count), false);
        continue;
      }
      count.headerRuns = *leaves;
    }
    if (!best || *count.headerRuns < *best->headerRuns)
      best = std::move(count);
  }
  // Exits that may leave before the count found (or that stop one from being
  // found): the one whose bound a user can give first, then the first one
  // only the data decides.
  auto sooner = [&](bool withUnknownBound) {
    std::vector<std::string> reasons;
    if (withUnknownBound && unknownBound && !unknownBound->why.empty())
      reasons.push_back("another exit may leave sooner: " + unknownBound->why.front());
    if (firstFailure && !firstFailureIsUnknownBound && !firstFailure->why.empty())
      reasons.push_back("another exit may leave sooner: " + firstFailure->why.front());
    return reasons;
  };
  if (best && best->headerRuns > 0) {
    // A `break` on data, a search that finds its key, a bound not given:
    // the count is then the most the loop runs.
    if (std::vector<std::string> reasons = sooner(true); !reasons.empty()) {
      best->atMost = true;
      appendReasons(best->why, reasons);
    }
  }
  if (!best && !firstFailure && neverLeaves)
    best = std::move(neverLeaves); // no exit leaves: a guard must skip the loop
  if (best)
    return *best;
  if (firstFailure) {
    TripCount failure = std::move(unknownBound ? *unknownBound : *firstFailure);
    if (unknownBound)
      appendReasons(failure.why, sooner(false));
    failure.headerRuns.reset();
    failure.origin = ValueOrigin::Unknown;
    failure.exitingBlock = kNoBlock;
    return failure;
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
