// SourceLaunchHelpers.h - what the host code's launches give kernels of a
// module built by hand, for the tests of CudaLaunches.h.
#pragma once

#include "CudaLaunches.h"
#include "CudaSource.h"

#include "ptxdvfs/ptx/Module.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// `x,y,z`, or `none` for a size the launches leave open.
inline std::string shown(const std::optional<ptx::analysis::Dim3> &dims) {
  return dims ? std::to_string(dims->x) + "," + std::to_string(dims->y) + "," + std::to_string(dims->z) : "none";
}

/// The launches `files` give a module of kernels named `names` (PTX
/// names), each of one parameter; the first `ownFiles` are those the
/// module names (sourceLaunches()).
inline std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> launchesOf(
    const std::vector<std::string> &names, const std::vector<CudaSourceFile> &files,
    std::size_t ownFiles = SIZE_MAX) {
  ptx::Module module;
  for (const std::string &name : names) {
    ptx::Function kernel;
    kernel.name = name;
    kernel.hasBody = true;
    kernel.parameters.resize(1);
    module.functions.push_back(std::move(kernel));
  }
  return sourceLaunches(module, files, ownFiles);
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

} // namespace ptxdvfs::tools
