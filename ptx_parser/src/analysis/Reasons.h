// Reasons.h - the list of assumptions and unknowns a value, count or loop report rests on.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace ptxdvfs::ptx::analysis {

/// Said of a loop whose counter cannot reach its bound from its entry
/// value: the loop itself is skipped. A note about that loop, not a value
/// anything else rests on.
inline constexpr const char *kGuardSkipsLoop =
    "the counter never meets its bound for these values: a guard must skip the loop";

/// Appends each reason of `from` that `into` does not hold yet, in order.
inline void appendReasons(std::vector<std::string> &into, const std::vector<std::string> &from) {
  for (const std::string &reason : from)
    if (std::find(into.begin(), into.end(), reason) == into.end())
      into.push_back(reason);
}

/// Folds the provenance of `from` (its origin and reasons) into `into`: a
/// count or value computed from it rests on what it rests on.
template <typename Into, typename From>
void mergeProvenance(Into &into, const From &from) {
  into.origin = std::max(into.origin, from.origin);
  appendReasons(into.why, from.why);
}

/// Said of a counter whose entry value depends on which path a thread
/// took, where thread 0's own branches lead past the loop: it runs 0 times.
inline constexpr const char *kThreadZeroSkipsLoop = "thread 0's branches lead past this loop";

} // namespace ptxdvfs::ptx::analysis
