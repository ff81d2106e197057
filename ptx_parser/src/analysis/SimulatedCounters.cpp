// SimulatedCounters.cpp - loops whose counter no closed form steps
// (`k = (k + 1) / 2`, `i = 2 * i + 1`, `x = x * x % m`): thread 0's
// counter is stepped one iteration at a time through the value analysis.
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include "IntegerSemantics.h"
#include "Reasons.h"
#include "RegisterNames.h"

#include <algorithm>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Iterations stepped per count; a loop not over by then keeps the default.
constexpr std::uint64_t kMaxSimulatedSteps = 4096;
/// Iterations stepped by one analysis in all, so that an inner loop
/// counted again for each sampled iteration of its outer loops stays cheap.
constexpr std::uint64_t kMaxSimulatedStepsInAll = std::uint64_t{1} << 18;
/// Registers followed back from the exit test to find what it reads.
constexpr unsigned kMaxReads = 64;

} // namespace

std::optional<std::string> TripCountAnalysis::soleCarriedRegister(std::uint32_t loop, std::uint32_t from) const {
  // Registers read, followed back through the definitions inside the loop
  // that reach them; a read reached from before the loop and from inside
  // it is the value the loop carries from one iteration to the next.
  std::optional<std::string> carried;
  std::vector<std::pair<std::string_view, std::uint32_t>> pending;
  std::vector<std::uint32_t> followed;
  auto readsOf = [&](std::uint32_t at) {
    const Instruction &instruction = *graph_.instructions[at];
    for (std::string_view name : sourceRegisters(instruction, !destinationRegisters(instruction).empty()))
      pending.emplace_back(name, at);
  };
  readsOf(from);
  for (unsigned reads = 0; !pending.empty(); ++reads) {
    if (reads == kMaxReads)
      return std::nullopt;
    auto [name, at] = pending.back();
    pending.pop_back();
    std::vector<std::uint32_t> definitions = values_.reachingDefinitions(name, at);
    const bool inside = std::any_of(definitions.begin(), definitions.end(),
                                    [&](std::uint32_t def) { return insideLoop(loop, def); });
    const bool outside = std::any_of(definitions.begin(), definitions.end(),
                                     [&](std::uint32_t def) { return !insideLoop(loop, def); });
    if (!inside)
      continue; // the same in every iteration
    if (outside) {
      if (carried && *carried != name)
        return std::nullopt; // two carried values: not one counter
      carried = std::string(name);
      continue;
    }
    for (std::uint32_t def : definitions)
      if (std::find(followed.begin(), followed.end(), def) == followed.end()) {
        followed.push_back(def);
        readsOf(def);
      }
  }
  return carried;
}

std::optional<TripCount> TripCountAnalysis::simulatedCount(std::uint32_t loop, std::uint32_t test,
                                                           std::uint32_t exitingBlock, bool stayWhen,
                                                           const Bindings &outer) const {
  const Instruction &setp = *graph_.instructions[test];
  if (setp.opcode != "setp" || setp.modifiers.size() != 2 || setp.operands.size() != 3 || setp.details.types.empty())
    return std::nullopt;
  const IntType type = intTypeOf(setp.details.types.back());
  const std::string_view comparison = setp.modifiers[0];
  if (!type.isInteger || !compare(comparison, 0, 0, type))
    return std::nullopt;
  // One register carried round the loop, written once in it, from itself
  // and values the loop does not change.
  std::optional<std::string> carried = soleCarriedRegister(loop, test);
  if (!carried)
    return std::nullopt;
  std::vector<std::uint32_t> updates = definitionsInside(loop, *carried);
  if (updates.size() != 1 || soleCarriedRegister(loop, updates[0]) != carried)
    return std::nullopt;
  // Stepping reads the update and the test once per iteration: both must
  // run in every one, not under a guard or a branch of the body.
  if (!runsEveryPass(loop, updates[0]) || !blockRunsEveryPass(loop, exitingBlock))
    return std::nullopt;

  Bindings bindings = outer;
  // Its value at the header of one iteration; what the test and the update see.
  auto step = [&](std::int64_t value, const Value &from, Value &left, Value &right, Value &next) {
    bindings[*carried] = Binding{Value{value, from.origin, from.why, from.perThread}, {}};
    left = values_.operandAt(setp.operands[1], test, bindings);
    right = values_.operandAt(setp.operands[2], test, bindings);
    next = values_.definedBy(updates[0], *carried, bindings);
    return left.known() && right.known() && next.known();
  };
  Value entry = entryValue(loop, *carried, outer);
  Value left, right, next;
  TripCount count;
  count.origin = ValueOrigin::Constant;
  if (!entry.known()) {
    // Whether the rest could be stepped: then the entry value is what a
    // user would give (a parameter), and its reasons say so.
    if (!step(1, entry, left, right, next))
      return std::nullopt;
    mergeProvenance(count, entry);
    count.origin = ValueOrigin::Unknown;
    return count;
  }
  std::int64_t value = *entry.number;
  const std::int64_t first = value;
  std::uint64_t k = 0;
  for (; k < kMaxSimulatedSteps && simulatedSteps_ < kMaxSimulatedStepsInAll; ++k, ++simulatedSteps_) {
    if (!step(value, entry, left, right, next))
      return std::nullopt;
    std::optional<bool> holds = compare(comparison, *left.number, *right.number, type);
    if (!holds)
      return std::nullopt;
    if (k == 0)
      for (const Value *used : {&entry, &left, &right, &next})
        mergeProvenance(count, *used);
    if (*holds != stayWhen) {
      count.headerRuns = k + 1;
      count.rule = "stays while " + std::string(stayWhen ? "" : "not ") + toString(setp.operands[1]) + " " +
                   std::string(comparison) + " " + toString(setp.operands[2]) + ", " + *carried + " from " +
                   std::to_string(first) + " and set by line " +
                   std::to_string(graph_.instructions[updates[0]]->location.line) +
                   " each iteration (stepped one iteration at a time)";
      return count;
    }
    if (*next.number == value) {
      count.origin = ValueOrigin::Unknown;
      count.why.push_back("the counter " + *carried + " stays at " + std::to_string(value) +
                          " and the exit test keeps it in the loop: it does not end as read");
      return count;
    }
    value = *next.number;
  }
  count.origin = ValueOrigin::Unknown;
  count.why.push_back(k == kMaxSimulatedSteps
                          ? "the counter " + *carried + " was stepped " + std::to_string(kMaxSimulatedSteps) +
                                " iterations without leaving"
                          : "the function's budget of " + std::to_string(kMaxSimulatedStepsInAll) +
                                " stepped iterations ran out");
  return count;
}

} // namespace ptxdvfs::ptx::analysis
