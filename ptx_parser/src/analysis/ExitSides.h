// ExitSides.h - one side of a loop's exit comparison, as a function of the
// iteration: shared by the trip-count solver and the reading of each side.
#pragma once

#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include <cstdint>
#include <optional>

namespace ptxdvfs::ptx::analysis {

/// One side of the exit comparison, as a function of the iteration.
struct ExitSide {
  std::optional<InductionVariable> induction; ///< empty: loop-invariant `value`
  bool afterUpdate = false; ///< reads the variable after this iteration's update
  std::int64_t offset = 0;  ///< plus a loop-invariant (`add %r7, %iv, 1` then compared)
  bool subtractsVariable = false; ///< offset minus the variable (`sub %r6, %n, %iv`)
  Value value;              ///< the invariant value, or the variable's initial value
  Value offsetValue = Value::constant(0); ///< where `offset` came from
  bool initialIsBound = false; ///< the variable's initial value is only its upper bound

  std::int64_t at(std::uint64_t k) const { // k: 1-based iteration
    if (!induction)
      return *value.number;
    std::int64_t variable = induction->atIteration(afterUpdate ? k : k - 1);
    return subtractsVariable ? offset - variable : variable + offset;
  }
};

} // namespace ptxdvfs::ptx::analysis
