// LoopReports.h - what a loop's report says beyond its count: the CUDA line
// it is shown at, and why a loop no pass entered was skipped.
#pragma once

#include "Reasons.h"

#include "ptxdvfs/ptx/analysis/ControlFlow.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"
#include "ptxdvfs/ptx/analysis/Loops.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::ptx::analysis {

/// The CUDA line a loop is shown at: the first `.loc` with a real line in the
/// header, else in the loop's other blocks. nvcc often opens a rotated loop's
/// header with `.loc 1 0 N` (line 0: compiler-made code, DWARF's "no line"),
/// and an editor cannot put a hint on line 0. A line of the function the
/// loop is written in comes before one inlined into it: a header that opens
/// with an inlined call (`while (*flag == 0) __nanosleep(100);` starts with
/// the sleep's line in sm_70_rt.hpp) is shown at the loop's own line.
std::optional<DebugLocation> sourceLineOf(const ControlFlowGraph &graph, const Loop &loop);

/// A branch a pass follows one side of, and what that rests on.
struct Decision {
  std::uint32_t untaken = 0; ///< the successor not followed
  ValueOrigin origin = ValueOrigin::Constant;
  std::vector<std::string> why;
  bool rare = false; ///< decided as rare data, not by a known condition
};

/// What the branches that led a pass past a loop rest on: the values of
/// those decided by a known condition, and whether one was decided as rare.
struct DecidedBranches {
  ValueOrigin origin = ValueOrigin::Constant;
  std::vector<std::string> why;
  bool byValue = false;
  bool byRarity = false;

  void merge(const DecidedBranches &other) {
    mergeProvenance(*this, other);
    byValue = byValue || other.byValue;
    byRarity = byRarity || other.byRarity;
  }
};

/// The `decisions` of a pass through `region` (a loop of `forest`, or -1
/// for the function) whose side not followed leads, through blocks the
/// pass does not reach (`live` false), to the header of loop `skipped`.
DecidedBranches leadingPast(const ControlFlowGraph &graph, const LoopForest &forest, int region,
                            const std::vector<bool> &live, const std::vector<Decision> &decisions,
                            std::uint32_t skipped);

/// A loop no pass entered reads 0 iterations, resting on the branches that
/// led past it; one entered on other passes keeps its count and reasons.
void describeSkipped(LoopReport &report, const DecidedBranches &decided);

} // namespace ptxdvfs::ptx::analysis
