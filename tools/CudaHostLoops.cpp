// CudaHostLoops.cpp - how many times the loops around a statement of host
// code run, and how many times the calls of its function do.
#include "CudaHostLoops.h"

#include "CudaCode.h"
#include "CudaLoopHeaders.h"
#include "CudaSource.h"
#include "CudaStatements.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string_view>

namespace ptxdvfs::tools {

namespace {

HostLoop loopOf(const ConstantFolder &folder, std::size_t file, const std::string &code, const LoopHeader &header) {
  HostLoop loop;
  loop.at = header.at;
  loop.header = header.text(code);
  const std::optional<CountedFor> counted = header.keyword == "for" ? countedFor(header.inside(code))
                                                                    : countedWhile(folder.files()[file], header);
  if (const std::optional<RangeFor> ranged = counted || header.keyword != "for" ? std::nullopt
                                                                                : rangeFor(header.inside(code))) {
    loop.count = folder.elementsOf(file, header.open + 1 + ranged->rangeAt, ranged->range);
    if (loop.count)
      loop.how = quotedCode(ranged->range) + " holds " + std::to_string(*loop.count) + " elements";
    return loop;
  }
  if (!counted)
    return loop;
  auto whole = [&](const std::string &expression) -> std::optional<std::int64_t> {
    std::string how;
    std::optional<ptx::analysis::AssumedValue> value = folder.value(file, header.at, expression, &how);
    if (!how.empty() && loop.how.find(how) == std::string::npos)
      loop.how += (loop.how.empty() ? "" : "; ") + how;
    return value ? value->whole() : std::nullopt;
  };
  if ((loop.range = countedRange(*counted, whole)))
    loop.count = loop.range->count;
  else
    loop.how.clear();
  return loop;
}

std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

std::uint64_t saturatingSum(std::uint64_t a, std::uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

/// A `continue` or `break` of a loop in its body, under branches of that
/// body: an iteration goes no further where they are all taken.
struct LoopExit {
  std::vector<LoopHeader> branches; ///< around it, innermost first, inside the loop
  bool breaks = false;
  bool beforeStatement = true; ///< written before the statement counted, so that it skips it too
};

/// The exits of the loop `header` that may keep the statement at
/// `statement` of `code`, in its body, from running: each `continue`
/// before it, each `break` anywhere in the loop's body (one after it ends
/// the iterations after its own), under one branch or more. Not those of
/// a loop inside it, nor a `break` of a `switch`.
std::vector<LoopExit> exitsOf(const CudaCode &code, const LoopHeader &header, std::size_t statement) {
  std::vector<LoopExit> exits;
  const std::string &text = code.code();
  const std::size_t loop = header.at, bodyEnd = bodyEndAfter(code, header.headEnd);
  if (bodyEnd == std::string::npos)
    return exits;
  for (const std::string_view keyword : {std::string_view("continue"), std::string_view("break")})
    for (std::size_t at = text.find(keyword, header.headEnd);
         at < (keyword == "break" ? bodyEnd : statement); at = text.find(keyword, at + 1)) {
      if (!isWholeWord(text, at, keyword.size()))
        continue;
      const bool breaks = keyword == "break";
      std::optional<std::vector<LoopHeader>> branches = branchesLeaving(code, at, loop, breaks);
      if (branches && !branches->empty())
        exits.push_back({std::move(*branches), breaks, at < statement});
    }
  return exits;
}

} // namespace

HostRuns HostRunCounter::runsOf(std::size_t file, std::size_t statement) {
  HostRuns runs;
  const CudaCode &code = folder_.files()[file];
  const std::vector<LoopHeader> headers = headersAround(code, statement);
  std::vector<LoopHeader> undecided; // its own branches that the source does not decide alike for every run
  // A pending branch that this call decides against runs nothing either.
  for (std::size_t i = 0; i < pending_.size() + headers.size(); ++i) {
    const auto &[branchFile, header] = i < pending_.size() ? pending_[i] : Branch{file, headers[i - pending_.size()]};
    std::string how;
    const std::optional<bool> taken = folder_.branchTaken(branchFile, header, &how);
    if (taken == false) {
      runs.times = 0;
      runs.why = ", never: " + how;
      return runs;
    }
    if (!taken && i >= pending_.size() && isBranch(header))
      undecided.push_back(header);
  }
  const std::vector<HostLoop> loops = hostLoopsAround(folder_, file, statement);
  for (const HostLoop &loop : loops) {
    Branch decider;
    const std::optional<std::uint64_t> running = iterationsRunning(file, statement, headers, undecided, loop, decider);
    runs.times = saturatingProduct(runs.times, running.value_or(loop.count.value_or(kDefaultHostLoopCount)));
    runs.defaulted = runs.defaulted || !loop.count;
    runs.why += ", in " + quotedCode(loop.header) + " at " + code.where(loop.at) + " (" +
                (loop.count ? std::to_string(*loop.count) + " times" + (loop.how.empty() ? "" : ": " + loop.how)
                            : std::to_string(kDefaultHostLoopCount) +
                                  " times: a default, the source does not fix its count") +
                (running ? "; it runs in " + std::to_string(*running) + " of them, as " +
                               quotedCode(decider.second.text(folder_.files()[decider.first].text())) + " at " +
                               folder_.files()[decider.first].where(decider.second.at) + " decides"
                         : "") +
                ")";
  }
  // Branches outside this function's loops, on what its callers pass, may rest on their loops' counters.
  const std::size_t pendingBefore = pending_.size();
  for (const LoopHeader &header : undecided)
    if (loops.empty() || header.at < loops.back().at)
      pending_.emplace_back(file, header);
  const HostRuns calls = callsOf(code.functionNameAt(statement), file);
  pending_.resize(pendingBefore);
  runs.times = saturatingProduct(runs.times, calls.times);
  runs.defaulted = runs.defaulted || calls.defaulted;
  runs.why += calls.why;
  return runs;
}

std::optional<std::uint64_t> HostRunCounter::iterationsRunning(std::size_t file, std::size_t statement,
                                                               const std::vector<LoopHeader> &headers,
                                                               const std::vector<LoopHeader> &undecided,
                                                               const HostLoop &loop, Branch &decider) {
  const auto header =
      std::find_if(headers.begin(), headers.end(), [&](const LoopHeader &around) { return around.at == loop.at; });
  if (!loop.range || loop.range->count == 0 || loop.range->count > kMostIterationsRead || header == headers.end())
    return std::nullopt;
  std::vector<Branch> branches = pending_;
  for (const LoopHeader &branch : undecided)
    if (branch.at > loop.at)
      branches.emplace_back(file, branch); // inside the loop
  std::vector<LoopExit> exits; // `if (t % 2) continue;` before it, `if (t == 10) break;`
  for (LoopExit &exit : exitsOf(folder_.files()[file], *header, statement))
    if (!folder_.branchTaken(file, exit.branches.front()))
      exits.push_back(std::move(exit));
  std::uint64_t running = 0;
  bool decided = false;
  std::int64_t value = loop.range->start;
  const std::size_t namesBefore = folder_.namesExamined();
  for (std::uint64_t iteration = 0; (!branches.empty() || !exits.empty()) && iteration < loop.range->count;
       ++iteration) {
    if (namesOneByOne_ + (folder_.namesExamined() - namesBefore) > kMostNamesOneByOne) {
      namesOneByOne_ = kMostNamesOneByOne; // spent: the other folds keep the rest
      return std::nullopt;
    }
    if (iteration > 0)
      value = loop.range->next(value);
    const ConstantFolder::CounterScope scope(folder_, file, loop.at, value);
    bool runs = true, foldsHere = false;
    for (const Branch &branch : branches) {
      const std::optional<bool> taken = folder_.branchTaken(branch.first, branch.second);
      foldsHere = foldsHere || taken;
      if (taken == false) {
        if (!decided)
          decider = branch;
        decided = true;
        runs = false;
        break;
      }
    }
    bool leaves = false; // the loop, at a `break` taken
    for (auto exit = exits.begin(); exit != exits.end();) {
      bool taken = true, folds = true;
      for (auto branch = exit->branches.begin(); taken && branch != exit->branches.end(); ++branch) {
        const std::optional<bool> holds = folder_.branchTaken(file, *branch);
        folds = folds && holds;
        taken = holds == true;
      }
      if (iteration == 0 && !folds) {
        exit = exits.erase(exit); // it rests on more than the counter (`if (diff < tolerance) break;`)
        continue;
      }
      foldsHere = true;
      if (taken) {
        if (!decided)
          decider = {file, exit->branches.front()};
        decided = true;
        runs = runs && !exit->beforeStatement;
        leaves = leaves || exit->breaks;
      }
      ++exit;
    }
    if (iteration == 0 && !foldsHere)
      break; // branches that do not fold at the first value rest on more than the counter
    running += runs;
    if (leaves)
      break;
  }
  namesOneByOne_ += folder_.namesExamined() - namesBefore;
  return decided ? std::optional<std::uint64_t>(running) : std::nullopt;
}

HostRuns HostRunCounter::runsOfEach(const std::vector<HostStatement> &statements, std::size_t named,
                                    std::string_view rest, std::vector<std::uint64_t> *each) {
  HostRuns all;
  all.times = 0;
  for (std::size_t i = 0; i < statements.size(); ++i) {
    const HostStatement &at = statements[i];
    const ConstantFolder::InstanceScope scope(folder_, at.instance);
    const HostRuns runs = runsOf(at.file, at.statement);
    const std::uint64_t sharedBy = std::max<std::uint64_t>(at.sharedBy, 1);
    const std::uint64_t times = runs.times / sharedBy + (runs.times % sharedBy != 0);
    if (each)
      each->push_back(times);
    all.times = saturatingSum(all.times, times);
    all.defaulted = all.defaulted || runs.defaulted;
    if (i < named)
      all.why += (i ? "; " : "") + std::to_string(times) + " at " + folder_.files()[at.file].where(at.shownAt) +
                 (sharedBy == 1 ? ""
                                : " (1/" + std::to_string(sharedBy) + " of its " + std::to_string(runs.times) +
                                      " runs, through a pointer to " + std::to_string(sharedBy) + " kernels)") +
                 (at.through.empty() ? "" : " (" + at.through + ")") + runs.why;
  }
  if (statements.size() > named)
    all.why += "; and " + std::to_string(statements.size() - named) + " more " + std::string(rest);
  return all;
}

HostRuns HostRunCounter::callsOf(const std::string &function, std::size_t definedIn) {
  if (function.empty() || function == "main" || callers_.size() >= kCallerDepth ||
      std::find(callers_.begin(), callers_.end(), function) != callers_.end())
    return {};
  if (callsChanged_ != folder_.callsChanged()) { // another instance's calls
    calls_.clear();
    callsChanged_ = folder_.callsChanged();
  }
  const std::vector<std::pair<std::size_t, std::size_t>> found = folder_.callsOf(function, definedIn);
  // With branches pending, each call's runs rest on what it passes: read one call at a time, and not cached;
  // past kMostCallsReadOneByOne calls, the pending branches are left undecided for them, as before.
  const bool perCall = !pending_.empty() && found.size() <= kMostCallsReadOneByOne &&
                       namesOneByOne_ < kMostNamesOneByOne;
  const std::size_t namesBefore = folder_.namesExamined();
  std::vector<Branch> undecided;
  if (!perCall)
    std::swap(undecided, pending_);
  HostRuns runs;
  if (auto cached = calls_.find({function, definedIn}); !perCall && cached != calls_.end()) {
    runs = cached->second;
  } else {
    std::vector<HostStatement> calls;
    for (const auto &[file, at] : found) { // not another program's own `function`
      const CudaCode &code = folder_.files()[file];
      TemplateCalls instance;
      if (perCall)
        instance[function] = {{file, at}};
      if (code.functionNameAt(at) != function) // a recursive call runs as its function does
        calls.push_back({file, statementStartAround(code.code(), at), at, std::move(instance), 1, {}});
    }
    if (!calls.empty()) {
      constexpr std::size_t kCallsNamed = 2;
      callers_.push_back(function);
      runs = runsOfEach(calls, kCallsNamed, "calls");
      callers_.pop_back();
      runs.why = runs.times == 1 ? "" : ", in `" + function + "`, called " + std::to_string(runs.times) +
                                            " times (" + runs.why + ")";
    }
    if (!perCall)
      calls_.emplace(std::pair{function, definedIn}, runs);
  }
  if (!perCall)
    std::swap(undecided, pending_);
  else
    namesOneByOne_ += folder_.namesExamined() - namesBefore;
  return runs;
}

std::vector<HostLoop> hostLoopsAround(const ConstantFolder &folder, std::size_t file, std::size_t statement) {
  std::vector<HostLoop> loops;
  const CudaCode &code = folder.files()[file];
  for (const LoopHeader &header : loopsAround(code, statement))
    loops.push_back(loopOf(folder, file, code.code(), header));
  return loops;
}

} // namespace ptxdvfs::tools
