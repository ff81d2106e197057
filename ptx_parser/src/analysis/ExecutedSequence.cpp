// ExecutedSequence.cpp - writing out loop iterations and inlined calls within a budget.
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include "CallArguments.h"
#include "LaunchCounts.h"
#include "LoopReports.h"
#include "RareBranches.h"
#include "Reasons.h"

#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Everything known about one function, built once per expansion.
struct FunctionFacts {
  ControlFlowGraph graph;
  std::unique_ptr<DominatorTree> dominators;
  LoopForest forest;
  std::unique_ptr<ValueEvaluator> values;
  std::unique_ptr<TripCountAnalysis> trips;
  std::optional<std::vector<bool>> control; ///< per instruction, on demand
};

/// Thrown to stop a trial expansion as soon as it outgrows the budget.
struct OverBudget {};

class Expander {
public:
  Expander(const Module &module, const LaunchAssumptions &assumptions,
           const ExpansionOptions &options)
      : module_(module), assumptions_(assumptions), options_(options) {}

  /// Expands with at most `cap` written iterations per loop entry; throws
  /// OverBudget past `limit` instructions.
  void run(const Function &kernel, std::uint64_t cap, std::size_t limit) {
    cap_ = cap;
    limit_ = limit;
    sampled_ = false;
    result_ = ExecutedKernel{};
    result_.kernel = &kernel;
    reportIds_.clear();
    rareReported_.clear();
    skipped_.clear();
    callStack_.clear();
    emitFunction(kernel, 1.0);
    for (auto &[function, facts] : facts_) {
      (void)function;
      for (const Diagnostic &warning : facts->graph.warnings)
        result_.warnings.push_back(warning);
      for (const Diagnostic &warning : facts->forest.warnings)
        result_.warnings.push_back(warning);
    }
    for (auto &[id, decided] : skipped_)
      describeSkipped(result_.loops[static_cast<std::size_t>(id)], decided);
    for (LoopReport &report : result_.loops) {
      if (report.entries > 0)
        report.meanTripCount /= report.entries;
      foldLaunchReasons(report.why);
    }
  }

  ExecutedKernel take() { return std::move(result_); }
  bool sampled() const { return sampled_; }

  LaunchSize launchSize(const Function &kernel) {
    const ValueEvaluator &values = *factsOf(kernel).values;
    LaunchSize size;
    for (auto [base, dims] : {std::pair{"%nctaid", &size.grid}, std::pair{"%ntid", &size.block}})
      for (auto [component, dim] : {std::pair{"x", &Dim3::x}, std::pair{"y", &Dim3::y}, std::pair{"z", &Dim3::z}}) {
        Value value = values.specialRegister(base, component);
        if (value.number && *value.number > 0 && *value.number <= UINT32_MAX)
          dims->*dim = static_cast<std::uint32_t>(*value.number);
        size.origin = std::max(size.origin, value.origin);
        size.why.insert(size.why.end(), value.why.begin(), value.why.end());
      }
    foldLaunchReasons(size.why);
    const SourceLaunch *launch = assumptions_.launch ? &*assumptions_.launch : nullptr;
    if (launch && (launch->launches != 1 || !launch->launchesWhy.empty())) {
      size.launches = launch->launches;
      size.launchesOrigin = launch->launchesOrigin;
      size.why.push_back(!launch->launchesWhy.empty()
                             ? launch->launchesWhy
                             : "launched " + std::to_string(launch->launches) + " times (the launch at " + launch->at +
                                   ")");
    }
    return size;
  }

private:
  FunctionFacts &factsOf(const Function &function) {
    auto &slot = facts_[&function];
    if (!slot) {
      slot = std::make_unique<FunctionFacts>();
      slot->graph = buildControlFlowGraph(function, module_.path);
      slot->dominators = std::make_unique<DominatorTree>(slot->graph);
      slot->forest = findLoops(slot->graph, *slot->dominators, module_.path);
      slot->values = std::make_unique<ValueEvaluator>(slot->graph, assumptions_, &module_);
      slot->trips = std::make_unique<TripCountAnalysis>(
          slot->graph, *slot->dominators, slot->forest, *slot->values,
          module_.source ? inlineAsmInstructions(slot->graph, *module_.source) : std::vector<bool>{});
    }
    return *slot;
  }

  /// `arguments`: the function's parameters as its call site sets them (argumentsOf).
  void emitFunction(const Function &function, double weight, const Bindings &arguments = {}) {
    if (std::find(callStack_.begin(), callStack_.end(), &function) != callStack_.end())
      return; // recursion: the call instruction stays, the body is not repeated
    callStack_.push_back(&function);
    FunctionFacts &facts = factsOf(function);
    std::vector<bool> skip(facts.graph.blocks.size(), false);
    emitRegion(facts, -1, arguments, weight, skip, -1, 0);
    callStack_.pop_back();
  }

  /// The successors a pass follows from `block`: the taken side alone when
  /// the branch condition is known for every thread under `bindings`, the
  /// ordinary side alone when the other is rare (RareBranches.h). What
  /// decided it goes into `decisions`.
  std::vector<std::uint32_t> followed(FunctionFacts &facts, std::uint32_t block, const Bindings &bindings,
                                      std::vector<Decision> &decisions) {
    const auto &successors = facts.graph.blocks[block].successors;
    const Instruction *branch = facts.graph.terminator(block);
    if (!branch || branch->opcode != "bra" || !branch->guard || successors.size() != 2)
      return successors;
    Value predicate = facts.values->registerAt(branch->guard->predicate,
                                               facts.graph.blocks[block].end - 1, bindings);
    if (predicate.known() && !predicate.perThread) {
      bool taken = (*predicate.number != 0) != branch->guard->negated;
      decisions.push_back({successors[taken ? 1 : 0], predicate.origin, predicate.why, false});
      return {successors[taken ? 0 : 1]};
    }
    if (auto ordinary = ordinarySideOf(facts.graph, *facts.values, block)) {
      if (rareReported_.insert({facts.graph.function, block}).second)
        result_.rareBranches.push_back(
            {facts.graph.function, branch->location, branch->debugLocation, ordinary->condition,
             ordinary->nonFinite});
      decisions.push_back({successors[ordinary->taken ? 1 : 0], ValueOrigin::Constant, {}, true});
      return {successors[ordinary->taken ? 0 : 1]};
    }
    return successors;
  }

  /// Blocks of a region (a loop's body, or the function) that one pass
  /// reaches from its entry, branches decided where `followed` can.
  std::vector<bool> liveBlocks(FunctionFacts &facts, int loop, const Bindings &bindings,
                               std::vector<Decision> &decisions) {
    const LoopForest &forest = facts.forest;
    std::vector<bool> live(facts.graph.blocks.size(), false);
    const Loop *region = loop < 0 ? nullptr : &forest.loops[static_cast<std::size_t>(loop)];
    auto inRegion = [&](std::uint32_t b) { return !region || (region->contains(b) && b != region->header); };
    std::vector<std::uint32_t> work{region ? region->header : 0};
    while (!work.empty()) {
      std::uint32_t block = work.back();
      work.pop_back();
      if (live[block])
        continue;
      live[block] = true;
      int child = forest.childHolding(loop, block);
      if (child >= 0) {
        // An inner loop counts as one node: it is live whole, and leaves by any of its exits.
        const Loop &inner = forest.loops[static_cast<std::size_t>(child)];
        for (std::uint32_t b : inner.blocks) {
          live[b] = true;
          for (std::uint32_t to : facts.graph.blocks[b].successors)
            if (!inner.contains(to) && inRegion(to))
              work.push_back(to);
        }
        continue;
      }
      for (std::uint32_t to : followed(facts, block, bindings, decisions))
        if (inRegion(to))
          work.push_back(to);
    }
    return live;
  }

  void emitRegion(FunctionFacts &facts, int loop, const Bindings &bindings, double weight,
                  const std::vector<bool> &skip, int report, std::uint64_t iteration) {
    const auto &blocks = loop < 0 ? allBlocks(facts) : facts.forest.loops[static_cast<std::size_t>(loop)].blocks;
    std::vector<Decision> decisions;
    std::vector<bool> live = liveBlocks(facts, loop, bindings, decisions);
    std::vector<bool> done(facts.forest.loops.size(), false);
    Bindings current = bindings; // and the counters of the loops written so far
    for (std::uint32_t block : blocks) {
      if (skip[block])
        continue;
      int child = facts.forest.childHolding(loop, block);
      if (child >= 0 && !done[static_cast<std::size_t>(child)]) {
        done[static_cast<std::size_t>(child)] = true;
        auto childLoop = static_cast<std::uint32_t>(child);
        if (live[block]) {
          emitLoop(facts, childLoop, current, weight, report);
        } else { // a guard skips it: its counters leave with the values they entered with
          noteSkipped(facts, childLoop, report,
                      leadingPast(facts.graph, facts.forest, loop, live, decisions, childLoop));
          bindExitValues(facts, childLoop, facts.trips->inductionVariables(childLoop, current), nullptr, 0, current);
        }
      }
      if (child >= 0 || !live[block])
        continue;
      emitBlock(facts, block, weight, report, iteration, current);
    }
  }

  /// Binds each counter of `loop` to its value after `runs` header runs
  /// (`count`: how they were found; null for a loop a guard skips), for the
  /// code after the loop: nvcc starts a count-down loop's unrolled part where
  /// its remainder loop left the counter.
  void bindExitValues(FunctionFacts &facts, std::uint32_t loop, const std::vector<InductionVariable> &variables,
                      const TripCount *count, std::uint64_t runs, Bindings &bindings) {
    if (count && !count->headerRuns)
      return; // a default count: what follows stays unknown rather than rest on a guess
    const Loop &theLoop = facts.forest.loops[loop];
    for (const InductionVariable &variable : variables) {
      // A copy opening the header still holds the last iteration's value.
      std::uint64_t updates = variable.copiedAtHeaderStart && runs > 0 ? runs - 1 : runs;
      std::uint32_t updateBlock = facts.graph.blockOf[variable.update];
      if (count && updateBlock != theLoop.header && updateBlock != count->exitingBlock) {
        // An update elsewhere may not run in every iteration, unless every
        // pass round the loop goes through it and the loop leaves by the
        // header's test, before it: then it ran once less than the header.
        if (!facts.trips->blockRunsEveryPass(loop, updateBlock) || count->exitingBlock != theLoop.header ||
            runs == 0)
          continue;
        updates = runs - 1;
      }
      Binding exit{Value{variable.atIteration(updates), variable.initial.origin, variable.initial.why,
                         variable.initial.perThread},
                   facts.values->reachingDefinitions(variable.reg, facts.graph.blocks[theLoop.header].first)};
      if (count) {
        exit.value.origin = std::max(exit.value.origin, count->origin);
        appendReasons(exit.value.why, count->why);
      }
      for (std::uint32_t def : facts.values->definitionsOf(variable.reg))
        if (theLoop.contains(facts.graph.blockOf[def]))
          exit.definitions.push_back(def);
      std::sort(exit.definitions.begin(), exit.definitions.end());
      exit.definitions.erase(std::unique(exit.definitions.begin(), exit.definitions.end()), exit.definitions.end());
      bindings[variable.reg] = std::move(exit);
    }
  }

  const std::vector<std::uint32_t> &allBlocks(FunctionFacts &facts) {
    auto &list = allBlocks_[&facts];
    if (list.size() != facts.graph.blocks.size()) {
      list.resize(facts.graph.blocks.size());
      for (std::uint32_t b = 0; b < list.size(); ++b)
        list[b] = b;
    }
    return list;
  }

  void emitBlock(FunctionFacts &facts, std::uint32_t block, double weight, int report,
                 std::uint64_t iteration, const Bindings &bindings) {
    const BasicBlock &b = facts.graph.blocks[block];
    const std::vector<bool> *control = options_.keepLoopControl ? nullptr : &controlOf(facts);
    for (std::uint32_t i = b.first; i < b.end; ++i) {
      if (control && (*control)[i])
        continue;
      if (result_.sequence.size() >= limit_)
        throw OverBudget{};
      const Instruction *instruction = facts.graph.instructions[i];
      result_.sequence.push_back({instruction, facts.graph.function, i, weight, report, iteration});
      result_.executedInstructions += weight;
      if (instruction->opcode == "call" && callStack_.size() <= options_.maxCallDepth)
        if (const Function *callee = calleeOf(module_, *instruction))
          emitFunction(*callee, weight, callArguments(facts.graph, *facts.values, i, *callee, bindings));
    }
  }

  /// Instructions that full unrolling would remove, over every loop of the function.
  const std::vector<bool> &controlOf(FunctionFacts &facts) {
    if (!facts.control) {
      facts.control.emplace(facts.graph.instructions.size(), false);
      for (std::uint32_t loop = 0; loop < facts.forest.loops.size(); ++loop)
        for (std::uint32_t i : facts.trips->loopControl(loop))
          (*facts.control)[i] = true;
    }
    return *facts.control;
  }

  int reportFor(FunctionFacts &facts, std::uint32_t loop, int parentReport) {
    auto key = std::make_pair(facts.graph.function, loop);
    if (auto it = reportIds_.find(key); it != reportIds_.end())
      return it->second;
    const Loop &theLoop = facts.forest.loops[loop];
    LoopReport report;
    report.function = facts.graph.function;
    const BasicBlock &header = facts.graph.blocks[theLoop.header];
    if (header.first < header.end) {
      const Instruction &first = *facts.graph.instructions[header.first];
      report.location = first.location;
      report.source = sourceLineOf(facts.graph, theLoop);
    }
    report.depth = parentReport >= 0 ? result_.loops[static_cast<std::size_t>(parentReport)].depth + 1 : 1;
    report.parent = parentReport;
    report.minTripCount = UINT64_MAX;
    result_.loops.push_back(std::move(report));
    int id = static_cast<int>(result_.loops.size() - 1);
    reportIds_.emplace(key, id);
    return id;
  }

  /// Keeps a report for `loop` and the loops inside it, which the branches
  /// in `decided` lead past: `loops` lists every loop, run or not.
  void noteSkipped(FunctionFacts &facts, std::uint32_t loop, int parentReport, const DecidedBranches &decided) {
    int id = reportFor(facts, loop, parentReport);
    skipped_[id].merge(decided);
    for (std::uint32_t child : facts.forest.loops[loop].children)
      noteSkipped(facts, child, id, decided);
  }

  /// Writes `loop` out; then binds its counters' values after it into `bindings`.
  void emitLoop(FunctionFacts &facts, std::uint32_t loop, Bindings &bindings, double weight,
                int parentReport) {
    int id = reportFor(facts, loop, parentReport);
    TripCount count = facts.trips->tripCount(loop, bindings);
    LoopReport &report = result_.loops[static_cast<std::size_t>(id)];
    if (auto given = options_.loopCounts.find({facts.graph.function, report.location.line, report.location.column});
        !count.headerRuns && given != options_.loopCounts.end()) {
      count.headerRuns = given->second.headerRuns;
      count.origin = ValueOrigin::Assumed;
      count.why = {given->second.why};
    }
    std::uint64_t runs = count.headerRuns.value_or(options_.defaultTripCount);
    report.entries += weight;
    report.meanTripCount += weight * static_cast<double>(runs);
    report.minTripCount = std::min(report.minTripCount, runs);
    report.maxTripCount = std::max(report.maxTripCount, runs);
    report.origin = std::max(report.origin, count.origin);
    report.usedDefault = report.usedDefault || !count.headerRuns;
    report.atMost = report.atMost || count.atMost;
    appendReasons(report.why, count.why);
    if (count.skippedByGuard)
      appendReasons(report.why, {"the counter never meets its bound for these values: a guard must skip the loop"});
    if (report.rule.empty())
      report.rule = count.rule;
    if (runs == 0) {
      bindExitValues(facts, loop, facts.trips->inductionVariables(loop, bindings), &count, 0, bindings);
      return;
    }

    // Every written iteration that writes an instruction counts against the
    // limit, so past `limit_` iterations a run writes only empty ones (a body
    // of loop control alone, a side rarely taken): sampling `limit_` of them
    // bounds the time, where writing all 2^40 empty passes never ended.
    std::uint64_t written = std::min({runs, cap_, static_cast<std::uint64_t>(limit_)});
    sampled_ = sampled_ || written < runs;
    std::vector<InductionVariable> variables = facts.trips->inductionVariables(loop, bindings);
    std::vector<bool> none(facts.graph.blocks.size(), false);
    std::vector<bool> afterExit = facts.trips->blocksAfterExit(loop, count.exitingBlock);
    double iterationWeight = weight * static_cast<double>(runs) / static_cast<double>(written);
    for (std::uint64_t j = 0; j < written; ++j) {
      // Sampled iterations are spread over the whole range, so that a
      // triangular inner loop is counted at small and large outer indices.
      std::uint64_t iteration = written == runs ? j
          : static_cast<std::uint64_t>(std::floor(static_cast<double>(j) * static_cast<double>(runs) /
                                                  static_cast<double>(written)));
      Bindings inner = bindings;
      for (const InductionVariable &variable : variables) {
        // Which iterations exist rests on the count, so its provenance travels too.
        ValueOrigin countOrigin = count.headerRuns ? count.origin : ValueOrigin::Defaulted;
        Value value{variable.atIteration(iteration), std::max(variable.initial.origin, countOrigin),
                    variable.initial.why, variable.initial.perThread};
        for (const std::string &reason : count.why)
          value.why.push_back(reason);
        inner[variable.reg] = Binding{std::move(value), {}};
      }
      bool last = iteration + 1 == runs;
      emitRegion(facts, static_cast<int>(loop), inner, iterationWeight, last ? afterExit : none, id,
                 iteration);
    }
    bindExitValues(facts, loop, variables, &count, runs, bindings);
  }

  const Module &module_;
  const LaunchAssumptions &assumptions_;
  const ExpansionOptions &options_;
  std::map<const Function *, std::unique_ptr<FunctionFacts>> facts_;
  std::map<const FunctionFacts *, std::vector<std::uint32_t>> allBlocks_;
  std::map<std::pair<const Function *, std::uint32_t>, int> reportIds_;
  std::set<std::pair<const Function *, std::uint32_t>> rareReported_; ///< branches in result_.rareBranches
  std::map<int, DecidedBranches> skipped_; ///< reports of loops some pass skipped, and why
  std::vector<const Function *> callStack_;
  ExecutedKernel result_;
  std::uint64_t cap_ = 1;
  std::size_t limit_ = 0;
  bool sampled_ = false;
};

} // namespace

std::string_view originName(const LoopReport &loop) {
  return loop.usedDefault ? "default" : toString(loop.origin);
}

double LaunchSize::threads() const {
  return double(grid.x) * grid.y * grid.z * block.x * block.y * block.z;
}

namespace {

/// The sequence within the budget: every iteration if that fits, else the
/// largest number of written iterations per loop entry that does.
ExecutedKernel expandWithinBudget(Expander &expander, const Module &module, const Function &kernel,
                                  const ExpansionOptions &options) {
  // Code without loops can exceed the budget; this bounds pathological
  // inlining instead, and keeps memory bounded whatever the counts say.
  const std::size_t hardLimit = std::max<std::size_t>(options.budget, 1) * 64 + (1u << 20);
  auto fits = [&](std::uint64_t cap, std::size_t limit) {
    try {
      expander.run(kernel, cap, limit);
      return true;
    } catch (const OverBudget &) {
      return false;
    }
  };
  // Every iteration written out if that fits; else the largest cap that does.
  constexpr std::uint64_t kAll = UINT64_MAX;
  if (fits(kAll, options.budget)) {
    const bool sampled = expander.sampled(); // only loops of mostly empty iterations, past the budget
    ExecutedKernel result = expander.take();
    if (sampled)
      result.iterationsPerLoop = std::max<std::size_t>(options.budget, 1);
    return result;
  }
  std::uint64_t low = 1, high = 2;
  if (!fits(1, options.budget)) {
    if (!fits(1, hardLimit)) {
      ExecutedKernel partial = expander.take();
      partial.warnings.push_back({module.path, kernel.location, Severity::Warning,
                                  "kernel '" + kernel.name + "' expands to more than " +
                                      std::to_string(hardLimit) +
                                      " instructions even with one iteration per loop; truncated"});
      return partial;
    }
    ExecutedKernel result = expander.take();
    result.iterationsPerLoop = 1;
    return result;
  }
  ExecutedKernel atLow = expander.take(); // kept, so that the cap found need not be expanded again
  while (fits(high, options.budget) && expander.sampled()) {
    low = high;
    atLow = expander.take();
    high *= 2;
  }
  while (high - low > 1) {
    std::uint64_t middle = low + (high - low) / 2;
    if (fits(middle, options.budget)) {
      low = middle;
      atLow = expander.take();
    } else {
      high = middle;
    }
  }
  atLow.iterationsPerLoop = low;
  return atLow;
}

} // namespace

ExecutedKernel expandKernel(const Module &module, const Function &kernel,
                            const LaunchAssumptions &assumptions, const ExpansionOptions &options) {
  // The kernel's block-size directives and launch hold in the functions it calls too.
  LaunchAssumptions forKernel = assumptions;
  if (!forKernel.requiredBlock)
    forKernel.requiredBlock = blockDirective(kernel, "reqntid");
  if (!forKernel.maximumBlock)
    forKernel.maximumBlock = blockDirective(kernel, "maxntid");
  if (auto found = forKernel.sourceLaunches.find(kernel.name); !forKernel.launch && found != forKernel.sourceLaunches.end())
    forKernel.launch = found->second;
  Expander expander(module, forKernel, options);
  ExecutedKernel result = expandWithinBudget(expander, module, kernel, options);
  if (forKernel.launch && forKernel.launch->bindings.size() > 1) {
    ExpansionOptions perLaunch = options;
    perLaunch.loopCounts = countsPerLaunch(module, kernel, forKernel, options, result);
    if (!perLaunch.loopCounts.empty()) {
      Expander counted(module, forKernel, perLaunch);
      result = expandWithinBudget(counted, module, kernel, perLaunch);
    }
  }
  result.launch = expander.launchSize(kernel);
  return result;
}

} // namespace ptxdvfs::ptx::analysis
