// CudaCommandLineReads.h - what the host code reads from the command line
// it is run with (--program-args): `argv` where it is main's, `argv[N]`
// and `optarg` as text, `optind`, and what a `getopt` loop's cases, a
// hand-written option loop's branches and `sscanf(argv[1], ...)` set.
// Private to the folder: its lookups ask it (ConstantFolder::Impl::commandLine()).
#pragma once

#include "CudaCommandLine.h"
#include "CudaConstantsImpl.h"
#include "CudaGetopt.h"
#include "CudaOptionLoops.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

class ConstantFolder::Impl::CommandLine {
  using Definition = constants::Definition;
  using Lookup = expression::Lookup;
  using Number = expression::Number;
  using OptionCase = constants::OptionCase;

public:
  explicit CommandLine(const Impl &folder) : folder_(folder) {}

  /// The text of `name[index]` where `name` is `argv` (isArgv()) and the
  /// program is read as run with arguments (`index()` folds to 1 or more,
  /// up to their number), after a `getopt` loop as it leaves `argv`
  /// (getoptBefore()); what `optarg` holds in a `getopt` case.
  std::optional<std::string> argument(std::size_t file, std::size_t offset, const std::string &name,
                                      const std::function<std::optional<Number>()> &index, int depth) const;
  /// The change of `name` at `at` where it reads the command line: the
  /// only one in the cases of `while ((opt = getopt(argc, argv, "n:")) !=
  /// -1) switch (opt) {...}` (optionAssignment()) or of a loop that reads
  /// options by hand (handReadOption()), or `&name` given to
  /// `sscanf(argv[1], "%d", &name)`, run once before `before`. Found (its
  /// value in `found`), Unknown, or Absent where it does not run; nullopt
  /// for any other change.
  std::optional<Lookup> change(std::size_t file, std::size_t at, const std::string &name, std::size_t before, int depth,
                               Definition &found) const;
  /// The `return` at `at`, in a branch of a loop that reads options by hand (`for (int i = 1; i < argc - 1; i++) if
  /// (!strcmp(argv[i], name)) return atoi(argv[i + 1]);`), where the body of a function other than `main` is left:
  /// nullopt where it is in no such loop or the loop's run does not fold; an empty value where no pass runs it;
  /// else what it returns, as written, read in the pass that runs it (`atoi(argv[(2) + 1])`), for a fold at `at`.
  std::optional<std::optional<std::string>> optionLoopReturn(std::size_t file, std::size_t at, int depth) const;
  /// The parameters, by index and name, of the function around `offset` of `file` (not `main`) that are C
  /// strings (`const char *name`) or `std::string`s the body does not change: those a call may pass a string
  /// literal for. Empty for any other function.
  std::vector<std::pair<std::size_t, std::string>> stringParameters(std::size_t file, std::size_t offset) const;
  /// The text of the string literal that every call of the function around `offset` of `file` passes as its
  /// parameter `index` (one of stringParameters()): `getIntArg(argc, argv, "-n", 4096)` gives "-n" for 2 (one
  /// call's alone in its CallScope). nullopt where a call passes anything else.
  std::optional<std::string> stringPassed(std::size_t file, std::size_t offset, std::size_t index) const;
  /// POSIX's `optind` read at `offset`, undeclared in the files: the first operand's index in `argv`, as the
  /// `getopt` loop before it leaves it (getoptBefore()); Absent where none is, Unknown where that is not read.
  Lookup optionIndex(std::size_t file, std::size_t offset, int depth, Definition &found) const;
  /// What an option loop's run, or a comparison of `argv[N]` with a string, folds with at `at` of `file`;
  /// it may outlive this reader (it holds the folder).
  OptionLoopFolds foldsAt(std::size_t file, std::size_t at, int depth) const;

private:
  /// Where the texts a name holds start in `main`'s `argv`, and where in `main` that `argv` is read: as it is
  /// there, after any `getopt` loop before it (getoptBefore()), so is it read.
  struct ArgvRead {
    std::int64_t shift = 0;
    std::size_t file = 0, offset = 0;
  };
  /// `name`, read at `offset` of `file`, as `main`'s `argv` or a part of it: `main`'s second parameter (shift
  /// 0), or a helper's parameter that every call passes `argv` or a part of it for, the same part in each
  /// (`run(argc, argv)` 0, `run(argc - 1, argv + 1)` 1, `run(argv + optind)` the first operand's index, read
  /// where the call is); changed nowhere (`++argv`, `&argv[1]`); nullopt for anything else.
  std::optional<ArgvRead> argvRead(std::size_t file, std::size_t offset, const std::string &name, int depth) const;
  /// Whether `name`, read at `offset` of `file`, is `main`'s `argv` whole (argvRead(), shift 0).
  bool isArgv(std::size_t file, std::size_t offset, const std::string &name, int depth) const;
  /// argvRead(), or for a `std::vector<std::string> name(argv + K, argv + argc)` declared in a block around
  /// it, that only reads follow (readsElementOnly(): `name[i]`, `name.size()`), shift K read where it is
  /// declared; nullopt for anything else.
  std::optional<ArgvRead> argvFrom(std::size_t file, std::size_t offset, const std::string &name, int depth) const;
  /// The change of `name` at `at`, the only one in the cases of a `getopt` loop's `switch`, where one case alone
  /// sets it with a plain assignment: whether its option is found, and what the last one's `optarg` gives it.
  /// nullopt where `at` is in no such loop.
  std::optional<OptionCase> optionAssignment(std::size_t file, std::size_t at, const std::string &name,
                                             int depth) const;
  /// A loop that reads options by hand (OptionLoopBody), read around a statement of its body.
  struct HandLoop {
    LoopHeader loop;
    OptionLoopHead head;
    OptionLoopBody body;
    OptionLoopFolds folds;
    std::size_t open = 0; ///< where its body starts
  };
  /// The loop that reads options by hand whose branch holds `at`, and the branch; nullopt where there is none,
  /// and run bare where the loop is entered only if its condition, which untaken() folds, holds.
  std::optional<std::pair<HandLoop, const OptionBranch *>> handLoopAround(std::size_t file, std::size_t at,
                                                                          int depth) const;
  /// The run of `loop` of `file` over the arguments, asked about the statement at `statement` in `branch`;
  /// remembered, as each pass folds every condition.
  const OptionLoopRun &handLoopRun(std::size_t file, const HandLoop &loop, const OptionBranch *branch,
                                   std::size_t statement) const;
  /// `written`, code of `loop`'s body, read where its run reached the statement asked about: the counter as it is
  /// there, the body's names as their pass gave them, `shifted` where it moved `argv` on. nullopt where that
  /// does not read.
  std::optional<std::string> readInPass(const HandLoop &loop, const OptionLoopRun &run,
                                        const std::string &written) const;
  /// The change of `name` at `at`, its only one in a loop that reads options by hand (OptionLoopBody: `for (int i
  /// = 1; i < argc; ++i) { if (!strcmp(argv[i], "-n")) n = atoi(argv[++i]); ... }`), read after the loop: the
  /// loop run over the arguments, each pass taking the branches whose conditions hold; its last run, if any,
  /// gives the value. {true, nullopt} where the run does not fold; nullopt where `at` is in no such loop.
  std::optional<OptionCase> handReadOption(std::size_t file, std::size_t at, const std::string &name,
                                           std::size_t before, int depth) const;
  /// The text of the argument `written` (code) names, `argv[N]` or a copy's element, read at `at`; nullopt where
  /// it names none or is not read (argument()).
  std::optional<std::string> argumentWritten(std::size_t file, std::size_t at, const std::string &written,
                                             int depth) const;
  /// What `sscanf(argv[N], "...", ..., &name, ...)` at `at` stores in `name`: nullopt where `at` is no such
  /// argument; an empty value where it is but the text or format is not read, or the scan stops before it.
  std::optional<std::optional<Number>> scannedArgument(std::size_t file, std::size_t at, const std::string &name,
                                                       int depth) const;
  /// What `S >> a >> name` at `at` stores in `name`, S a string stream of `argv[N]` (`std::istringstream
  /// S(argv[N]);`, declared in the function and read by no other statement, or a temporary
  /// `std::istringstream(argv[N])`): the whole number its word of the text, in order, is. nullopt where `at` is no
  /// such extraction; an empty value where it is but the text is not read or its word is not a whole number.
  std::optional<std::optional<Number>> streamedArgument(std::size_t file, std::size_t at, const std::string &name,
                                                        int depth) const;
  /// What the `getopt` loop that runs once before `offset`, in its function, leaves (getoptRun() of its option
  /// string): nullopt where no `getopt` is called there before it, an empty value where one is but not so read
  /// (`while ((opt = getopt(argc, argv, "n:")) != -1)` with a literal string, the only one, ending before it).
  std::optional<std::optional<GetoptEnd>> getoptBefore(std::size_t file, std::size_t offset, int depth) const;
  /// What the `getopt` loop `loop` of `file` meets for the arguments (getoptRun()), with the `struct option`
  /// table of a `getopt_long` read in the files it sees; nullopt where that table is not read and an argument may
  /// be a long option.
  std::optional<GetoptEnd> getoptEnd(std::size_t file, const GetoptLoop &loop) const;

  const Impl &folder_;
};

} // namespace ptxdvfs::tools
