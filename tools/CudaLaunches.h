// CudaLaunches.h - the launch geometry the host code gives a kernel,
// `scale<<<blocks, 128>>>(...)`, read from its CUDA source.
#pragma once

#include "CudaDevice.h"
#include "CudaHostFiles.h"
#include "CudaSource.h"

#include "ptxdvfs/ptx/Module.h"
#include "ptxdvfs/ptx/analysis/Values.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

class ConstantFolder;

/// CUDA's limit on the threads of one block, all dimensions together.
inline constexpr std::uint32_t kMaxThreadsPerBlock = 1024;

/// Whether a block of `dims` can run (a launch, or a launch file's entry,
/// that asks for more is not taken). Each dimension is bounded before the
/// product, which could otherwise overflow.
inline bool fitsOneBlock(const ptx::analysis::Dim3 &dims) {
  return dims.x <= kMaxThreadsPerBlock && dims.y <= kMaxThreadsPerBlock && dims.z <= kMaxThreadsPerBlock &&
         dims.x * dims.y * dims.z <= kMaxThreadsPerBlock;
}

/// Per kernel of `module` (PTX name), what its launches in `files`
/// (`name<<<grid, block, ...>>>(args)`, `name<T><<<...>>>(args)`,
/// `cudaLaunchKernel(name, grid, block, ...)`) give: the grid, the block
/// and each argument, each only where every launch gives the same
/// constant (ConstantFolder; a block of at most 1024 threads; arguments
/// only from `<<<>>>` launches whose count matches the parameters). Where
/// several kernels of the module share an unmangled name, a template
/// instance takes the launches written with its own template arguments,
/// and none is taken where the launches cannot be told apart. Each kernel
/// launched at all gets an entry, whose `...Open` fields say why a value
/// is not taken. The first `ownFiles` of `files` are those the module
/// names (readCudaSources()), the rest beside them (launchingSources()):
/// a launch in another program, one whose files include none of the
/// module's but define a kernel of that name themselves, launches that
/// program's kernel and is not counted. Where some kernel of the module is
/// launched, one launched and named nowhere else (kernelsNamedOtherwise()),
/// or a template instance no launch is of, gets an entry of 0 launches,
/// unless a launch names something else than a kernel
/// (everyLaunchNamesAKernel()) and so may be of it. `device` is the GPU
/// the program runs on, whose properties its device queries give (null:
/// they are open).
std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> sourceLaunches(
    const ptx::Module &module, const std::vector<CudaSourceFile> &files, std::size_t ownFiles = SIZE_MAX,
    const TargetDevice *device = nullptr);

/// The same, with the folder over `files` a caller has built for other
/// readings of the same sources (sourceSymbolWrites()).
std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> sourceLaunches(const ptx::Module &module,
                                                                              const ConstantFolder &folder,
                                                                              const std::vector<CudaSourceFile> &files,
                                                                              std::size_t ownFiles);

} // namespace ptxdvfs::tools
