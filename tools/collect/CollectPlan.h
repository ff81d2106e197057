// CollectPlan.h - which kernels `ptxdvfs collect` measures at which clocks, for how long.
#pragma once

#include "ptxdvfs/embeddings/GpuClocks.h"
#include "ptxdvfs/ptx/Expected.h"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace ptxdvfs::tools::collect {

/// How each (benchmark, clock) pair is measured.
struct MeasurementSettings {
  unsigned long long bufferBytes = 256ull << 20; ///< each of `in` and `out`
  double secondsPerRun = 1.0; ///< a run is at least this long: `repeats` is calibrated to it
  int warmups = 1;            ///< runs before the measured ones, not recorded
  int runs = 5;               ///< measured runs: median time, mean power
};

/// One kernel of the suite, measured alone; its dataset folder holds a PTX
/// file with it and nothing else of the suite's kernels.
struct PlannedBenchmark {
  std::string name;      ///< the kernel's name, also the benchmark's
  std::string ptx;       ///< the module without the suite's other kernels
  std::vector<std::string> parameters; ///< their PTX names, in order: (out, in, bytes, repeats)
};

struct CollectPlan {
  std::string gpu;                           ///< file-name form: `h100`, `gtxtitanx`
  embeddings::GpuClocks clocks;              ///< the tables the dataset gets
  std::vector<embeddings::VfPoint> points;   ///< in the order measured: clocks.grid()
  std::vector<PlannedBenchmark> benchmarks;  ///< in suite order
  MeasurementSettings settings;

  /// Seconds the measuring takes at most, if every run is as long as asked.
  double estimatedSeconds() const;
};

/// The clock tables to measure: every memory clock with at most
/// `maxCoreClocks` of its core clocks, spread evenly from lowest to highest
/// and always including the default and the highest.
embeddings::GpuClocks thinClocks(const embeddings::GpuClocks &all, std::size_t maxCoreClocks);

/// Only the point the GPU runs at now: for GPUs whose clocks must not or
/// cannot be changed (shared machines).
embeddings::GpuClocks currentClocksOnly(const embeddings::VfPoint &current, const std::string &gpu);

/// A suite PTX file (`ptxdvfs collect --suite`).
struct Suite {
  std::shared_ptr<const std::string> text;   ///< the file as read, what the driver loads
  std::string target;                        ///< its `.target` architecture, e.g. `sm_90`; may be empty
  std::vector<PlannedBenchmark> benchmarks;  ///< its kernels, in file order
};

/// The kernels of a suite PTX file, each cut out with the module's header,
/// variables and device functions. Fails with the file's syntax errors, or
/// when it has no kernel.
ptx::Expected<Suite> readSuite(const std::string &suitePath);

/// Why PTX compiled for `target` (`sm_80`, `sm_90a`) cannot run on a GPU of
/// compute capability `computeCapability` (10 x major + minor: 90 for 9.0),
/// naming the suite file to use instead; empty when it can. PTX runs on its
/// target and newer GPUs; an `a` target (`sm_90a`) only on its own.
std::string targetMismatch(const std::string &target, unsigned computeCapability);

/// A GPU's product name in the form dataset files use: lower-case letters
/// and digits, without the vendor (`NVIDIA H100 80GB HBM3` -> `h10080gbhbm3`).
std::string fileNameOfGpu(const std::string &productName);

/// The plan as `--dry-run` prints it: clocks, benchmarks, runs, duration.
void printPlan(const CollectPlan &plan, std::size_t alreadyMeasured, std::ostream &out);

} // namespace ptxdvfs::tools::collect
