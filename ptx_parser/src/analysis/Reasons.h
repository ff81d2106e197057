// Reasons.h - the list of assumptions and unknowns a value, count or loop report rests on.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace ptxdvfs::ptx::analysis {

/// Appends each reason of `from` that `into` does not hold yet, in order.
inline void appendReasons(std::vector<std::string> &into, const std::vector<std::string> &from) {
  for (const std::string &reason : from)
    if (std::find(into.begin(), into.end(), reason) == into.end())
      into.push_back(reason);
}

/// Joins the reasons that give launch dimensions of one register from one
/// source ("%ntid.x = 256 (default; set --block)", then .y, .z) into one
/// ("%ntid.x,y,z = 256,1,1 (default; set --block)"), where the first stood,
/// so a loop over a 3-D launch does not list six lines of geometry.
/// Defined beside the code that writes those reasons (LaunchValues.cpp).
void foldLaunchReasons(std::vector<std::string> &why);

/// Folds the provenance of `from` (its origin and reasons) into `into`: a
/// count or value computed from it rests on what it rests on.
template <typename Into, typename From>
void mergeProvenance(Into &into, const From &from) {
  into.origin = std::max(into.origin, from.origin);
  appendReasons(into.why, from.why);
}

} // namespace ptxdvfs::ptx::analysis
