// CudaConstants.h - what a size written in host code folds to, where the
// source leaves no doubt: `dim3 threads(TILE, TILE)`, `(N + 255) / 256`.
#pragma once

#include "CudaCode.h"
#include "CudaDevice.h"
#include "CudaLoopHeaders.h"
#include "CudaSource.h"

#include "ptxdvfs/ptx/analysis/Values.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

/// `dims` as reasons write a size: `256`, `16,16`, `8,4,2`.
inline std::string shownDims(const ptx::analysis::Dim3 &dims) {
  std::string text = std::to_string(dims.x);
  if (dims.y != 1 || dims.z != 1)
    text += "," + std::to_string(dims.y) + (dims.z != 1 ? "," + std::to_string(dims.z) : "");
  return text;
}

/// Calls of function templates, by the template's name: the file and the
/// offset of each call's name.
using TemplateCalls = std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>, std::less<>>;

/// Folds the sizes written in a set of CUDA files, each read once.
class ConstantFolder {
public:
  class InstanceScope;
  class CounterScope;

  /// `device`, where given, is the GPU the program runs on: what its
  /// device queries (`cudaGetDeviceProperties`, `cudaDeviceGetAttribute`)
  /// give; without one they are values open at run time. `arguments` are
  /// the command-line arguments the program is read as run with, after its
  /// name: `argc` is one more than their number, and `atoi(argv[1])` and
  /// the like convert them (CudaCommandLine.h); without any, calls passed
  /// `argv` in a condition find no option.
  explicit ConstantFolder(const std::vector<CudaSourceFile> &files, const TargetDevice *device = nullptr,
                          std::vector<std::string> arguments = {});
  ~ConstantFolder();
  ConstantFolder(const ConstantFolder &) = delete;
  ConstantFolder &operator=(const ConstantFolder &) = delete;

  const std::vector<CudaCode> &files() const;
  /// The command-line arguments the program is read as run with (the constructor's).
  const std::vector<std::string> &arguments() const;
  /// The SHOC options whose reads (`op.getOptionInt("size")`) are left open because no `addOption` in the
  /// files declares them, and the arguments do not give them, each with its first read: `\`size\` (scale.cu:14)`.
  std::vector<std::string> undeclaredOptionReads() const;
  /// Whether the code of `file` sees `other`'s macros and constants: one
  /// program holds both (filesSeenTogether()).
  bool sees(std::size_t file, std::size_t other) const;

  /// `expression`, written at `offset` of file `file`, as a grid or block
  /// size: `dim3(a, b, c)`, a `dim3` variable, or an integer. Names are
  /// looked up as seen from there: a `#define` (defined once, or the same
  /// way each time; a function-like one, `DIV_UP(n, 256)`, expanded as
  /// the preprocessor does, without `#` and `##`), a `const`/`constexpr`
  /// variable, a local variable or
  /// `dim3` given a value once and not changed before `offset` (`=`,
  /// `+=`, `++`, `&t`, `cin >> t` are changes), or set by a device query
  /// (the device's value, where the folder has one). Arithmetic is C's:
  /// integers until a cast or a floating-point operand, comparisons and
  /// `?:`, `ceil`, `floor`, `min`, `max`, and host functions whose body is
  /// one `return` of their arithmetic parameters (`iDivUp(n, 256)`). A
  /// parameter of the function holding `offset` (not `main`'s), unchanged
  /// there before `offset`, is what every call of the function passes for
  /// it (`run(d, 1 << 20)`; calls found by name as HostRunCounter finds
  /// them, each folded where it is written, the parameter's default
  /// argument where a call leaves it out), converted to its type; so is a
  /// value template parameter of a function template holding `offset`
  /// (`run<256>(d, n)`, or its default; only the calls of the instance
  /// read, InstanceScope). nullopt for anything else (a value read at run
  /// time, a parameter whose calls pass different values or are not
  /// found, a template argument the calls do not write, a global that is
  /// not const and that a function of the files may change) and for a
  /// size below 1 or above 2^31 - 1.
  ///
  /// Where `how` is given, it is set to what the value rests on beyond the
  /// text at `offset`, for reasons: "`n` = 4096, as `run`'s call at
  /// main.cu:40 passes it", "`i` = 32, the middle of `for (int i = 1; i <=
  /// 64; i++)` at nw.cu:50" (a counted host loop's counter, read in its
  /// body and changed nowhere else, stands for the middle of its values,
  /// so that a launch weighs as its launches do on average); empty where
  /// it rests on nothing else. Where the value is open, `how` says why
  /// the parameters it reads are ("`run`'s calls pass `n` = 4096 at
  /// main.cu:40, 8192 at main.cu:41"), or is empty.
  std::optional<ptx::analysis::Dim3> dimension(std::size_t file, std::size_t offset, const std::string &expression,
                                               std::string *how = nullptr) const;

  /// A kernel argument written at `offset` (`n`, `SPAN / 2`, `0.5f`),
  /// looked up and folded as dimension() does, any sign: a whole number,
  /// or a real one (`AssumedValue::real`). nullopt where the source does
  /// not fix it.
  std::optional<ptx::analysis::AssumedValue> value(std::size_t file, std::size_t offset, const std::string &expression,
                                                   std::string *how = nullptr) const;

  /// How many elements the range of a range `for` written at `offset`
  /// holds: a braced list's (`{1 << 16, 1 << 20}`), an array's that its
  /// declaration sizes (`sizes`), or a container's (`v`, containerSize());
  /// nullopt where the source does not fix it.
  std::optional<std::uint64_t> elementsOf(std::size_t file, std::size_t offset, const std::string &range) const;

  /// Where the files call the function `name` (CudaCode's callsIn()), by
  /// file and the offset of the name, its calls of itself included; found
  /// once per name.
  const std::vector<std::pair<std::size_t, std::size_t>> &callsOf(const std::string &name) const;
  /// Those of callsOf(`name`) that call the function defined in file
  /// `definedIn`: not another program's calls of its own function of that
  /// name (one whose files do not include `definedIn` and define such a
  /// function; one that only declares it may call this one, compiled apart).
  std::vector<std::pair<std::size_t, std::size_t>> callsOf(const std::string &name, std::size_t definedIn) const;

  /// Whether the branch `header` of file `file` (an `if`, or the `else`
  /// of one) is taken by the program run with the folder's arguments
  /// (none: `argc` is 1, and a call passed `argv`, as
  /// `checkCmdLineFlag(argc, argv, "n")`, returns 0, or -1 for `getopt`),
  /// its condition folded as value() folds; false also for a `while` or `for` whose condition
  /// is false on entry (its body never runs: `for (int i = 1; i < argc;
  /// ++i)`, the counter as its `for` declares it); nullopt where it does
  /// not fold, or for another loop. `how` as value()'s, naming the condition.
  std::optional<bool> branchTaken(std::size_t file, const LoopHeader &header, std::string *how = nullptr) const;

  /// A template parameter of the function template around `offset` of
  /// file `file`, `name`, as every call of that template passes it
  /// (written `run<float, 256>(...)`, or its default): in
  /// templateArgumentsOf()'s form, `type:f` for a built-in type, `value:256`
  /// for a whole number (a value folded where the call is written, a
  /// parameter of the caller's own template as its calls pass it). nullopt
  /// where `name` is no such parameter, or the calls do not agree on it.
  /// A value parameter reads the same way where dimension() and value() meet it.
  std::optional<std::string> templateArgument(std::size_t file, std::size_t offset, const std::string &name) const;

  /// The function template whose body holds `offset` of file `file`, and
  /// its calls; nullopt where no function template holds it.
  std::optional<TemplateCalls> templateCallsAround(std::size_t file, std::size_t offset) const;

  /// How many times the calls read have changed (InstanceScope): what was
  /// counted from callsOf() before a change may not hold after it.
  std::size_t callsChanged() const;

  /// How many names and macro tokens the folds have looked at so far;
  /// past a limit (2,000,000) the folder gives up and leaves values open,
  /// so that no input makes it hang. Callers that fold many times over
  /// keep their own share of it.
  std::size_t namesExamined() const;

private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

/// While it lives, the folder reads the templates it names as called
/// only from the calls it lists (one instance of each): callsOf() gives
/// those, and the parameters and template parameters of the template are
/// what they pass. The scope before it comes back when it ends. An empty
/// one changes nothing.
class ConstantFolder::InstanceScope {
public:
  InstanceScope(const ConstantFolder &folder, TemplateCalls calls);
  ~InstanceScope();
  InstanceScope(const InstanceScope &) = delete;
  InstanceScope &operator=(const InstanceScope &) = delete;

private:
  const ConstantFolder &folder_;
  bool changes_;
  TemplateCalls outer_; ///< the calls read before it, where it changes them
};

/// While it lives, the counter of the counted `for` at `loop` (the offset
/// of its keyword) of file `file` stands for `value` where the folder reads
/// it in the loop's body, instead of for the middle of its values: a
/// condition on it (`if (t % 10 == 0)`) then folds for that iteration.
/// What was folded from it is forgotten when the scope ends.
class ConstantFolder::CounterScope {
public:
  CounterScope(const ConstantFolder &folder, std::size_t file, std::size_t loop, std::int64_t value);
  ~CounterScope();
  CounterScope(const CounterScope &) = delete;
  CounterScope &operator=(const CounterScope &) = delete;

private:
  const ConstantFolder &folder_;
  std::pair<std::size_t, std::size_t> loop_;
};

} // namespace ptxdvfs::tools
