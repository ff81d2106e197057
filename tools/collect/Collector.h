// Collector.h - the measuring loop: every (benchmark, point) the log lacks, clocks restored after.
#pragma once

#include "CollectPlan.h"
#include "GpuDevice.h"
#include "ProgressLog.h"

#include <atomic>
#include <functional>
#include <string>

namespace ptxdvfs::tools::collect {

struct CollectOutcome {
  std::size_t measured = 0;    ///< pairs measured by this run
  std::size_t alreadyDone = 0; ///< pairs the log had
  bool stopped = false;        ///< `stop` was raised before the end
  std::string error;           ///< a device or log failure; empty if none
};

/// How many of the plan's (benchmark, point) pairs the log already has.
std::size_t measuredPairs(const CollectPlan &plan, const ProgressLog &log);

/// Called after each pair with what was measured and how many pairs are left.
using CollectProgress = std::function<void(const MeasuredPoint &, std::size_t remaining)>;

/// Measures, point by point from the highest clocks down, every benchmark
/// the log has not got at that point, appending each result to the log as
/// it comes. With `changeClocks`, locks each point's clocks first and
/// always resets them before returning (also on an error or `stop`);
/// without it, measures at the clocks the GPU runs now and never touches
/// them (`plan` must then hold that one point).
///
/// A benchmark's `repeats` is calibrated once, at its first point, so that
/// a run takes at least MeasurementSettings::secondsPerRun; every point
/// then runs the same work. `stop` (set by a signal handler) is checked
/// between runs.
CollectOutcome runCollection(GpuDevice &device, const CollectPlan &plan, ProgressLog &log,
                             bool changeClocks, const std::atomic<bool> &stop,
                             const CollectProgress &progress = {});

} // namespace ptxdvfs::tools::collect
