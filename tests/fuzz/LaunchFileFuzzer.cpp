// LaunchFileFuzzer.cpp - libFuzzer: any text as a launch.json (which `--launch` and a
// dataset's benchmark folders give), never a crash or a hang, and an accepted file's block
// within CUDA's 1024 threads; the host-launch fixture's kernels are then read under it, so
// extreme grids and arguments reach the trip-count arithmetic.
#include "CudaLaunches.h"
#include "LaunchFile.h"

#include "ptxdvfs/ptx/Parser.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

using namespace ptxdvfs;
using namespace ptxdvfs::tools;

namespace {

const ptx::Module &fixture() {
  static const ptx::Module module = [] {
    auto parsed = ptx::parseFile(PTXDVFS_HOST_LAUNCHES_PTX);
    if (!parsed)
      std::abort();
    return std::move(*parsed);
  }();
  return module;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  auto file = parseLaunchFile(std::string_view(reinterpret_cast<const char *>(data), size), "launch.json");
  if (!file)
    return 0;
  for (const KernelLaunch &launch : file->kernels)
    if (launch.block && (launch.block->x == 0 || launch.block->y == 0 || launch.block->z == 0 ||
                         !fitsOneBlock(*launch.block)))
      __builtin_trap();
  const ptx::Module &module = fixture();
  ptx::analysis::LaunchAssumptions assumptions;
  std::vector<bool> used(file->entries());
  if (!applyLaunchFile(*file, module, assumptions, used).empty())
    return 0;
  ptx::analysis::ExpansionOptions expansion;
  expansion.budget = 512;
  for (const ptx::Function *kernel : module.kernels())
    ptx::analysis::expandKernel(module, *kernel, assumptions, expansion);
  return 0;
}
