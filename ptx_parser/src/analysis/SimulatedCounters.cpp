// SimulatedCounters.cpp - loops whose counter no closed form steps
// (`k = (k + 1) / 2`, `i = 2 * i + 1`, `x = x * x % m`, Euclid's `a, b =
// b, a % b`): thread 0's counters are stepped one iteration at a time
// through the value analysis.
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
/// Carried registers stepped together: a counter and the few values it is
/// computed from (Fibonacci's a and b), not a whole loop's state.
constexpr std::size_t kMaxSteppedRegisters = 4;

} // namespace

std::optional<std::vector<std::string>> TripCountAnalysis::carriedRegisters(std::uint32_t loop,
                                                                          std::uint32_t from) const {
  // Registers read, followed back through the definitions inside the loop
  // that reach them; a read reached from before the loop and from inside
  // it is a value the loop carries from one iteration to the next.
  std::vector<std::string> carried;
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
      if (std::find(carried.begin(), carried.end(), name) == carried.end())
        carried.emplace_back(name);
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
  // The registers the loop carries that the test reads, and those their
  // updates read in turn (Euclid's `a, b = b, a % b`), each written once
  // in the loop from them and values the loop does not change.
  std::optional<std::vector<std::string>> carried = carriedRegisters(loop, test);
  if (!carried || carried->empty())
    return std::nullopt;
  std::vector<std::uint32_t> updates;
  for (std::size_t c = 0; c < carried->size(); ++c) {
    if (carried->size() > kMaxSteppedRegisters)
      return std::nullopt;
    std::vector<std::uint32_t> writes = definitionsInside(loop, (*carried)[c]);
    std::optional<std::vector<std::string>> read = writes.size() == 1 ? carriedRegisters(loop, writes[0]) : std::nullopt;
    if (!read)
      return std::nullopt;
    for (std::string &name : *read)
      if (std::find(carried->begin(), carried->end(), name) == carried->end())
        carried->push_back(std::move(name));
    updates.push_back(writes[0]);
  }
  // Stepping reads the updates and the test once per iteration: all must
  // run in every one, not under a guard or a branch of the body.
  if (!blockRunsEveryPass(loop, exitingBlock) ||
      !std::all_of(updates.begin(), updates.end(), [&](std::uint32_t at) { return runsEveryPass(loop, at); }))
    return std::nullopt;

  Bindings bindings = outer;
  std::vector<Value> entries;
  for (const std::string &name : *carried)
    entries.push_back(entryValue(loop, name, outer));
  // The registers' values at the header of one iteration; what the test and the updates see.
  std::vector<Value> next(carried->size());
  Value left, right;
  auto step = [&](const std::vector<std::int64_t> &values) {
    for (std::size_t c = 0; c < carried->size(); ++c)
      bindings[(*carried)[c]] = Binding{Value{values[c], entries[c].origin, entries[c].why, entries[c].perThread}, {}};
    left = values_.operandAt(setp.operands[1], test, bindings);
    right = values_.operandAt(setp.operands[2], test, bindings);
    bool known = left.known() && right.known();
    for (std::size_t c = 0; c < carried->size(); ++c) {
      next[c] = values_.definedBy(updates[c], (*carried)[c], bindings);
      known = known && next[c].known();
    }
    return known;
  };
  TripCount count;
  count.origin = ValueOrigin::Constant;
  std::vector<std::int64_t> values;
  bool entriesKnown = true;
  for (const Value &entry : entries) {
    values.push_back(entry.known() ? *entry.number : 1);
    entriesKnown = entriesKnown && entry.known();
  }
  if (!entriesKnown) {
    // Whether the rest could be stepped: then an entry value is what a
    // user would give (a parameter), and its reasons say so.
    if (!step(values))
      return std::nullopt;
    for (const Value &entry : entries)
      if (!entry.known())
        mergeProvenance(count, entry);
    count.origin = ValueOrigin::Unknown;
    return count;
  }
  const std::vector<std::int64_t> first = values;
  auto listed = [&](auto &&item) {
    std::string text;
    for (std::size_t c = 0; c < carried->size(); ++c)
      text += (c == 0 ? "" : ", ") + item(c);
    return text;
  };
  auto updateLine = [&](std::size_t c) { return std::to_string(graph_.instructions[updates[c]]->location.line); };
  std::uint64_t k = 0;
  for (; k < kMaxSimulatedSteps && simulatedSteps_ < kMaxSimulatedStepsInAll; ++k, ++simulatedSteps_) {
    if (!step(values)) {
      // The counters step, but a side of the test the loop does not change
      // is not known (a bound not given): the count rests on that value,
      // and its reasons say so. A bound re-read in the loop is left to the
      // reasons the other rules give.
      auto unknownInvariant = [&](std::size_t at, const Value &side) {
        const auto *reg = setp.operands[at].getIf<Register>();
        return !side.known() && reg && !changesInside(loop, reg->name, test);
      };
      if (k != 0 || !std::all_of(next.begin(), next.end(), [](const Value &value) { return value.known(); }) ||
          !(left.known() || unknownInvariant(1, left)) || !(right.known() || unknownInvariant(2, right)))
        return std::nullopt;
      for (const Value *side : {&left, &right})
        if (!side->known())
          mergeProvenance(count, *side);
      count.origin = ValueOrigin::Unknown;
      return count;
    }
    std::optional<bool> holds = compare(comparison, *left.number, *right.number, type);
    if (!holds)
      return std::nullopt;
    if (k == 0) {
      for (const Value &entry : entries)
        mergeProvenance(count, entry);
      for (const Value *used : {&left, &right})
        mergeProvenance(count, *used);
      for (const Value &value : next)
        mergeProvenance(count, value);
    }
    if (*holds != stayWhen) {
      count.headerRuns = k + 1;
      count.rule = "stays while " + std::string(stayWhen ? "" : "not ") + toString(setp.operands[1]) + " " +
                   std::string(comparison) + " " + toString(setp.operands[2]) + ", " +
                   (carried->size() == 1
                        ? carried->front() + " from " + std::to_string(first[0]) + " and set by line " + updateLine(0)
                        : "from " + listed([&](std::size_t c) { return (*carried)[c] + " = " + std::to_string(first[c]); }) +
                              ", set by lines " + listed(updateLine)) +
                   " each iteration (stepped one iteration at a time)";
      return count;
    }
    bool moved = false;
    for (std::size_t c = 0; c < carried->size(); ++c) {
      moved = moved || *next[c].number != values[c];
      values[c] = *next[c].number;
    }
    if (!moved) {
      count.origin = ValueOrigin::Unknown;
      count.why.push_back(
          (carried->size() == 1 ? "the counter " + carried->front() + " stays at " + std::to_string(values[0])
                                : "the counters " + listed([&](std::size_t c) { return (*carried)[c]; }) + " stay at " +
                                      listed([&](std::size_t c) { return std::to_string(values[c]); })) +
          " and the exit test keeps " + (carried->size() == 1 ? "it" : "them") + " in the loop: it does not end as read");
      return count;
    }
  }
  count.origin = ValueOrigin::Unknown;
  const std::string counters = listed([&](std::size_t c) { return (*carried)[c]; });
  count.why.push_back(k == kMaxSimulatedSteps
                          ? (carried->size() == 1 ? "the counter " : "the counters ") + counters + " " +
                                (carried->size() == 1 ? "was" : "were") + " stepped " +
                                std::to_string(kMaxSimulatedSteps) + " iterations without leaving"
                          : "the function's budget of " + std::to_string(kMaxSimulatedStepsInAll) +
                                " stepped iterations ran out");
  return count;
}

} // namespace ptxdvfs::ptx::analysis
