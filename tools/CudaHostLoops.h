// CudaHostLoops.h - the host loops around a kernel's launch, and how many
// times they run: how many times the kernel is launched from there.
#pragma once

#include "CudaConstants.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::tools {

/// The iterations a host loop is read with where the source does not fix
/// its count (`while (!done)`, `for (t = 0; t < steps; ++t)` with `steps`
/// read at run time): the device loops' default trip count
/// (ExpansionOptions::defaultTripCount), so that a kernel launched in such
/// a loop weighs as its own unknown loops would.
inline constexpr std::uint64_t kDefaultHostLoopCount = 16;

/// A loop of host code around a launch.
struct HostLoop {
  std::size_t at = 0;                 ///< the offset of its `for`, `while` or `do`
  std::optional<std::uint64_t> count; ///< its iterations (0 where it runs none), where the source fixes them
  std::optional<CountedRange> range;  ///< the values of its counter, where `count` is known
  std::string header;                 ///< `for (int t = 0; t < STEPS; ++t)`, for reasons
  std::string how; ///< what `count` rests on beyond the loop's text (ConstantFolder::value's `how`)
};

/// The loops of file `file` whose body, braced or not, holds the statement
/// that starts at `statement`, innermost first. A `for` whose counter is
/// given a start, compared with `<`, `<=`, `>`, `>=` or `!=`, and stepped
/// by `++`, `--`, `+=` or `-=` (or `i = i + step`), with the start, the
/// bound and the step folded at the loop (ConstantFolder::value, whole
/// numbers), gets its count, and so does a `while` that counts as such a
/// `for` (countedWhile()), and a range `for` over what the source sizes
/// (ConstantFolder::elementsOf()); any other loop (`while`, `do`, a range
/// `for` over anything else, a bound read at run time, a step that never
/// reaches the bound) gets none. Loops around the calls of the function holding `statement` are
/// not among them (HostRunCounter reads those).
std::vector<HostLoop> hostLoopsAround(const ConstantFolder &folder, std::size_t file, std::size_t statement);

/// How many times a statement of host code runs, and why.
struct HostRuns {
  std::uint64_t times = 1;
  bool defaulted = false; ///< some loop's count is kDefaultHostLoopCount, not the source's
  /// The loops and calls that repeat it, each led by ", in ": ", in `for
  /// (int t = 0; t < 100; t++)` at main.cu:50 (100 times)"; empty when
  /// nothing does.
  std::string why;
};

/// A statement whose runs are counted: where it starts, and where a
/// reason names it (a launch's `<<<`, a call's name).
struct HostStatement {
  std::size_t file = 0, statement = 0, shownAt = 0;
  /// The calls of function templates it runs from, where it runs for one
  /// instance of them (ConstantFolder::InstanceScope); empty: every call.
  TemplateCalls instance;
  /// How many statements its runs are shared among: a launch through a
  /// pointer that several kernels are assigned to stands for each of them
  /// in an equal part of its runs (rounded up).
  std::uint64_t sharedBy = 1;
  /// How a launch reaches its kernel where the name written is not the
  /// kernel's ("through `timed`'s parameter `kernel`"), said after its count.
  std::string through;
};

/// Counts the runs of statements of one set of files: none under a branch
/// the program does not take (ConstantFolder::branchTaken: `if (block ==
/// 16)` with `block` 32, or the `else` of a condition that holds), else
/// the loops around a statement (hostLoopsAround), each for the iterations
/// whose branches around the statement are taken where they rest on its
/// counter (`if (t % 10 == 0)`, also in a function the loop calls with
/// its counter, `advance(t)` with `if (step % 10 == 0)` around the
/// launch: each value folded, CounterScope, up to
/// kMostIterationsRead and kMostNamesOneByOne; the `continue`s before
/// the statement and the `break`s of the loop read so too; a branch the
/// first iteration does not decide counts at every iteration), times, in a function
/// other than `main`, the runs of its calls (`step(x)` in main's loop,
/// ConstantFolder::callsOf), each call counted the
/// same way, at most kCallerDepth callers up and never round a cycle. A
/// function called nowhere in the files (a callback, a library's entry)
/// runs once. Calls are found by name (`name(`, and `obj.name(` where
/// `name` is a method), so the overloads of a name share their calls; not
/// another program's calls of its own function of that name. Callers'
/// runs are cached, while the folder reads the same calls.
class HostRunCounter {
public:
  static constexpr std::size_t kCallerDepth = 4;
  static constexpr std::uint64_t kMostIterationsRead = 1 << 14;
  /// The folder's names (ConstantFolder::namesExamined) that reading
  /// iterations, and calls, one by one may spend in all, a twentieth of
  /// them: a condition on the counter takes one or two names per
  /// iteration, one written hundreds of lines below its loop's head,
  /// hundreds. Past them, branches count at every iteration and call.
  static constexpr std::size_t kMostNamesOneByOne = 100'000;
  /// The most calls of a function read one at a time, each with what it
  /// passes, for the branches on its parameters (pending_).
  static constexpr std::size_t kMostCallsReadOneByOne = 256;

  explicit HostRunCounter(const ConstantFolder &folder) : folder_(folder) {}

  /// The runs of the statement that starts at `statement` of file `file`.
  HostRuns runsOf(std::size_t file, std::size_t statement);

  /// The runs of `statements` added up, each its part (`sharedBy`); `why`
  /// lists the first `named` of them ("100 at main.cu:36, in `for (...)` at
  /// main.cu:35 (100 times); 1 at main.cu:40"), then "; and N more " + `rest` for the others. Where
  /// `each` is given, it gets the runs of each statement, in order.
  HostRuns runsOfEach(const std::vector<HostStatement> &statements, std::size_t named, std::string_view rest,
                      std::vector<std::uint64_t> *each = nullptr);

private:
  /// The runs of the calls of `function`, defined in file `definedIn`.
  HostRuns callsOf(const std::string &function, std::size_t definedIn);
  /// A branch of host code: its file, and its header.
  using Branch = std::pair<std::size_t, LoopHeader>;
  /// How many iterations of `loop` run the statement at `statement` of
  /// file `file`, where branches between them (of `undecided`, those
  /// around the statement that the source does not decide alike for
  /// every run; `headers` all around it), or the pending ones, decide
  /// some iterations against it; `decider` gets the first branch that
  /// did. nullopt where none does, or the loop is not read value by value.
  std::optional<std::uint64_t> iterationsRunning(std::size_t file, std::size_t statement,
                                                 const std::vector<LoopHeader> &headers,
                                                 const std::vector<LoopHeader> &undecided, const HostLoop &loop,
                                                 Branch &decider);

  const ConstantFolder &folder_;
  std::map<std::pair<std::string, std::size_t>, HostRuns> calls_; ///< by function and the file defining it
  std::size_t callsChanged_ = 0; ///< the folder's callsChanged() that calls_ was counted at
  std::vector<std::string> callers_; ///< the functions whose calls are being counted, outermost first
  /// The names spent reading iterations and calls one by one, against kMostNamesOneByOne.
  std::size_t namesOneByOne_ = 0;
  /// Branches around the statements of the functions whose calls are being
  /// counted, that no loop of theirs holds and the program's run does not
  /// decide alike every time (`if (step % 10 == 0)` on a parameter): a
  /// caller's loop that passes its counter decides them (iterationsRunning()).
  std::vector<Branch> pending_;
};

} // namespace ptxdvfs::tools
