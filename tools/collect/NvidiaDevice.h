// NvidiaDevice.h - a GPU through the CUDA driver API (kernels) and NVML (clocks, energy), both
// opened at run time (libcuda.so.1, libnvidia-ml.so.1): ptxdvfs builds and runs without them.
#pragma once

#include "GpuDevice.h"

#include "ptxdvfs/ptx/Expected.h"

#include <memory>

namespace ptxdvfs::tools::collect {

/// Opens CUDA device `ordinal` and its NVML handle (matched by PCI bus id).
/// Fails with a clear message when a library or the device is missing.
ptx::Expected<std::unique_ptr<GpuDevice>> openNvidiaDevice(int ordinal);

} // namespace ptxdvfs::tools::collect
