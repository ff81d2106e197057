// SourceLaunchHelpers.h - what the host code's launches give kernels of a
// module built by hand, and what a size folds to at a marked launch, for
// the tests of CudaLaunches.h and CudaConstants.h.
#pragma once

#include "CudaConstants.h"
#include "CudaLaunches.h"
#include "CudaSource.h"

#include "ptxdvfs/ptx/Module.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// `x,y,z`, or `none` for a size the launches leave open.
inline std::string shown(const std::optional<ptx::analysis::Dim3> &dims) {
  return dims ? std::to_string(dims->x) + "," + std::to_string(dims->y) + "," + std::to_string(dims->z) : "none";
}

/// A module of `__constant__` variables named `names` only, for
/// sourceSymbolWrites() to find the copies into.
inline ptx::Module constantVariablesModule(std::initializer_list<const char *> names) {
  ptx::Module module;
  for (const char *name : names) {
    ptx::VariableDecl variable;
    variable.space = ptx::StateSpace::Const;
    variable.name = name;
    module.globals.push_back(variable);
  }
  return module;
}

/// The launches `files` give a module of kernels named `names` (PTX
/// names), each of one parameter; the first `ownFiles` are those the
/// module names (sourceLaunches()); `device` the GPU its device queries read.
inline std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> launchesOf(
    const std::vector<std::string> &names, const std::vector<CudaSourceFile> &files,
    std::size_t ownFiles = SIZE_MAX, const TargetDevice *device = nullptr) {
  ptx::Module module;
  for (const std::string &name : names) {
    ptx::Function kernel;
    kernel.name = name;
    kernel.hasBody = true;
    kernel.parameters.resize(1);
    module.functions.push_back(std::move(kernel));
  }
  return sourceLaunches(module, files, ownFiles, device);
}

/// The launches `source` (t.cu) gives the kernels named `names`.
inline std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> launchesOf(
    const std::vector<std::string> &names, const std::string &source) {
  return launchesOf(names, {{"t.cu", "t.cu", source}});
}

/// "GRID x BLOCK, LAUNCHES" of each of `names` as `source` launches them,
/// `; ` between; "none" for one that gets no entry.
inline std::string launchesText(const std::vector<std::string> &names, const std::string &source) {
  const auto launches = launchesOf(names, source);
  std::string text;
  for (const std::string &name : names) {
    const auto found = launches.find(name);
    text += (text.empty() ? "" : "; ") +
            (found == launches.end() ? "none"
                                     : shown(found->second.grid) + " x " + shown(found->second.block) + ", " +
                                           std::to_string(found->second.launches));
  }
  return text;
}

/// "GRID x BLOCK" that `source` (t.cu) launches kernel `k` with, "none"
/// where it gets no entry; its reasons ("GRID_HOW | BLOCK_HOW") in `how`
/// where given; `device` the GPU its device queries read.
inline std::string launchedWith(const std::string &source, std::string *how = nullptr,
                                const TargetDevice *device = nullptr) {
  const auto launches = launchesOf({"k"}, {{"t.cu", "t.cu", source}}, SIZE_MAX, device);
  const auto found = launches.find("k");
  if (found == launches.end())
    return "none";
  if (how)
    *how = found->second.gridHow + " | " + found->second.blockHow;
  return shown(found->second.grid) + " x " + shown(found->second.block);
}

/// A one-file ConstantFolder over `source`, whose `@` marks the launch
/// (blanked, its offset kept in `launch`).
struct MarkedSource {
  std::size_t launch;
  ConstantFolder folder;
  explicit MarkedSource(std::string source)
      : launch(source.find('@')), folder({{"t.cu", "t.cu", source.replace(source.find('@'), 1, " ")}}) {}
};

/// What `expression` folds to as a grid or block size at the launch.
inline std::string folded(const std::string &source, const std::string &expression) {
  const MarkedSource marked(source);
  return shown(marked.folder.dimension(0, marked.launch, expression));
}

/// What the launches in `source` give kernel `k` (an unmangled `.entry k`
/// of one parameter); a default SourceLaunch where it is not launched.
inline ptx::analysis::SourceLaunch launchOfK(const std::string &source) {
  const auto launches = launchesOf({"k"}, source);
  const auto found = launches.find("k");
  return found != launches.end() ? found->second : ptx::analysis::SourceLaunch{};
}

/// `body` as main's: `k` launched there, `x` and `argc` in scope.
inline std::string inMain(const std::string &body) {
  return "int main(int argc, char **argv) {\n  float *x;\n" + body + "\n}\n";
}

inline std::uint64_t launchesIn(const std::string &body) { return launchOfK(inMain(body)).launches; }

/// The grid of `k<<<GRID, 256>>>` after `body` in main, as shown().
inline std::string gridAfter(const std::string &body, const std::string &grid = "n / 256") {
  return shown(launchOfK(inMain(body + "\nk<<<" + grid + ", 256>>>(x);")).grid);
}

/// What main's launch of `k` gets from `body` with the program run with
/// `arguments`: "GRID x BLOCK, LAUNCHES"; the grid's reason in `how` (why
/// it is open, where it is).
inline std::string runWith(const std::vector<std::string> &arguments, const std::string &body,
                           std::string *how = nullptr, const std::string &before = "") {
  ptx::Module module;
  ptx::Function kernel;
  kernel.name = "k";
  kernel.hasBody = true;
  kernel.parameters.resize(1);
  module.functions.push_back(std::move(kernel));
  const std::vector<CudaSourceFile> files{{"t.cu", "t.cu", before + inMain(body)}};
  const ConstantFolder folder(files, nullptr, arguments);
  const auto launches = sourceLaunches(module, folder, files, files.size());
  const auto found = launches.find("k");
  if (found == launches.end())
    return "none";
  if (how)
    *how = found->second.grid ? found->second.gridHow : found->second.gridOpen;
  return shown(found->second.grid) + " x " + shown(found->second.block) + ", " +
         std::to_string(found->second.launches);
}

} // namespace ptxdvfs::tools
