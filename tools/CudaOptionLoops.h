// CudaOptionLoops.h - loops that read a program's options by hand, as
// written:
//
//   for (int i = 1; i < argc; ++i) {
//     const std::string arg = argv[i];
//     if (arg == "-n" && i + 1 < argc) n = atoi(argv[++i]);
//     else if (!strcmp(argv[i], "--verify")) verify = true;
//   }
//
// Their parts (the branches, the names given an argument, how each
// branch moves the counter) and the comparisons that pick a branch. Which
// branch each argument takes is the folder's to fold
// (CudaCommandLineReads.cpp), the program run with --program-args.
#pragma once

#include "CudaCode.h"
#include "CudaLoopHeaders.h"
#include "CudaStringComparisons.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

/// One branch of an `if` chain: its condition as written, literals kept
/// (empty for the chain's final `else`, and for a statement of the body
/// that runs in every pass, a chain of its own: a step of the counter or
/// a `switch`), and where its body is.
struct OptionBranch {
  std::string condition;
  std::size_t start = 0; ///< its `{`, or the first character of its one statement
  std::size_t end = 0;   ///< just past its `}` or its statement's `;`
};

/// The braced body of a loop that reads options by hand: the names it
/// declares from an argument (`arg` of `const std::string arg = argv[i];`,
/// with what it is initialized with: `argv[i]`) before anything that
/// changes the loop's counter, and `if` chains, one after the other, each an `if` with
/// any number of `else if`s and at most one `else`, and statements that
/// step one name (`i++;`) or `switch`es with a braced body, each a chain
/// of one branch without a condition.
struct OptionLoopBody {
  std::vector<std::pair<std::string, std::string>> aliases;
  std::vector<std::vector<OptionBranch>> chains;
  std::size_t end = 0; ///< just past its `}`, or past its one statement without braces
};

/// The name a statement's code (no `;`) steps and nothing else: `i++`,
/// `++i`, `i--`, `i += 2`, `i -= 1`; nullopt for anything else.
std::optional<std::string> steppedName(std::string_view statement);

/// The body of a loop in `code` (codeOf() of `text`, offsets shared) that
/// starts at `open`, a block or one `if` chain or `switch` without braces
/// (an OptionLoopBody of that one chain), read as an OptionLoopBody of the loop whose counter is
/// `counter`; nullopt where it holds anything else (another statement, a
/// declaration after a change of the counter, a branch whose body is an
/// unbraced loop or branch), or does not close.
std::optional<OptionLoopBody> optionLoopBody(const std::string &code, const std::string &text, std::size_t open,
                                             const std::string &counter);

/// Where an option loop is in its run: its counter's value, and how many
/// elements on it has moved the array of arguments it shifts (`argv++`),
/// 0 where it shifts none.
struct LoopPlace {
  std::int64_t counter = 0;
  std::int64_t shift = 0;
};

/// `code` (no literals) with each read of the name `counter` replaced by
/// its value, in parentheses: `value` at first, stepped by a `++` or `--`
/// written before it (before the read) or after it (after), as C steps it
/// in order of writing: `argv[++i]` with `i` 3 reads `argv[(4)]`. `value`
/// becomes the value after them. nullopt where the name is changed any
/// other way (`i += 2`, `i = 0`, `&i`).
std::optional<std::string> withCounterRead(const std::string &code, const std::string &counter, std::int64_t &value);

/// `code` (no literals) with each read of the array `array`, which a loop
/// moves on (`argv++`), read as the element of the array as it was before
/// the loop, `shift` elements on: `argv[1]` as `argv[(2) + 1]`, `*argv`
/// as `argv[(2)]`, `*++argv` as `argv[(3)]`, stepping `shift` by each `++`
/// and `--` as withCounterRead() steps a counter. nullopt where it is read
/// any other way (`argv + 1`, `f(argv)`) or changed otherwise.
std::optional<std::string> withShiftedRead(const std::string &code, const std::string &array, std::int64_t &shift);

/// `code` with each read of a name of `body` (its aliases) replaced by
/// what it is given, the counter `counter` (and the array `shifted` moves
/// on, where not empty) read there as `pass`, where the pass began (`const
/// char *a = argv[i];` ... `atoi(a + 4)` reads `atoi(argv[(2)] + 4)` in the
/// pass over `argv[2]`).
std::string withAliasesRead(const std::string &code, const OptionLoopBody &body, const std::string &counter,
                            const std::string &shifted, LoopPlace pass);

/// Where [`from`, `to`) of `code` changes the name `counter`, in order,
/// and what each change adds: `++i` and `i++` 1, `i--` -1, `i += 2` 2,
/// `i -= 1` -1 (the added amount a whole number as written). nullopt where
/// it changes it any other way (`i = j`, `i *= 2`, `&i`, `f(i)` taking it
/// by reference is not seen).
std::optional<std::vector<std::pair<std::size_t, std::int64_t>>>
counterSteps(const std::string &code, const std::string &counter, std::size_t from, std::size_t to);

/// What a pass through a branch of an option loop does, the branch taken.
struct BranchPass {
  LoopPlace after;                     ///< where the loop is at the branch's end
  std::optional<LoopPlace> reached;    ///< where it is as the statement asked about starts, where it runs
  bool leaves = false;                 ///< it ends with a `break` that runs
  bool continues = false;              ///< it ends with a `continue` that runs
  /// Where the `return` it ends with is, where that runs: the function is left; npos where none runs.
  std::size_t returns = std::string::npos;
};

/// Whether a condition as written holds with the loop at a place; nullopt where it does not fold.
using ConditionHolds = std::function<std::optional<bool>(std::string_view condition, LoopPlace place)>;

/// How an option loop's passes go: its counter counted as a `for`
/// (`counted`: stepped by a number, not scaled; a step of 0 for a `while`
/// whose branches alone step it), or, where `condition` is not empty, a
/// `while` or `for` whose condition, tested before each pass, steps it
/// (`--argc > 0 && (*++argv)[0] == '-'`, `counted` giving the counter, its
/// start and a `for`'s step);
/// and the array of arguments the loop moves on (`argv` of `argv++`),
/// where it moves one, read where it has been moved to (withShiftedRead()).
struct OptionLoopHead {
  CountedFor counted;
  std::string condition; ///< as written, literals kept
  std::string shifted;
  std::int64_t shiftedFrom = 0; ///< how far statements before the loop have moved `shifted` on (`argv++;`)
  std::int64_t shiftStep = 0;   ///< how far a `for`'s last part moves `shifted` on after each pass
};

/// The head of the loop `loop` of `source` read as an option loop's: a
/// counted `for` (countedFor()), a range `for` over a name (its positions,
/// `range_position`, counted), a `while` whose branches alone step its
/// counter (`while (i < argc)`), or whose condition steps it or reads what
/// its body steps (`--argc > 0 && ...`, `argc > 1 && argv[1][0] == '-'`),
/// and, where `outermost` (no loop holds it), the `argv` of `main` it moves
/// on (`argv++`), which elsewhere in `main` only statements of their own
/// before it step, and a `for` whose head steps it. nullopt for any other
/// loop (CudaOptionLoopHeads.cpp).
std::optional<OptionLoopHead> optionLoopHead(const CudaCode &source, const LoopHeader &loop, bool outermost);

/// The pass through `branch` of an option loop in `source`, headed by
/// `head`, at `place` as it starts: the steps of its counter and of the
/// array it shifts (counterSteps()) that run, and whether the statement
/// that starts at `statement` (npos: none) runs, the `if`s inside the
/// branch folded by `holds` with the loop where it is there. nullopt where that does not fold, where a
/// loop or `switch` inside the branch holds a step or the statement, and
/// where an `exit`, `abort`, `throw` or `goto` runs, or a `return`,
/// `break` or `continue` that is not its last statement.
std::optional<BranchPass> branchPass(const CudaCode &source, const OptionBranch &branch, const OptionLoopHead &head,
                                     LoopPlace place, std::size_t statement, const ConditionHolds &holds);

/// The branch of `body`'s chains whose body holds `at`; null where none does.
const OptionBranch *branchHolding(const OptionLoopBody &body, std::size_t at);

/// What an option loop's run needs the program's folder for.
struct OptionLoopFolds {
  /// The whole number `code` folds to, where the loop is (`(3) + 1 < argc`); nullopt where it does not fold.
  std::function<std::optional<std::int64_t>(const std::string &code)> whole;
  /// Where the texts the name holds start in `main`'s `argv`: 0 for `argv`, 1 for a copy of `argv + 1` on;
  /// nullopt for a name that holds no command-line arguments.
  std::function<std::optional<std::int64_t>(const std::string &name)> argvFrom;
  /// The text of the plain string literal the name stands for (CommandLine::stringPassed()); nullopt for any
  /// other name. Unset where no name may stand for one (the loops of `main`).
  std::function<std::optional<std::string>(const std::string &name)> literal;
};

/// The text of the string `written` where it is a command-line argument:
/// `argv[N]` (or a copy's, `folds.argvFrom`), also as `std::string(argv[N])`
/// or `argv[N].c_str()`, N folded by `folds.whole` once `index` has
/// rewritten it (nullopt there: not read); `arguments[N - 1]`, or nullopt
/// where N is not 1 to their number.
std::optional<std::string>
argumentText(std::string_view written, const std::vector<std::string> &arguments, const OptionLoopFolds &folds,
             const std::function<std::optional<std::string>(const std::string &index)> &index = nullptr);

/// An option loop run over the program's arguments.
struct OptionLoopRun {
  /// Where the loop is as the statement asked about starts, in the last pass that runs it; nullopt where none does.
  std::optional<LoopPlace> reached;
  LoopPlace pass; ///< where that pass began (past the condition that steps): its counter, the argument's position
  std::size_t ordinal = 0; ///< that pass's count from the first, 1 on
  std::size_t passes = 0;  ///< how many passes the loop runs, as far as it is read
  /// That pass's argument as reasons show it, with its text where it has one: `argv[3]` = -n, or `args[1]` = -n
  /// in a loop over a copy of the arguments.
  std::string over;
  std::string stuck; ///< why the run does not fold (`the branch at t.cu:9 may end ...`); empty where it does
  /// Whether a `return` ends the run, leaving the function: the statement asked about (`reached` says where
  /// the loop is there), or, where that is a `return` too, another one (`reached` empty). A `return` that runs
  /// where the statement asked about is another leaves the run stuck.
  bool returned = false;
};

/// The run of the loop headed by `head`, its braced body `body`, over
/// `arguments` (`argv[1]` on): pass after pass, in each chain the first
/// branch whose condition holds (withShiftedRead(), then
/// withStringComparisons() of what `argv[...]` and the body's names hold
/// with the loop where it is, then withCounterRead(); the parts of a
/// condition joined by `&&` in turn, up to the first that fails), gone
/// through as branchPass() says, until the loop's condition fails or a
/// `break` runs. `statement`, in the branch `holder`, is the statement
/// asked about.
OptionLoopRun runOptionLoop(const CudaCode &source, const OptionLoopHead &head, const OptionLoopBody &body,
                            const OptionBranch *holder, std::size_t statement,
                            const std::vector<std::string> &arguments, const OptionLoopFolds &folds);

} // namespace ptxdvfs::tools
