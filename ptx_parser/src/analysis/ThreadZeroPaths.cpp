// ThreadZeroPaths.cpp - the value a loop's counter enters with, read along
// thread 0's own path when several definitions meet at the loop (nvcc's
// peeled remainders, copies on both sides of a guard).
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include "Reasons.h"

#include <algorithm>

namespace ptxdvfs::ptx::analysis {

namespace {

/// The entry value of a counter whose loop thread 0's branches lead past.
Value skippedByThreadZero() {
  Value value{std::nullopt, ValueOrigin::Constant, {kLeadsPastLoop}};
  value.threadZeroSkipsLoop = true;
  return value;
}

} // namespace

std::optional<TripCountAnalysis::PathDefinition>
TripCountAnalysis::definitionOnThreadZerosPath(std::uint32_t loop, const std::string &reg,
                                               const std::vector<std::uint32_t> &entering,
                                               const Bindings &outer) const {
  const Loop &target = forest_.loops[loop];
  const int parent = target.parent;
  std::uint32_t block = parent < 0 ? 0 : forest_.loops[static_cast<std::size_t>(parent)].header;
  PathDefinition path{ValueEvaluator::kNoDefinition, true, false, Value::constant(0), std::nullopt};
  std::vector<bool> seen(graph_.blocks.size(), false);
  while (block != target.header) {
    if (seen[block])
      return std::nullopt;
    if (forest_.innermost[block] != parent) {
      // Another loop on the way (a remainder loop before the unrolled
      // part): entered at its header and left by the exit it leaves by,
      // it leaves `reg` as the expansion bound it after the loop (a
      // counter after its loop), when it writes `reg` at all.
      int sibling = forest_.childHolding(parent, block);
      if (sibling < 0)
        return std::nullopt;
      const Loop &other = forest_.loops[static_cast<std::size_t>(sibling)];
      std::optional<std::uint32_t> exit =
          block == other.header ? exitLeftBy(static_cast<std::uint32_t>(sibling), outer, path.branches)
                                : std::nullopt;
      if (!exit)
        return std::nullopt;
      for (std::uint32_t b : other.blocks)
        seen[b] = true;
      auto writtenThere = [&](std::uint32_t def) { return insideLoop(static_cast<std::uint32_t>(sibling), def); };
      if (std::any_of(entering.begin(), entering.end(), writtenThere)) {
        path.definition = ValueEvaluator::kNoDefinition;
        path.afterLoop = true;
      }
      block = *exit;
      continue;
    }
    seen[block] = true;
    const BasicBlock &current = graph_.blocks[block];
    for (std::uint32_t i = current.first; i < current.end; ++i)
      if (std::find(entering.begin(), entering.end(), i) != entering.end()) {
        path.definition = i;
        path.afterLoop = false;
      }
    const Loop *enclosing = parent < 0 ? nullptr : &forest_.loops[static_cast<std::size_t>(parent)];
    auto endsPass = [&](std::uint32_t next) {
      return next == kNoBlock || (enclosing && (next == enclosing->header || !enclosing->contains(next)));
    };
    const auto &successors = current.successors;
    std::uint32_t next = successors.empty() ? kNoBlock : successors[0];
    if (successors.size() == 2 && endsPass(successors[0]) && endsPass(successors[1])) {
      next = kNoBlock; // the enclosing loop's latch: round again or out, the loop is not entered
    } else if (successors.size() == 2) {
      const Instruction *branch = graph_.terminator(block);
      if (!branch || branch->opcode != "bra" || !branch->guard)
        return std::nullopt;
      Value predicate = values_.registerAt(branch->guard->predicate, current.end - 1, outer);
      bool skipsLoop = false;
      if (!predicate.known())
        predicate = withValueSoFar(loop, reg, path, branch->guard->predicate, current.end - 1, outer, skipsLoop)
                        .value_or(predicate);
      if (skipsLoop) {
        path.definition = ValueEvaluator::kNoDefinition; // another register's path already goes past the loop
        path.reachesLoop = false;
        return path;
      }
      // Only one side leads to the loop (`if (bx < d_dim.number_boxes) { ... }`
      // around it): a thread that enters the loop took it, whatever decided.
      auto onlySideReachingLoop = [&]() -> std::optional<std::uint32_t> {
        const std::uint32_t passStart = enclosing ? enclosing->header : kNoBlock;
        const bool reaches[] = {reachableWithin(graph_, successors[0], passStart)[target.header],
                                reachableWithin(graph_, successors[1], passStart)[target.header]};
        if (reaches[0] == reaches[1])
          return std::nullopt;
        return successors[reaches[0] ? 0 : 1];
      };
      if (predicate.known()) {
        path.branches.origin = std::max(path.branches.origin, predicate.origin);
        appendReasons(path.branches.why, predicate.why);
        bool taken = (*predicate.number != 0) != branch->guard->negated;
        next = successors[taken ? 0 : 1];
      } else if (std::optional<std::uint32_t> only = onlySideReachingLoop()) {
        next = *only;
      } else if (std::optional<std::uint32_t> join = joinOfBranchThatChangesNothing(loop, block, entering, seen)) {
        next = *join;
      } else {
        path.undecidedBranch = std::move(predicate);
        return path;
      }
    } else if (successors.size() > 2) {
      return std::nullopt;
    }
    if (endsPass(next)) {
      path.definition = ValueEvaluator::kNoDefinition; // the pass ends without entering the loop
      path.reachesLoop = false;
      return path;
    }
    block = next;
  }
  if (path.definition == ValueEvaluator::kNoDefinition && !path.afterLoop)
    return std::nullopt;
  return path;
}

Value TripCountAnalysis::valueAlongPath(const PathDefinition &path, const std::string &reg,
                                        const Bindings &outer, const Bindings &evaluateWith) const {
  if (path.definition != ValueEvaluator::kNoDefinition)
    return values_.definedBy(path.definition, reg, evaluateWith);
  if (!path.afterLoop)
    return Value::unknown("no definition of " + reg + " on thread 0's path yet");
  auto after = outer.find(reg);
  return after != outer.end() ? after->second.value
                              : Value::unknown("register " + reg + " after an earlier loop");
}

Value TripCountAnalysis::entryValue(std::uint32_t loop, const std::string &reg, const Bindings &outer) const {
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
  bool registerOnlyReason = false; // the reason names a register, not what decides it
  for (std::uint32_t def : bound ? std::vector<std::uint32_t>{} : entering) {
    bool unwritten = def == ValueEvaluator::kNoDefinition;
    Value value = unwritten ? Value::unknown("register " + reg + " read before it is written")
                            : values_.definedBy(def, reg, outer);
    if (!value.known() || (!first && *value.number != *initial.number)) {
      registerOnlyReason = unwritten || value.known();
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
  if (!initial.known() && !bound && entering.size() == 1 && entering[0] != ValueEvaluator::kNoDefinition)
    if (std::optional<Value> value = throughOperandsOnThreadZerosPath(loop, reg, entering[0], outer))
      initial = *value;
  if (initial.known() || bound || entering.size() < 2)
    return initial;
  auto path = definitionOnThreadZerosPath(loop, reg, entering, outer);
  if (path && path->undecidedBranch) {
    // What decides thread 0's path (a parameter) is what the user can give;
    // "different values enter" names a register, which tells them nothing.
    // An unknown value of its own (a load) keeps its reason: deciding the
    // path would not make it known.
    if (registerOnlyReason && !path->undecidedBranch->why.empty())
      initial.why = path->undecidedBranch->why;
  } else if (path) {
    // Not reached: no number, and the provenance of the branches alone.
    Value value = path->reachesLoop ? valueAlongPath(*path, reg, outer, outer) : skippedByThreadZero();
    // The definition on the path may read a register another path sets
    // (the tail's index, `offset + tid`, after the tile loop).
    if (!value.known() && path->reachesLoop && !path->afterLoop)
      if (std::optional<Value> through = throughOperandsOnThreadZerosPath(loop, reg, path->definition, outer))
        value = *through;
    if (value.known() || !path->reachesLoop) {
      mergeProvenance(value, path->branches);
      value.perThread = true;
      initial = value;
    }
  }
  return initial;
}

std::vector<std::pair<std::string, std::uint32_t>>
TripCountAnalysis::mergedReadsBehind(std::uint32_t loop, std::uint32_t at, const std::string &exclude) const {
  constexpr unsigned kMaxDepth = 6;
  constexpr std::size_t kMaxVisited = 32;
  std::vector<std::pair<std::string, std::uint32_t>> reads;
  std::vector<std::uint32_t> visited;
  auto collect = [&](auto &self, std::uint32_t instructionAt, unsigned depth) -> void {
    if (depth > kMaxDepth || visited.size() >= kMaxVisited ||
        std::find(visited.begin(), visited.end(), instructionAt) != visited.end())
      return;
    visited.push_back(instructionAt);
    const Instruction &instruction = *graph_.instructions[instructionAt];
    for (std::size_t i = 1; i < instruction.operands.size(); ++i) {
      const auto *read = instruction.operands[i].getIf<Register>();
      if (!read || read->name == exclude)
        continue;
      std::vector<std::uint32_t> defs = values_.reachingDefinitions(read->name, instructionAt);
      if (std::any_of(defs.begin(), defs.end(), [&](std::uint32_t def) {
            return def == ValueEvaluator::kNoDefinition || insideLoop(loop, def);
          }))
        continue;
      bool known = std::any_of(reads.begin(), reads.end(), [&](const auto &seen) { return seen.first == read->name; });
      if (defs.size() > 1 && !known)
        reads.emplace_back(read->name, instructionAt);
      else if (defs.size() == 1)
        self(self, defs[0], depth + 1);
    }
  };
  collect(collect, at, 0);
  return reads;
}

TripCountAnalysis::PathBinding TripCountAnalysis::bindAlongThreadZerosPath(std::uint32_t loop,
                                                                           const std::string &name,
                                                                           std::uint32_t readAt,
                                                                           const Bindings &outer, Bindings &bindings,
                                                                           Value &branches) const {
  std::vector<std::uint32_t> merged = values_.reachingDefinitions(name, readAt);
  // An earlier loop's counter is bound after it, but a path around that
  // loop (CUB's single tile, `n < 1024`) brings another value: only
  // thread 0's path says which.
  if (values_.boundValue(name, merged, readAt, outer))
    return PathBinding::NotBound;
  auto path = definitionOnThreadZerosPath(loop, name, merged, outer);
  if (!path || path->undecidedBranch)
    return PathBinding::NotBound;
  mergeProvenance(branches, path->branches);
  if (!path->reachesLoop)
    return PathBinding::LoopSkipped;
  Value value = valueAlongPath(*path, name, outer, outer);
  if (!value.known())
    return PathBinding::NotBound;
  std::sort(merged.begin(), merged.end());
  bindings[name] = Binding{std::move(value), std::move(merged)};
  return PathBinding::Bound;
}

std::optional<Value> TripCountAnalysis::throughOperandsOnThreadZerosPath(std::uint32_t loop,
                                                                       const std::string &reg,
                                                                       std::uint32_t definition,
                                                                       const Bindings &outer) const {
  // The registers several definitions reach, read by `definition` or by
  // the single definitions it is computed from (CUB's remainder count,
  // `((~tid + end - offset) >> 8) + 1 & 3`, reads the offset three steps up).
  Bindings bindings = outer;
  bool found = false;
  Value branches = Value::constant(0);
  for (const auto &[name, readAt] : mergedReadsBehind(loop, definition, reg)) {
    Value pathBranches = Value::constant(0);
    PathBinding bound = bindAlongThreadZerosPath(loop, name, readAt, outer, bindings, pathBranches);
    if (bound == PathBinding::LoopSkipped) {
      // The peeled copies were all thread 0 needed: a guard leads it past
      // the unrolled part (lavaMD's 100 particles, 128 threads apart).
      Value skipped = skippedByThreadZero();
      mergeProvenance(skipped, pathBranches);
      skipped.perThread = true;
      return skipped;
    }
    if (bound == PathBinding::Bound) {
      mergeProvenance(branches, pathBranches);
      found = true;
    }
  }
  if (!found)
    return std::nullopt;
  Value value = values_.definedBy(definition, reg, bindings);
  if (!value.known())
    return std::nullopt;
  mergeProvenance(value, branches);
  value.perThread = true;
  return value;
}

std::optional<Value> TripCountAnalysis::withValueSoFar(std::uint32_t loop, const std::string &reg,
                                                       const PathDefinition &path, const std::string &predicate,
                                                       std::uint32_t at, const Bindings &outer,
                                                       bool &skipsLoop) const {
  Bindings bindings = outer;
  auto bindValueSoFar = [&] {
    Value sofar = valueAlongPath(path, reg, outer, bindings);
    if (!sofar.known())
      return;
    std::vector<std::uint32_t> defs = values_.reachingDefinitions(reg, at);
    std::sort(defs.begin(), defs.end());
    bindings[reg] = Binding{std::move(sofar), std::move(defs)};
  };
  bindValueSoFar();
  Value decided = values_.registerAt(predicate, at, bindings);
  // Other registers several definitions reach may decide it too, behind
  // the predicate or behind `reg`'s value so far (the tile loop's offset,
  // for a branch on the tail's index `offset + tid`): each read along its
  // own path, one level deep, so walks do not nest without end.
  std::optional<std::uint32_t> test = values_.soleReachingDefinition(predicate, at);
  if (!decided.known() && test && nestedWalks_ == 0) {
    ++nestedWalks_;
    auto reads = mergedReadsBehind(loop, *test, reg);
    if (path.definition != ValueEvaluator::kNoDefinition)
      for (auto &read : mergedReadsBehind(loop, path.definition, reg))
        reads.push_back(std::move(read));
    Value ignored = Value::constant(0);
    for (const auto &[name, readAt] : reads)
      skipsLoop = skipsLoop ||
                  bindAlongThreadZerosPath(loop, name, readAt, outer, bindings, ignored) == PathBinding::LoopSkipped;
    --nestedWalks_;
    if (skipsLoop)
      return std::nullopt;
    bindValueSoFar();
    decided = values_.registerAt(predicate, at, bindings);
  }
  if (!decided.known())
    return std::nullopt;
  return decided;
}

std::optional<std::uint32_t> TripCountAnalysis::exitLeftBy(std::uint32_t loop, const Bindings &outer,
                                                          Value &provenance) const {
  const Loop &theLoop = forest_.loops[loop];
  // An exit through a block that only branches on (`bra.uni $L__BB0_5`
  // after the latch) leaves for where that branch goes.
  auto through = [&](std::uint32_t block) {
    for (int hops = 0; hops < 4; ++hops) {
      const BasicBlock &forwarding = graph_.blocks[block];
      const Instruction *branch = graph_.terminator(block);
      if (forwarding.end - forwarding.first != 1 || forwarding.successors.size() != 1 || !branch ||
          branch->opcode != "bra" || theLoop.contains(forwarding.successors[0]))
        break;
      block = forwarding.successors[0];
    }
    return block;
  };
  std::vector<std::uint32_t> targets;
  for (std::uint32_t b : theLoop.blocks)
    for (std::uint32_t to : graph_.blocks[b].successors)
      if (!theLoop.contains(to) && std::find(targets.begin(), targets.end(), through(to)) == targets.end())
        targets.push_back(through(to));
  if (targets.size() < 2)
    return targets.empty() ? std::nullopt : std::optional<std::uint32_t>(targets[0]);
  // Several (CUB's full-tile loop leaves past the partial tile when none is
  // left): the one its count leaves by, when nothing may leave sooner. The
  // count walks paths of its own; irreducible flow (no loop, so no order
  // among the walks) must not send them round each other for ever.
  constexpr unsigned kMaxNestedCounts = 4;
  if (nestedExitCounts_ >= kMaxNestedCounts)
    return std::nullopt;
  ++nestedExitCounts_;
  TripCount count = tripCount(loop, outer);
  --nestedExitCounts_;
  if (!count.headerRuns || *count.headerRuns == 0 || count.atMost || count.exitingBlock == kNoBlock)
    return std::nullopt;
  for (std::uint32_t to : graph_.blocks[count.exitingBlock].successors)
    if (!theLoop.contains(to)) {
      provenance.origin = std::max(provenance.origin, count.origin);
      appendReasons(provenance.why, count.why);
      return through(to);
    }
  return std::nullopt;
}

std::optional<std::uint32_t>
TripCountAnalysis::joinOfBranchThatChangesNothing(std::uint32_t loop, std::uint32_t branchBlock,
                                                  const std::vector<std::uint32_t> &entering,
                                                  std::vector<bool> &seen) const {
  if (!postDominators_)
    postDominators_.emplace(graph_);
  const std::uint32_t join = postDominators_->immediate(branchBlock);
  if (join == kNoBlock || seen[join])
    return std::nullopt;
  const Loop &target = forest_.loops[loop];
  const int parent = target.parent;
  const Loop *enclosing = parent < 0 ? nullptr : &forest_.loops[static_cast<std::size_t>(parent)];
  // What either side runs before they meet.
  std::vector<bool> region(graph_.blocks.size(), false);
  for (std::uint32_t side : graph_.blocks[branchBlock].successors) {
    std::vector<bool> reached = reachableWithin(graph_, side, join);
    for (std::uint32_t block = 0; block < region.size(); ++block)
      region[block] = region[block] || reached[block];
  }
  region[join] = false;
  for (std::uint32_t block = 0; block < region.size(); ++block) {
    if (!region[block])
      continue;
    if (block == branchBlock || seen[block] || target.contains(block) ||
        (enclosing && (block == enclosing->header || !enclosing->contains(block))))
      return std::nullopt; // around again, into the loop, or out of the pass
    for (std::uint32_t i = graph_.blocks[block].first; i < graph_.blocks[block].end; ++i)
      if (std::find(entering.begin(), entering.end(), i) != entering.end())
        return std::nullopt; // the side taken decides the value
  }
  if (target.contains(join) && join != target.header)
    return std::nullopt;
  for (std::uint32_t block = 0; block < region.size(); ++block)
    if (region[block])
      seen[block] = true;
  return join;
}

} // namespace ptxdvfs::ptx::analysis
