// LaunchFlags.h - the flags that tell the loop analysis what the PTX cannot: launch geometry, parameters.
#pragma once

#include "CudaDevice.h"
#include "CudaSource.h"
#include "LaunchFile.h"

#include "ptxdvfs/ptx/Module.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct LaunchFlags {
  std::vector<std::string> assume; ///< NAME=VALUE
  std::string grid;                ///< X[,Y[,Z]]
  std::string block;
  std::string launchFile;          ///< --launch FILE (LaunchFile.h)
  std::string programArguments;    ///< --program-args, one string a shell would split (CudaCommandLine.h)
  std::vector<std::string> hostSources; ///< --host-source: host files or folders read with the CUDA sources
  std::uint64_t defaultTripCount = ptx::analysis::ExpansionOptions{}.defaultTripCount;
  std::size_t budget = ptx::analysis::ExpansionOptions{}.budget;
  bool keepLoopControl = false;
  /// --device: the GPU whose properties the host code's device queries
  /// read (targetDeviceNamed()), `none` to leave them open; empty: the
  /// model's GPU for commands that read a model (the caller sets it),
  /// else kDefaultTargetGpu.
  std::string device;
};

/// Adds --assume, --grid, --block, --launch, --default-trip-count and, with
/// `readingFlags`, --budget and --keep-loop-control to `command`. Without
/// them (commands that feed a model, which fixes how kernels are read)
/// `defaultTripCount` stays 0 unless given: the model's own.
void addLaunchFlags(CLI::App &command, LaunchFlags &flags, bool readingFlags = true);

/// The assumptions the flags describe; an error message for a malformed
/// value (empty when all is well). `sources`, the module's readable CUDA
/// sources (readCudaSources()), give its kernels' parameter names, so
/// `--assume n=1024` works with -lineinfo PTX, and the grid and block
/// their launches fix (sourceLaunches()); --launch's file (or, without
/// it, a `launch.json` beside the module's file or its CUDA sources)
/// replaces those launches for the kernels it names. An entry that names
/// no kernel of the module is warned of and ignored; with `shared` (one
/// application of --launch's file for all of a command's inputs), that
/// warning is the caller's, once every input has been read
/// (warnOfUnusedLaunches()).
std::string toAssumptions(const LaunchFlags &flags, const ptx::Module &module,
                          const std::vector<CudaSourceFile> &sources,
                          ptx::analysis::LaunchAssumptions &assumptions,
                          LaunchFileApplication *shared = nullptr);

/// Warns of the entries of a shared --launch file that none of the
/// `inputs` (their paths) used.
void warnOfUnusedLaunches(const LaunchFileApplication &shared, const std::vector<std::string> &inputs);

/// What `module`'s CUDA sources (readCudaSources()) tell without any flag:
/// its kernels' parameter names and the grid, block and constant arguments
/// of their launches, their device queries reading `device`'s properties
/// (null: open), the program read as run with `arguments` (after its name;
/// none: run bare), its host code read with `hostFiles` too
/// (--host-source). toAssumptions() calls it; so does reading a dataset's
/// PTX, so that training and evaluation read a kernel as `predict` does.
void addSourceKnowledge(const ptx::Module &module, const std::vector<CudaSourceFile> &sources,
                        ptx::analysis::LaunchAssumptions &assumptions, const TargetDevice *device,
                        const std::vector<std::string> &arguments = {},
                        const std::vector<CudaSourceFile> &hostFiles = {});

ptx::analysis::ExpansionOptions toExpansionOptions(const LaunchFlags &flags);

/// "262144 threads per launch (default)": the size a kernel was read for,
/// and the worst origin of its sizes; ", 100 launches (assumed)" where it
/// has several, with the origin of that count.
std::string threadsPerLaunchText(const ptx::analysis::LaunchSize &launch);

/// `{"grid": [x, y, z], "block": [x, y, z], "threads", "launches",
/// "launches_origin", "origin", "why"}`.
nlohmann::json launchSizeJson(const ptx::analysis::LaunchSize &launch);

} // namespace ptxdvfs::tools
