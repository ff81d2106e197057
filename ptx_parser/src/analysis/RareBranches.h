// RareBranches.h - branches whose one side only huge or non-finite values take.
#pragma once

#include "ptxdvfs/ptx/analysis/Values.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ptxdvfs::ptx::analysis {

/// Magnitudes at or above this are taken for rare data: CUDA's math
/// library guards its large-argument paths with bounds of 105615 (float
/// sin/cos/tan), 1.5 * 2^24 (fmodf) and 2^31 (double sin/cos), and its
/// infinity and NaN cases with comparisons against infinity.
inline constexpr double kRareMagnitude = 65536.0;

/// The side of a branch that ordinary values take.
struct OrdinarySide {
  bool taken = false;     ///< true: the branch target; false: the fall-through
  std::string condition;  ///< the rare side's test, e.g. "|%f4| >= 105615"
  bool nonFinite = false; ///< the rare side is infinity or NaN, not a large magnitude
};

/// For the branch ending `block`: when its predicate is a floating
/// comparison of an `abs` result against a constant of magnitude at least
/// kRareMagnitude (infinity included), the side a finite value of ordinary
/// size takes. The other side is, in practice, the math library's
/// large-argument reduction (a Payne-Hanek loop over a table, 64-bit
/// integer work, local memory) or its infinity/NaN handling: code a sinf
/// carries but real data almost never runs. nullopt for any other branch.
std::optional<OrdinarySide> ordinarySideOf(const ControlFlowGraph &graph, const ValueEvaluator &values,
                                           std::uint32_t block);

} // namespace ptxdvfs::ptx::analysis
