// CountText.h - counts the analysis gives as doubles (executions per thread, mean trip counts), written for people.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

namespace ptxdvfs::tools {

/// `count` rounded to a whole number; past what a long long holds (a loop
/// of 2^63 passes, which llround cannot round) in scientific form, 9.223e+18.
inline std::string wholeCountText(double count) {
  if (std::fabs(count) < 9.0e18)
    return std::to_string(std::llround(count));
  std::ostringstream text;
  text.precision(4);
  text << count;
  return text.str();
}

} // namespace ptxdvfs::tools
