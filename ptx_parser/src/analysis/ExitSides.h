// ExitSides.h - one side of a loop's exit comparison, as a function of the
// iteration: shared by the trip-count solver and the reading of each side.
#pragma once

#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include "IntegerSemantics.h"

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
    return subtractsVariable ? wrappingSub(offset, variable) : wrappingAdd(variable, offset);
  }
};

/// Searches for the exit no further than this many iterations: a loop
/// that has not left by then is reported as not understood.
inline constexpr std::uint64_t kMaxExitSearch = std::uint64_t{1} << 40;
inline constexpr const char *kNoEndWithinSearch = "the loop does not end within 2^40 iterations for these values";

/// The last iteration (1-based) in which no added counter of the test has
/// wrapped, in its own type or in the comparison's: up to there each side
/// moves one way, so the test's outcome changes at most once.
std::uint64_t lastIterationBeforeWrap(const ExitSide &left, const ExitSide &right, IntType comparison);

/// The first iteration (1-based) whose test leaves, for a test whose
/// outcome changes at most once up to iteration `unwrapped`: found by
/// doubling, then halving. nullopt when it stays past kMaxExitSearch.
template <typename Stays>
std::optional<std::uint64_t> firstLeavingIteration(Stays &stays, std::uint64_t unwrapped) {
  std::uint64_t low = 0, high = 1;
  // Doubling must not step over the exit to where a counter has wrapped
  // and the test holds again (`i < 2000000000` in 32 bits: 2^31 reads
  // as -2^31): the last unwrapped iteration is tried on the way.
  while (high <= kMaxExitSearch) {
    if (low < unwrapped && unwrapped < high && !stays(unwrapped)) {
      high = unwrapped;
      break;
    }
    if (!stays(high))
      break;
    low = high;
    high *= 2;
  }
  if (high > kMaxExitSearch)
    return std::nullopt;
  while (high - low > 1) {
    std::uint64_t middle = low + (high - low) / 2;
    (stays(middle) ? low : high) = middle;
  }
  return high;
}

} // namespace ptxdvfs::ptx::analysis
