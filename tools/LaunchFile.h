// LaunchFile.h - launch.json: the grid, block and arguments each kernel ran with, kept beside its PTX.
//
// Host code is one place a kernel's launch can be read from (CudaLaunches.h);
// a launch file is the other, for launches no source fixes: a harness that
// launches through the driver (`ptxdvfs collect`), or sizes read at run
// time. A training program's loops then count as they ran when measured.
#pragma once

#include "CudaSource.h"

#include "ptxdvfs/ptx/Expected.h"
#include "ptxdvfs/ptx/Module.h"
#include "ptxdvfs/ptx/analysis/Values.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

/// The file a benchmark folder may hold beside its `.ptx` files.
inline constexpr const char *kLaunchFileName = "launch.json";
inline constexpr const char *kLaunchFileFormat = "ptxdvfs-launch/1";

/// Values by the name `--assume` takes for them.
using NamedValues = std::vector<std::pair<std::string, ptx::analysis::AssumedValue>>;

/// One kernel's launch. Unset parts stay open, as in host code that does
/// not fix them.
struct KernelLaunch {
  /// The `.entry` name in the PTX, or the CUDA name a mangled one
  /// demangles to when only one kernel has it.
  std::string kernel;
  std::optional<ptx::analysis::Dim3> grid;  ///< blocks
  std::optional<ptx::analysis::Dim3> block; ///< threads per block (1 to 1024 in all)
  /// Times the program launches it (optional, 1 if left out): a kernel
  /// launched 100 times weighs 100 times in its application's mix.
  std::uint64_t launches = 1;
  /// Arguments by parameter name: the CUDA name (when the module's CUDA
  /// sources are readable), the PTX name, or its `param_N` suffix; a field
  /// of a struct passed by value by its CUDA name (`d_dim.number_boxes`)
  /// or as NAME+BYTES (`d_dim+36`). Names are resolved when applied.
  NamedValues arguments;
};

struct LaunchFile {
  std::string path; ///< as errors and the counts' reasons name it
  std::vector<KernelLaunch> kernels;
  /// What the host wrote into `__constant__` variables before the launches
  /// (cudaMemcpyToSymbol), by the variable's PTX name, NAME+BYTES, or a
  /// struct field's CUDA name (`d_common.no_points`).
  NamedValues constants;

  /// The entries a `used` flag vector has one flag for: the kernels, then the constants.
  std::size_t entries() const { return kernels.size() + constants.size(); }
};

/// Reads and checks a launch file:
///   {"format": "ptxdvfs-launch/1",
///    "kernels": {"saxpy": {"grid": [1056], "block": [256, 1, 1], "launches": 100,
///                          "arguments": {"n": 1048576, "param_1": 2.5}}},
///    "constants": {"NbrListLen": 27}}
/// ("constants" may be left out).
/// `grid` and `block` take one to three positive integers (or one integer),
/// `launches` one positive integer.
/// Errors name the file and the entry.
ptx::Expected<LaunchFile> readLaunchFile(const std::string &path);

/// The same, of `text`, which errors say was read from `path`.
ptx::Expected<LaunchFile> parseLaunchFile(std::string_view text, const std::string &path);

/// The text of a launch file holding `kernels` and `constants`, as readLaunchFile reads it.
std::string launchFileText(const std::vector<KernelLaunch> &kernels, const NamedValues &constants = {});

/// Makes each entry of `file` that names one of `module`'s kernels the
/// launch that kernel's counts rest on (reasons say "the launch at PATH"),
/// in place of what its CUDA sources said; `--grid`, `--block` and
/// `--assume` still come first. Call it after addSourceKnowledge(), whose
/// parameter and field names it reads. Each constant that names a
/// `__constant__` variable of `module` is its value (reasons say "the
/// launch at PATH"), `--assume` still first. Marks `used[i]` for each entry
/// it applies (`used` has `file.entries()` flags). Returns an error for an
/// argument that names no parameter or field of its kernel (or an offset
/// past its struct), or a name that fits several kernels.
std::string applyLaunchFile(const LaunchFile &file, const ptx::Module &module,
                            ptx::analysis::LaunchAssumptions &assumptions, std::vector<bool> &used);

/// What a module offers a launch file's entries: its kernels and its
/// `__constant__` variables, by PTX name.
struct LaunchNames {
  std::vector<std::string> kernels, constants;
};

/// An error naming the entries of `file` that no module used, with the
/// names there are (`known`, found `where`: "in app.ptx"); empty when
/// every entry was used.
std::string unusedLaunches(const LaunchFile &file, const std::vector<bool> &used, const LaunchNames &known,
                           const std::string &where);

/// A module and the assumptions its kernels are read under.
struct LaunchTarget {
  const ptx::Module *module;
  ptx::analysis::LaunchAssumptions *assumptions;
};

/// One launch file applied to targets one after another (the inputs of a
/// command that share `--launch FILE`): read once, remembering which
/// entries some target used, so that an entry for another input's kernel
/// is not reported as unused by each of the others.
class LaunchFileApplication {
public:
  explicit LaunchFileApplication(std::string path) : path_(std::move(path)) {}

  /// Applies the file to `target` (after addSourceKnowledge()), reading it
  /// the first time. Returns an error ("PATH:LINE:COL: what") for a file
  /// that does not read or an entry that does not apply.
  std::string apply(const LaunchTarget &target);
  /// unusedLaunches()'s message over every target applied so far.
  std::string unused(const std::string &where) const;

private:
  std::string path_;
  std::optional<LaunchFile> file_;
  std::vector<bool> used_;
  LaunchNames known_; ///< of every target, in order
};

/// Reads the launch file at `path` and applies it to every target (as
/// LaunchFileApplication does); `unused` gets unusedLaunches()'s message,
/// with `where`.
std::string applyLaunchFileAt(const std::string &path, const std::vector<LaunchTarget> &targets,
                              const std::string &where, std::string &unused);

/// The launch file read without a flag for PTX in `ptxFolder` whose CUDA
/// sources (readCudaSources()) are `sources`: the `launch.json` in that
/// folder, else beside the first of the sources that has one (a `.cu`
/// compiled to a temporary PTX file, a benchmark whose `.file` lines point
/// into a source tree); empty without one. The command line and a
/// dataset's benchmark folders find it by this one rule, so that `predict`
/// and `train` read a program's launches alike.
std::string launchFileBeside(const std::string &ptxFolder, const std::vector<CudaSourceFile> &sources);

} // namespace ptxdvfs::tools
