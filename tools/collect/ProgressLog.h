// ProgressLog.h - the measurements of a collection, one CSV row each, appended as they come,
// so that a collection stopped by Ctrl-C, a crash or a reboot resumes where it was.
#pragma once

#include "ptxdvfs/embeddings/GpuClocks.h"
#include "ptxdvfs/ptx/Expected.h"

#include <string>
#include <vector>

namespace ptxdvfs::tools::collect {

/// One benchmark measured at one V-F point.
struct MeasuredPoint {
  std::string benchmark;
  embeddings::VfPoint point;  ///< MHz
  double milliseconds = 0;    ///< median time of a run
  double watts = 0;           ///< mean power over the runs
  double timeSpread = 0;      ///< (slowest - fastest) / median run
  double powerSpread = 0;     ///< (highest - lowest) / mean power
  int repeats = 0;            ///< the kernel's `repeats` argument: one run's work
  int runs = 0;               ///< measured runs

  double millijoules() const { return milliseconds * watts; }
};

class ProgressLog {
public:
  /// Reads `path` if it exists (not creating it). A last line cut short by
  /// a crash is dropped with a warning in the diagnostics; any other
  /// malformed line fails naming file:line.
  static ptx::Expected<ProgressLog> read(const std::string &path);

  const std::vector<MeasuredPoint> &rows() const { return rows_; }
  bool has(const std::string &benchmark, embeddings::VfPoint point) const;
  /// The `repeats` a benchmark was measured with, 0 if never: every point
  /// of a benchmark runs the same work, so that times compare.
  int repeatsOf(const std::string &benchmark) const;

  /// Appends a row and flushes it to disk before returning (creating the
  /// file with its header, or first dropping a cut-short last line).
  /// Returns an error message, empty on success.
  std::string append(const MeasuredPoint &row);

private:
  std::string path_;
  std::vector<MeasuredPoint> rows_;
  bool rewrite_ = false; ///< the file ends in a cut-short line
};

} // namespace ptxdvfs::tools::collect
