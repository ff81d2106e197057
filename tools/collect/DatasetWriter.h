// DatasetWriter.h - a collection's measurements in the layout `ptxdvfs train --dataset` reads.
#pragma once

#include "CollectPlan.h"
#include "ProgressLog.h"

#include <functional>
#include <string>

namespace ptxdvfs::tools::collect {

/// The text of `<benchmark>/launch.json` for a benchmark whose runs each
/// did `repeats` repetitions (tools/LaunchFile.h says what it holds).
using LaunchFileText = std::function<std::string(const PlannedBenchmark &benchmark, int repeats)>;

/// Writes into `dir`:
///   aggregated_dataset_<gpu>.csv   a block per benchmark measured at every
///                                  point: its name, then `fmem,fcore,time_ms,
///                                  power_w,energy_mj` rows in grid order
///   gpu_info/clks_mem_<gpu>.txt,   the clock tables (the default last)
///   gpu_info/clks_core_<gpu>_<fmem>.txt
///   <benchmark>/<benchmark>.ptx    its kernel, for `train --ptx`-less reading
///   <benchmark>/launch.json        how it was launched, with `launchFile`
/// Benchmarks missing a point are left out (`complete` counts the others).
/// Every file is replaced atomically. Returns an error message, empty on success.
std::string writeDataset(const std::string &dir, const CollectPlan &plan, const ProgressLog &log,
                         std::size_t &complete, const LaunchFileText &launchFile = {});

} // namespace ptxdvfs::tools::collect
