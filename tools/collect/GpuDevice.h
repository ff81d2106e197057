// GpuDevice.h - what `ptxdvfs collect` needs of a GPU, behind one interface: the NVIDIA driver
// (NvidiaDevice: libcuda and NVML opened at run time) or a simulated GPU in tests.
#pragma once

#include "ptxdvfs/embeddings/GpuClocks.h"

#include <stdexcept>
#include <string>

namespace ptxdvfs::tools::collect {

/// A device call that failed; the message names the call and the driver's reason.
struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One timed run of a kernel.
struct KernelRun {
  double milliseconds = 0; ///< GPU time of the launch, ms
  double joules = 0;       ///< energy the GPU used meanwhile, J
};

/// The grid and block of every run: the suite's kernels are grid-stride
/// loops, so any shape that fills the GPU runs the same work.
struct LaunchShape {
  unsigned blocks = 1;            ///< one-dimensional grid
  unsigned threadsPerBlock = 256; ///< one-dimensional block
};

class GpuDevice {
public:
  virtual ~GpuDevice() = default;

  /// The product name, e.g. "NVIDIA H100 80GB HBM3".
  virtual std::string name() = 0;
  /// 10 x major + minor compute capability: 90 for an H100 (9.0).
  virtual unsigned computeCapability() = 0;
  /// The supported memory clocks and, for each, the core clocks (MHz);
  /// `defaultPoint` is where the GPU runs unless told otherwise.
  virtual embeddings::GpuClocks clockTable() = 0;
  /// The clocks the GPU runs at now (MHz).
  virtual embeddings::VfPoint currentClocks() = 0;
  /// Locks the memory and core clocks (MHz). Throws DeviceError, e.g.
  /// without the permission to change clocks.
  virtual void lockClocks(embeddings::VfPoint point) = 0;
  /// Undoes every lockClocks. Must not throw: it runs while unwinding.
  virtual void resetClocks() noexcept = 0;
  /// Loads the PTX of the kernels to run.
  virtual void loadModule(const std::string &ptx) = 0;
  /// The grid and block run() launches with, which the dataset records
  /// (`<benchmark>/launch.json`) so that training counts the loops as they ran.
  virtual LaunchShape launchShape() = 0;
  /// Runs a kernel with the suite's signature (out, in, bytes, repeats) on
  /// two buffers of `bytes` bytes, waits for it, and reports its time and
  /// energy. Throws DeviceError.
  virtual KernelRun run(const std::string &kernel, unsigned long long bytes, int repeats) = 0;
};

} // namespace ptxdvfs::tools::collect
