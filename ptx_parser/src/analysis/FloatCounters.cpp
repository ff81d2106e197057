// FloatCounters.cpp - loops whose exit test compares floating-point
// values: a float counter (`for (float t = 0; t < T; t += dt)`, a
// time-step loop), or an int counter converted for the test (`for (int i
// = 1; i <= log2f(n); i++)`).
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include "Copies.h"
#include "ExitSides.h"
#include "FloatSemantics.h"
#include "Reasons.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Every addition to a float counter rounds on its own (0.1f added ten
/// times is not 1.0f), so the count has no closed form: the counter is
/// stepped one iteration at a time, and a loop not over within this many
/// is left to the default count.
constexpr std::uint64_t kMaxFloatSteps = std::uint64_t{1} << 20;

/// How a float counter's exit test reads it, for stepping it.
struct FloatCounterRun {
  ScalarType type;
  std::string_view comparison;
  bool counterOnLeft;
  bool stayWhen;
  bool afterUpdate; ///< the test reads the counter after this iteration's update

  /// Sets `count`'s header runs for a counter from `first` by `by` (as
  /// the hardware rounds each addition) against `limit`; why it has none
  /// otherwise (empty when it has).
  std::string count(double first, double by, double limit, TripCount &count) const {
    auto stays = [&](double value) {
      std::optional<bool> holds =
          counterOnLeft ? compareFloat(comparison, value, limit) : compareFloat(comparison, limit, value);
      return holds.value_or(false) == stayWhen;
    };
    double value = first; // the counter at the header of iteration k
    if (afterUpdate && !stays(value)) {
      // Rotated: the guard before the loop makes the same test on the entry value.
      count.headerRuns = 0;
      count.skippedByGuard = true;
      return {};
    }
    for (std::uint64_t k = 1; k <= kMaxFloatSteps; ++k) {
      double next = *decodeFloat(*encodeFloat(value + by, type), type);
      if (!stays(afterUpdate ? next : value)) {
        count.headerRuns = k;
        return {};
      }
      if (next == value || (std::isnan(next) && std::isnan(value)))
        return "stops moving at " + shortestDecimal(value, type) +
               ", where its step is below half its precision: the loop does not end";
      value = next;
    }
    return "does not reach its bound within 2^20 iterations";
  }
};

/// An exit test that compares f32 or f64 values, as setp does.
struct FloatTest {
  ScalarType type;
  std::string_view comparison;
};

std::optional<FloatTest> floatTestOf(const Instruction &setp) {
  if (setp.opcode != "setp" || setp.modifiers.empty() || setp.operands.size() != 3 || setp.details.types.empty())
    return std::nullopt;
  FloatTest test{setp.details.types.back(), setp.modifiers[0]};
  if ((test.type != ScalarType::F32 && test.type != ScalarType::F64) || !compareFloat(test.comparison, 0, 0))
    return std::nullopt;
  return test;
}

} // namespace

std::optional<TripCount> TripCountAnalysis::floatCounter(std::uint32_t loop, std::uint32_t test, bool stayWhen,
                                                         const Bindings &outer) const {
  const Instruction &setp = *graph_.instructions[test];
  const std::optional<FloatTest> tested = floatTestOf(setp);
  if (!tested)
    return std::nullopt;
  const auto [type, comparison] = *tested;
  // A register read at an instruction, followed back through the copies
  // the loop makes of it (nvcc -G: `mov %f4, %f14` in the header, `mov
  // %f14, %f6` before the back edge), with the definitions that reach it.
  struct Reading {
    std::string reg;
    std::uint32_t at;
    std::vector<std::uint32_t> definitions;
  };
  auto throughCopies = [&](const std::string &reg, std::uint32_t at) {
    Reading reading{reg, at, values_.reachingDefinitions(reg, at)};
    for (int hops = 0; hops < 4 && reading.definitions.size() == 1 && insideLoop(loop, reading.definitions[0]);
         ++hops) {
      const Register *from = copySource(*graph_.instructions[reading.definitions[0]]);
      if (!from)
        break;
      reading = {from->name, reading.definitions[0], values_.reachingDefinitions(from->name, reading.definitions[0])};
    }
    return reading;
  };
  // The one definition in the loop among `definitions`, when the others come from before it.
  auto soleInside = [&](const std::vector<std::uint32_t> &definitions) -> std::optional<std::uint32_t> {
    std::optional<std::uint32_t> found;
    for (std::uint32_t def : definitions)
      if (insideLoop(loop, def)) {
        if (found)
          return std::nullopt;
        found = def;
      }
    return found;
  };
  // An immediate, or a register the loop does not write before `at` reads it.
  auto invariant = [&](const Operand &operand, std::uint32_t at) {
    if (const auto *reg = operand.getIf<Register>())
      return !reg->negated && !changesInside(loop, reg->name, at);
    return operand.getIf<Immediate>() != nullptr;
  };

  // The arithmetic that writes a counter, from its definition in the loop
  // (itself, or a copy of its result).
  auto arithmeticBehind = [&](std::uint32_t definition) -> std::optional<std::uint32_t> {
    const Register *from = copySource(*graph_.instructions[definition]);
    if (!from)
      return definition;
    Reading source = throughCopies(from->name, definition);
    if (source.definitions.size() != 1 || !insideLoop(loop, source.definitions[0]))
      return std::nullopt;
    return source.definitions[0];
  };

  for (std::size_t counterAt : {1, 2}) {
    const auto *compared = setp.operands[counterAt].getIf<Register>();
    if (!compared || compared->negated)
      continue;
    // The test reads the counter after its update (a rotated loop: `add t,
    // t, step`, then the test), or before it (a copy taken in the header,
    // -G), where the register that carries it still holds the entry value
    // or the previous iteration's.
    Reading tested = throughCopies(compared->name, test);
    std::optional<std::uint32_t> inside = soleInside(tested.definitions);
    if (!inside)
      continue;
    const bool afterUpdate = tested.definitions.size() == 1;
    std::optional<std::uint32_t> update = afterUpdate ? inside : arithmeticBehind(*inside);
    if (!update)
      continue;
    // `add t', t, step` or `sub t', t, step` on the test's type, rounded
    // to nearest, t the carried counter and the step invariant.
    const Instruction &arithmetic = *graph_.instructions[*update];
    const bool subtracts = arithmetic.opcode == "sub";
    const auto &modifiers = arithmetic.modifiers;
    if ((arithmetic.opcode != "add" && !subtracts) || arithmetic.operands.size() != 3 ||
        arithmetic.details.types.empty() || arithmetic.details.types.back() != type ||
        std::any_of(modifiers.begin(), modifiers.end(),
                    [](std::string_view m) { return m == "rz" || m == "rm" || m == "rp" || m == "sat"; }))
      continue;
    std::string carried;
    std::size_t stepAt = 0;
    for (std::size_t at : {1, 2}) {
      const auto *operand = arithmetic.operands[at].getIf<Register>();
      if (!operand || operand->negated || (subtracts && at == 2))
        continue;
      Reading previous = throughCopies(operand->name, *update);
      std::optional<std::uint32_t> written = soleInside(previous.definitions);
      if (previous.definitions.size() > 1 && written && arithmeticBehind(*written) == update &&
          (afterUpdate || previous.reg == tested.reg)) {
        carried = previous.reg;
        stepAt = 3 - at;
        break;
      }
    }
    const Operand &boundOperand = setp.operands[3 - counterAt];
    if (carried.empty() || !invariant(arithmetic.operands[stepAt], *update) || !invariant(boundOperand, test))
      continue;

    // A number of `type` with what it rests on; a float immediate is its number.
    struct Number {
      Value value;
      std::optional<double> number;
    };
    auto read = [&](const Value &value) {
      return Number{value, value.known() ? decodeFloat(*value.number, type) : std::nullopt};
    };
    auto readOperand = [&](const Operand &operand, std::uint32_t at) {
      if (const auto *immediate = operand.getIf<Immediate>())
        return Number{Value::constant(0), immediateAsFloat(*immediate)};
      return read(values_.operandAt(operand, at, outer));
    };
    Number entry = read(entryValue(loop, carried, outer));
    Number step = readOperand(arithmetic.operands[stepAt], *update);
    Number bound = readOperand(boundOperand, test);

    TripCount count;
    count.origin = ValueOrigin::Constant;
    for (const Number *value : {&entry, &step, &bound})
      mergeProvenance(count, value->value);
    std::optional<double> first = entry.number, by = step.number, limit = bound.number;
    if (!first || !by || !limit) {
      count.origin = ValueOrigin::Unknown;
      return count; // the reasons say which value is unknown
    }
    if (subtracts)
      by = -*by;
    auto shown = [&](double value) { return shortestDecimal(value, type); };
    std::string counted = toString(setp.operands[counterAt]) + " (" + std::string(toString(type)) + " from " +
                          shown(*first) + ", " + (*by < 0 ? "" : "+") + shown(*by) + " per iteration)";
    std::string fixed = toString(boundOperand) + " (= " + shown(*limit) + ")";
    count.rule = "stays while " + std::string(stayWhen ? "" : "not ") + (counterAt == 1 ? counted : fixed) +
                 " " + std::string(comparison) + " " + (counterAt == 1 ? fixed : counted);
    FloatCounterRun run{type, comparison, counterAt == 1, stayWhen, afterUpdate};
    if (auto why = run.count(*first, *by, *limit, count); !why.empty()) {
      count.origin = ValueOrigin::Unknown;
      count.why.push_back("the float counter " + carried + " " + why);
    }
    return count;
  }
  return std::nullopt;
}

std::optional<TripCount> TripCountAnalysis::convertedCounter(std::uint32_t loop, std::uint32_t test, bool stayWhen,
                                                             const Bindings &outer) const {
  const Instruction &setp = *graph_.instructions[test];
  const std::optional<FloatTest> tested = floatTestOf(setp);
  // An ordering against a fixed bound changes its outcome at most once
  // while the counter moves one way; `==` and `!=` on floats are left alone.
  static const std::set<std::string_view> orderings{"lt", "le", "gt", "ge", "ltu", "leu", "gtu", "geu"};
  if (!tested || !orderings.count(tested->comparison))
    return std::nullopt;
  const auto [type, comparison] = *tested;
  for (std::size_t counterAt : {1, 2}) {
    const auto *compared = setp.operands[counterAt].getIf<Register>();
    if (!compared || compared->negated)
      continue;
    // `cvt.rn.f32.s32 %f47, %r13` in the loop, then the test on %f47.
    std::vector<std::uint32_t> definitions = values_.reachingDefinitions(compared->name, test);
    if (definitions.size() != 1 || !insideLoop(loop, definitions[0]))
      continue;
    const std::uint32_t conversionAt = definitions[0];
    const Instruction &conversion = *graph_.instructions[conversionAt];
    if (conversion.opcode != "cvt" || !conversion.hasModifier("rn") || conversion.operands.size() != 2 ||
        conversion.details.types.size() != 2 || conversion.details.types[0] != type)
      continue;
    const IntType source = intTypeOf(conversion.details.types[1]);
    if (!source.isInteger)
      continue;
    std::string problem;
    std::optional<ExitSide> counter = readExitSide(loop, conversionAt, conversion.operands[1], outer, problem);
    // The bound: a float immediate is its number (the integer value
    // analysis reads `0f00000000` as no value).
    const Operand &boundOperand = setp.operands[3 - counterAt];
    const auto *immediate = boundOperand.getIf<Immediate>();
    std::optional<ExitSide> bound =
        immediate ? std::optional<ExitSide>(ExitSide{}) : readExitSide(loop, test, boundOperand, outer, problem);
    if (!counter || !bound || !counter->induction || bound->induction ||
        counter->induction->kind != InductionVariable::Update::Add)
      continue;
    if (immediate)
      bound->value = Value::constant(*encodeFloat(immediateAsFloat(*immediate), type));

    TripCount count;
    count.origin = ValueOrigin::Constant;
    for (const Value *used : {&counter->value, &counter->offsetValue, &bound->value})
      mergeProvenance(count, *used);
    std::optional<double> limit = bound->value.known() ? decodeFloat(*bound->value.number, type) : std::nullopt;
    if (!counter->value.known() || !limit) {
      count.origin = ValueOrigin::Unknown;
      return count; // the reasons say which value is unknown
    }
    // The counter's value in iteration k as the conversion rounds it.
    auto converted = [&](std::uint64_t k) {
      return *decodeFloat(*encodeFloat(integerToFloat(counter->at(k), source), type), type);
    };
    auto stays = [&](std::uint64_t k) {
      std::optional<bool> holds = counterAt == 1 ? compareFloat(comparison, converted(k), *limit)
                                                 : compareFloat(comparison, *limit, converted(k));
      return holds.value_or(false) == stayWhen;
    };
    const InductionVariable &iv = *counter->induction;
    // An unrolled loop's tests in the middle read the counter plus a copy's offset.
    std::string derived = counter->subtractsVariable ? std::to_string(counter->offset) + " - " + iv.reg + ", "
                          : counter->offset != 0    ? iv.reg + (counter->offset > 0 ? " + " : " - ") +
                                                       std::to_string(std::llabs(counter->offset)) + ", "
                                                    : "";
    std::string counted = toString(setp.operands[counterAt]) + " (" + derived + iv.reg + " from " +
                          std::to_string(normalise(*iv.initial.number, {iv.bits, iv.isSigned, true})) + ", " +
                          (iv.step < 0 ? "" : "+") + std::to_string(iv.step) + " per iteration, as " +
                          std::string(toString(type)) + ")";
    std::string fixed = toString(boundOperand) + " (= " + shortestDecimal(*limit, type) + ")";
    count.rule = "stays while " + std::string(stayWhen ? "" : "not ") + (counterAt == 1 ? counted : fixed) + " " +
                 std::string(comparison) + " " + (counterAt == 1 ? fixed : counted);
    noteCounterSkips(loop, iv, count);
    count.atMost = counter->initialIsBound;
    // A rotated loop that fails its test on entry is skipped by the guard
    // nvcc puts before it, which the walk along thread 0's path reads.
    if (std::optional<std::uint64_t> leaves =
            firstLeavingIteration(stays, lastIterationBeforeWrap(*counter, *bound, source))) {
      count.headerRuns = *leaves;
    } else {
      count.origin = ValueOrigin::Unknown;
      count.why.push_back(kNoEndWithinSearch);
    }
    return count;
  }
  return std::nullopt;
}

} // namespace ptxdvfs::ptx::analysis
