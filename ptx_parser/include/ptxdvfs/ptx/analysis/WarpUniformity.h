// WarpUniformity.h - which registers, and which load addresses, can differ between the lanes of a warp.
#pragma once

#include "ptxdvfs/ptx/analysis/Values.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::ptx::analysis {

/// Divergence analysis of one function: a register is *varying* if two
/// lanes of one warp may hold different values in it, else *uniform*.
///
/// Why it matters: a load whose address is uniform reads one location for
/// the whole warp (a broadcast from cache), so it moves none of the DRAM
/// bandwidth that a load with 32 addresses moves. nvcc keeps such loads as
/// `ld.global` (`coefficients[k]` in a loop, a row of `A` in a naive
/// GEMM), and a reading that counts them as streaming loads takes a
/// compute-bound kernel for a bandwidth-bound one.
///
/// What varies:
/// - `%tid.x`, `%laneid` and the `%lanemask_*` registers. `%tid.y` and
///   `%tid.z` count as uniform: a warp holds consecutive x first, so with
///   `blockDim.x >= 32` they are constant in it, and with 16 or 8 they take
///   2 or 4 values, still a broadcast, not 32 streams;
/// - what reads a varying register (a guard counts as read);
/// - loads from `.local` (each thread has its own), loads through a
///   varying address, `ld.param` inside a `.func` (the arguments of its
///   calls are not followed), and the results of `atom`, `shfl`, `match`,
///   `call` and texture or surface reads with varying coordinates;
/// - registers read after a join of a divergent branch (one whose guard
///   varies), where they arrive with different definitions from its two
///   sides (sync dependence; the lanes meet again at the branch's
///   immediate post-dominator). An early `if (i >= n) return;` joins
///   nothing that is read, so it leaves the rest of the kernel uniform;
/// - after a loop whose exit branch diverges, whatever the loop defines
///   (lanes leave after different iterations).
///
/// Flow-insensitive on register names (a name varies everywhere if it
/// varies anywhere), so it errs towards "varying", which keeps a load
/// counted as a streaming one.
class WarpUniformity {
public:
  /// `graph.function` must be set; `.entry` parameters are uniform, `.func`
  /// parameters varying.
  explicit WarpUniformity(const ControlFlowGraph &graph);

  bool varies(std::string_view reg) const { return varying_.count(reg) > 0; }
  /// Whether some lane of a warp may address another location than the
  /// others: true for any instruction without an address operand.
  bool addressVaries(const Instruction &instruction) const;
  /// Whether this load reads global memory at one address per warp:
  /// `ld`/`ldu` of `.global` whose address is uniform. (Generic loads are
  /// left out: a uniform generic address may point into each thread's own
  /// stack.)
  bool isWarpUniformGlobalLoad(const Instruction &instruction) const;

private:
  bool operandVaries(const Operand &operand) const;
  bool resultVaries(const Instruction &instruction) const;
  bool markDestinations(std::uint32_t index);
  bool markDivergentJoins(const LaunchAssumptions &launch, std::optional<ValueEvaluator> &values,
                          std::set<std::uint32_t> &handled);
  /// Registers read in the marked blocks.
  std::set<std::string_view> registersRead(const std::vector<bool> &blocks) const;

  const ControlFlowGraph &graph_;
  std::optional<PostDominatorTree> postDominators_;
  std::vector<std::vector<std::string>> destinations_; ///< per instruction of the graph
  std::set<std::string, std::less<>> varying_;
};

} // namespace ptxdvfs::ptx::analysis
