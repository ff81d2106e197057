// CudaOptionLoopRuns.cpp - an option loop run over the program's
// arguments, pass by pass; see CudaOptionLoops.h.
#include "CudaOptionLoops.h"

#include "CudaCommandLine.h"
#include "CudaExpression.h"
#include "CudaSource.h"
#include "CudaStatements.h"

namespace ptxdvfs::tools {

namespace {

/// `written` without what does not change a string's text: `std::string(...)` around it, `.c_str()` after it.
std::string unwrapped(std::string_view written) {
  std::string read = trimmed(written);
  for (std::string_view wrapper : {"std::string(", "string(", "std::string_view("})
    if (read.size() > wrapper.size() && read.compare(0, wrapper.size(), wrapper) == 0 && read.back() == ')')
      read = trimmed(std::string_view(read).substr(wrapper.size(), read.size() - wrapper.size() - 1));
  if (read.size() > 8 && read.compare(read.size() - 8, 8, ".c_str()") == 0)
    read.resize(read.size() - 8);
  return read;
}

/// The pass-by-pass reading of one option loop.
class LoopRun {
public:
  LoopRun(const OptionLoopBody &body, const std::string &counter, const std::vector<std::string> &arguments,
          const OptionLoopFolds &folds)
      : body_(body), counter_(counter), arguments_(arguments), folds_(folds) {}

  /// Whether `condition` holds with the counter `value`, the pass having begun at `entry`.
  std::optional<bool> holds(std::string_view condition, std::int64_t value, std::int64_t entry) const {
    const std::optional<std::string> compared =
        withStringComparisons(condition, [&](std::string_view written) { return text(written, value, entry, true); });
    std::int64_t after = value;
    const std::optional<std::string> read = compared ? withCounterRead(*compared, counter_, after) : std::nullopt;
    const std::optional<std::int64_t> result = read && after == value ? folds_.whole(*read) : std::nullopt;
    return result ? std::optional<bool>(*result != 0) : std::nullopt;
  }

private:
  /// The text of a string a condition compares, with the counter `value`: `argv[i + 1]`, or one of the body's
  /// names (`aliases`), given `argv[i]` as the pass began (`entry`).
  std::optional<std::string> text(std::string_view written, std::int64_t value, std::int64_t entry,
                                  bool aliases) const {
    const std::string read = unwrapped(written);
    for (const auto &[alias, initializer] : body_.aliases)
      if (aliases && alias == read)
        return text(initializer, entry, entry, false);
    return argumentText(read, arguments_, folds_, [&](const std::string &index) -> std::optional<std::string> {
      std::int64_t after = value;
      const std::optional<std::string> counted = withCounterRead(index, counter_, after);
      return counted && after == value ? counted : std::nullopt;
    });
  }

  const OptionLoopBody &body_;
  const std::string &counter_;
  const std::vector<std::string> &arguments_;
  const OptionLoopFolds &folds_;
};

} // namespace

std::optional<std::string>
argumentText(std::string_view written, const std::vector<std::string> &arguments, const OptionLoopFolds &folds,
             const std::function<std::optional<std::string>(const std::string &index)> &index) {
  const std::string read = unwrapped(written);
  const auto array = subscripted(expression::tokensOf(read));
  const std::optional<std::int64_t> from = array ? folds.argvFrom(array->first) : std::nullopt;
  if (!from)
    return std::nullopt;
  const std::size_t open = read.find('['), close = read.rfind(']');
  const std::string inside = read.substr(open + 1, close - open - 1);
  const std::optional<std::string> rewritten = index ? index(inside) : std::optional<std::string>(inside);
  const std::optional<std::int64_t> folded = rewritten ? folds.whole(*rewritten) : std::nullopt;
  const std::int64_t position = folded && *folded >= 0 ? *folded + *from : 0;
  return position >= 1 && static_cast<std::size_t>(position) <= arguments.size()
             ? std::optional<std::string>(arguments[static_cast<std::size_t>(position) - 1])
             : std::nullopt;
}

std::string shownArgument(std::int64_t position, const std::vector<std::string> &arguments) {
  return "`argv[" + std::to_string(position) + "]`" +
         (position >= 1 && static_cast<std::size_t>(position) <= arguments.size()
              ? " = " + shownArguments({arguments[static_cast<std::size_t>(position) - 1]})
              : "");
}

const OptionBranch *branchHolding(const OptionLoopBody &body, std::size_t at) {
  for (const std::vector<OptionBranch> &chain : body.chains)
    for (const OptionBranch &branch : chain)
      if (branch.start <= at && at < branch.end)
        return &branch;
  return nullptr;
}

std::optional<BranchPass> branchPass(const CudaCode &source, const OptionBranch &branch, const std::string &counter,
                                     std::int64_t value, std::size_t statement, const ConditionHolds &holds) {
  const std::string &code = source.code(), &text = source.text();
  const auto steps = counterSteps(code, counter, branch.start, branch.end);
  if (!steps)
    return std::nullopt;
  // Whether the code at `at` runs, and the counter there: each asks the other only of what comes before.
  std::function<std::optional<bool>(std::size_t)> runs;
  const auto valueAt = [&](std::size_t at) -> std::optional<std::int64_t> {
    std::int64_t there = value;
    for (const auto &[stepAt, added] : *steps) {
      const std::optional<bool> stepRuns = stepAt < at ? runs(stepAt) : std::optional<bool>(false);
      if (!stepRuns)
        return std::nullopt;
      there += *stepRuns ? added : 0;
    }
    return there;
  };
  runs = [&](std::size_t at) -> std::optional<bool> {
    for (const LoopHeader &header : headersAround(source, statementStartAround(code, at))) {
      if (header.at < branch.start)
        return true; // the chain's own branches, and the loop
      if (header.keyword != "if" && header.keyword != "else")
        return std::nullopt;
      const std::optional<std::int64_t> there = valueAt(header.open);
      const std::optional<bool> holding =
          there ? holds(std::string_view(text).substr(header.open + 1, header.close - header.open - 1), *there)
                : std::nullopt;
      if (!holding)
        return std::nullopt;
      if (*holding != (header.keyword == "if"))
        return false;
    }
    return true;
  };
  BranchPass pass;
  for (std::string_view keyword :
       {"return", "exit", "_exit", "quick_exit", "abort", "throw", "goto", "break", "continue"})
    for (std::size_t at = code.find(keyword, branch.start); at < branch.end; at = code.find(keyword, at + 1)) {
      if (!isWholeWord(code, at, keyword.size()))
        continue;
      const std::optional<bool> running = runs(at);
      if (!running)
        return std::nullopt;
      const bool last = code.find_first_not_of(" \t\r\n;}", at + keyword.size()) >= branch.end;
      if (*running && (!last || (keyword != "break" && keyword != "continue")))
        return std::nullopt; // the program ends, or the pass leaves midway
      if (*running)
        (keyword == "break" ? pass.leaves : pass.continues) = true;
    }
  if (statement != std::string::npos) {
    const std::optional<bool> running = runs(statement);
    const std::optional<std::int64_t> there = running && *running ? valueAt(statement) : std::nullopt;
    if (!running || (*running && !there))
      return std::nullopt;
    pass.reached = *running ? there : std::nullopt;
  }
  const std::optional<std::int64_t> after = valueAt(branch.end);
  if (!after)
    return std::nullopt;
  pass.after = *after;
  return pass;
}

OptionLoopRun runOptionLoop(const CudaCode &source, const CountedFor &counted, const OptionLoopBody &body,
                            const OptionBranch *holder, std::size_t statement,
                            const std::vector<std::string> &arguments, const OptionLoopFolds &folds) {
  const LoopRun loop(body, counted.counter, arguments, folds);
  OptionLoopRun run;
  const std::optional<std::int64_t> start = folds.whole(counted.start), bound = folds.whole(counted.bound),
                                    step = folds.whole(counted.step);
  if (!start || !bound || !step) { // a step of 0: a `while` whose branches step it (a pass that does not, below)
    run.stuck = "its counter's range does not fold";
    return run;
  }
  std::size_t passes = 0;
  for (std::int64_t value = *start; comparisonHolds(value, counted.comparison, *bound); value += *step) {
    if (++passes > arguments.size() + 1) {
      run.stuck = "a pass does not move on";
      return run;
    }
    const std::int64_t entry = value;
    const ConditionHolds holds = [&](std::string_view condition, std::int64_t there) {
      return loop.holds(condition, there, entry);
    };
    for (const std::vector<OptionBranch> &chain : body.chains) {
      if (chain.size() == 1 && chain[0].condition.empty() &&
          steppedName(std::string_view(source.code()).substr(chain[0].start, chain[0].end - 1 - chain[0].start)) !=
              counted.counter) {
        run.stuck = "a statement at " + source.where(chain[0].start) + " steps another name than its counter";
        return run;
      }
      const OptionBranch *taken = nullptr;
      for (auto branch = chain.begin(); branch != chain.end() && !taken; ++branch) {
        const std::optional<bool> holding =
            branch->condition.empty() ? std::optional<bool>(true) : holds(branch->condition, value);
        if (!holding) {
          run.stuck =
              "`" + trimmed(branch->condition) + "` does not fold in its pass over " + shownArgument(entry, arguments);
          return run;
        }
        taken = *holding ? &*branch : nullptr;
      }
      if (!taken)
        continue;
      const std::optional<BranchPass> pass =
          branchPass(source, *taken, counted.counter, value, taken == holder ? statement : std::string::npos, holds);
      if (!pass) {
        run.stuck = "the branch at " + source.where(taken->start) +
                    " may end the program or leave the loop midway in its pass over " + shownArgument(entry, arguments);
        return run;
      }
      if (pass->reached) {
        run.reached = pass->reached;
        run.pass = entry;
      }
      value = pass->after;
      if (pass->leaves)
        return run;
      if (pass->continues)
        break;
    }
  }
  return run;
}

} // namespace ptxdvfs::tools
