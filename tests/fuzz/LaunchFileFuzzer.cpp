// LaunchFileFuzzer.cpp - libFuzzer: any text as a launch.json (which `--launch` and a
// dataset's benchmark folders give), never a crash or a hang, and an accepted file's block
// within CUDA's 1024 threads; the fixtures' kernels are then read under it, so extreme
// grids, arguments, struct fields and `__constant__` values reach the trip-count arithmetic.
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

/// The host-launch fixture, and one with `__constant__` bounds and structs passed by value.
const std::vector<ptx::Module> &fixtures() {
  static const std::vector<ptx::Module> modules = [] {
    std::vector<ptx::Module> parsed;
    for (const char *path : {PTXDVFS_HOST_LAUNCHES_PTX, PTXDVFS_CONSTANT_BOUNDS_PTX}) {
      auto module = ptx::parseFile(path);
      if (!module)
        std::abort();
      parsed.push_back(std::move(*module));
    }
    return parsed;
  }();
  return modules;
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
  std::vector<ptx::analysis::LaunchAssumptions> assumptions(fixtures().size());
  std::vector<bool> used(file->entries());
  for (std::size_t m = 0; m < fixtures().size(); ++m)
    if (!applyLaunchFile(*file, fixtures()[m], assumptions[m], used).empty())
      return 0;
  (void)unusedLaunches(*file, used, {}, "in the fixtures");
  ptx::analysis::ExpansionOptions expansion;
  expansion.budget = 512;
  for (std::size_t m = 0; m < fixtures().size(); ++m)
    for (const ptx::Function *kernel : fixtures()[m].kernels())
      ptx::analysis::expandKernel(fixtures()[m], *kernel, assumptions[m], expansion);
  return 0;
}
