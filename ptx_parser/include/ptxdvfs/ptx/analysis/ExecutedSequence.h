// ExecutedSequence.h - a kernel as one thread executes it: loops repeated, calls inlined, with weights.
#pragma once

#include "ptxdvfs/ptx/Module.h"
#include "ptxdvfs/ptx/analysis/Values.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace ptxdvfs::ptx::analysis {

struct ExpansionOptions {
  /// At most this many instructions are written out; longer executions keep
  /// the same number of sampled iterations of every loop (the largest that
  /// fits) and carry the rest in the weights. Code without loops is written
  /// out whole even when longer.
  std::size_t budget = 8192;
  /// Header runs of a loop whose count cannot be found (a bound read from
  /// memory, a parameter without `--assume`): docs/loops.md. Larger counts
  /// score better in cross-validation but send every looped memory-bound
  /// kernel we know to the low memory clock (docs/model.md).
  std::uint64_t defaultTripCount = 16;
  /// `.func` bodies are inlined at their call sites up to this depth.
  unsigned maxCallDepth = 8;
  /// Repeat each loop's control instructions (TripCountAnalysis::loopControl:
  /// counter and pointer updates, exit tests, branches, loop-carried copies)
  /// in every iteration, as the hardware does. Off by default: the sequence
  /// is then the one full unrolling would give, which is how the training
  /// programs were written (docs/loops.md).
  bool keepLoopControl = false;
  /// Header runs per entry for loops whose count is not found, by the
  /// function and the location of the header's first instruction, with
  /// the reason that replaces the default's: what expandKernel() finds
  /// launch by launch where a kernel's launches differ
  /// (SourceLaunch::bindings). Read as assumed.
  struct LoopCount {
    std::uint64_t headerRuns = 0;
    std::string why;
  };
  std::map<std::tuple<const Function *, std::uint32_t, std::uint32_t>, LoopCount> loopCounts;
};

/// One instruction of the executed sequence.
struct ExecutedInstruction {
  const Instruction *instruction = nullptr;
  const Function *function = nullptr; ///< the kernel, or the `.func` it was inlined from
  std::uint32_t index = 0;            ///< position in that function's flattened body
  /// Times this copy stands for, per thread: 1 when every iteration is
  /// written out, more when iterations were sampled. The weights of a
  /// kernel add up to the instructions one thread executes.
  double weight = 1;
  int loop = -1;               ///< innermost loop (index in ExecutedKernel::loops), -1 outside
  std::uint64_t iteration = 0; ///< 0-based iteration of that loop
};

/// What was found about one loop, over every time it was entered.
struct LoopReport {
  const Function *function = nullptr;
  SourceLocation location;                  ///< the loop header's first instruction
  std::optional<DebugLocation> source;      ///< its CUDA line, with -lineinfo (never line 0 if the loop has a real one)
  unsigned depth = 1;
  int parent = -1;                          ///< index in ExecutedKernel::loops
  double meanTripCount = 0;                 ///< header runs per entry, weighted by entries
  std::uint64_t minTripCount = 0, maxTripCount = 0;
  double entries = 0;                       ///< times entered per thread
  ValueOrigin origin = ValueOrigin::Constant; ///< worst over the entries
  std::vector<std::string> why;
  std::string rule;                         ///< the recognised exit test, if any
  bool usedDefault = false;                 ///< some entry fell back to the default count
  bool atMost = false;                      ///< some entry's count is only an upper bound (TripCount::atMost)
};

/// A branch whose one side only huge or non-finite values take (a
/// magnitude compared with a bound of at least 2^16: the math library's
/// large-argument reduction of sinf, its infinity cases), read as never
/// taking that side.
struct RareBranchReport {
  const Function *function = nullptr;
  SourceLocation location;             ///< the branch
  std::optional<DebugLocation> source; ///< its CUDA line, with -lineinfo
  std::string condition;               ///< the side not read: "|%f4| >= 105615"
  bool nonFinite = false;              ///< that side is infinity or NaN, not a large magnitude
};

/// "default" where some entry fell back to the default count, else the
/// name of the loop's origin ("constant", "assumed", "unknown").
std::string_view originName(const LoopReport &loop);

/// The reason a report gives for a loop behind a side read as rare.
inline constexpr const char *kBehindRareSide = "it lies on a side of a branch read as rare (never taken)";

/// Whether `reason` says why a loop does not run (kLeadsPastLoop,
/// kBehindRareSide) rather than naming a value its count rests on: a
/// summary of what to give (--assume, --grid, --block) leaves it out.
inline bool saysWhyNotRun(std::string_view reason) { return reason == kLeadsPastLoop || reason == kBehindRareSide; }

/// The size of one launch of a kernel, as its loops read it (%ntid and
/// %nctaid: ValueEvaluator::specialRegister). How many threads run the
/// sequence: an application's kernels weigh by it (docs/loops.md,
/// "Kernels of one application").
struct LaunchSize {
  Dim3 grid, block;
  std::uint64_t launches = 1;                         ///< SourceLaunch::launches
  ValueOrigin origin = ValueOrigin::Constant;         ///< the worst of the six sizes
  ValueOrigin launchesOrigin = ValueOrigin::Constant; ///< SourceLaunch::launchesOrigin; Constant for 1 launch
  std::vector<std::string> why;                       ///< where each size and the launches came from
  /// Threads per launch: every grid and block dimension multiplied (as a
  /// double, which a grid of 2^31 - 1 x 65535 x 65535 blocks still fits).
  double threads() const;
  /// Threads over every launch: threads() x launches.
  double launchedThreads() const { return threads() * static_cast<double>(launches); }
};

/// Points into the module it was expanded from (its functions and
/// instructions), which must outlive it.
struct ExecutedKernel {
  const Function *kernel = nullptr;
  std::vector<ExecutedInstruction> sequence;
  std::vector<LoopReport> loops;  ///< loops of the kernel and of inlined functions
  double executedInstructions = 0; ///< sum of the weights (loop control included only if kept)
  std::uint64_t iterationsPerLoop = 0; ///< the sampling cap chosen; 0 if nothing was sampled
  Diagnostics warnings;            ///< unusual control flow (irreducible loops, indirect branches)
  std::vector<RareBranchReport> rareBranches; ///< once per branch, in the order first met
  LaunchSize launch;                          ///< the launch this sequence was read for
};

/// Expands `kernel` of `module` for the representative thread of
/// `assumptions`.
///
/// Order: blocks in source order; a loop is written where its first block
/// is, iteration after iteration. A branch whose sides are not loops keeps
/// both sides, each once per pass, with weight 1 (as the v1 rules read
/// straight-line code), unless its condition is known for every thread or
/// one side is rare (RareBranchReport). A loop whose exit test sits before its last block
/// runs those later blocks one time fewer. A loop whose count depends on
/// an enclosing loop's induction variable (a triangular nest) is counted
/// again for every written iteration of the enclosing loop.
ExecutedKernel expandKernel(const Module &module, const Function &kernel,
                            const LaunchAssumptions &assumptions,
                            const ExpansionOptions &options = {});
/// The result points into the module: expanding a temporary one is refused.
ExecutedKernel expandKernel(Module &&module, const Function &kernel, const LaunchAssumptions &assumptions,
                            const ExpansionOptions &options = {}) = delete;

} // namespace ptxdvfs::ptx::analysis
