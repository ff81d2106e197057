// CudaLaunchAgreement.h - what the launches of one kernel agree on, and
// the mean of the sizes where they differ.
#pragma once

#include "CudaCode.h"
#include "CudaConstants.h"
#include "CudaLaunches.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::tools {

/// How many launches of different sizes are averaged at most (each is
/// folded, and a fold may cost as much as the launches before it:
/// `p.n = p.n + 1;` before each); past it the sizes are open.
constexpr std::size_t kMostLaunchesAveraged = 1024;

/// One value every launch of a kernel gives: open once a launch leaves it
/// open, and then no longer folded; where launches differ, an argument is
/// open too (`openIfDifferent`), and a size is the mean of theirs (meanDims()), up
/// to kMostLaunchesAveraged launches.
template <typename T> struct Agreement {
  struct Launch {
    std::optional<T> value; ///< nullopt where it does not fold, and at every launch after a first that does not
    std::uint64_t runs = 1; ///< how many times it launches
    std::string at;
  };
  /// Each launch's value, up to kMostLaunchesAveraged launches (`eachRead`), also where they differ and the value
  /// is open: what the kernel's loops are counted with launch by launch. While `open` is empty, every one folds.
  std::vector<Launch> each;
  bool eachRead = true;
  std::optional<Launch> firstLaunch; ///< the first launch, also past kMostLaunchesAveraged
  std::string how;  ///< what the first launch's value rests on beyond its text (ConstantFolder)
  std::string open; ///< why it is open, for the reason of its default
  bool differs = false; ///< whether two launches give different values

  /// `written` is the expression at the launch at `at`, which `fold(&how)`
  /// folds; `shown` writes a value. Where `openIfDifferent` is set, a
  /// launch whose value is not the first's leaves it open.
  template <typename Fold, typename Show>
  void add(Fold fold, Show shown, std::string_view written, const std::string &at, std::uint64_t runs,
           bool openIfDifferent) {
    if (!open.empty() && !eachRead)
      return;
    std::string nextHow;
    // Open at the first launch (a pointer `cudaMalloc` gives), it is not folded again for the others.
    const bool firstOpen = firstLaunch && !firstLaunch->value;
    Launch next{firstOpen ? std::nullopt : fold(&nextHow), runs, at};
    if (!firstLaunch) {
      firstLaunch = next;
      how = nextHow;
    }
    eachRead = eachRead && each.size() < kMostLaunchesAveraged;
    if (eachRead)
      each.push_back(next);
    else
      each.clear();
    if (!open.empty())
      return;
    const Launch &first = *firstLaunch;
    if (!next.value)
      open = "the launch at " + at + " passes " + quotedCode(written) + ", which the source does not fix" +
             (nextHow.empty() ? "" : ": " + nextHow);
    else if ((differs = differs || *first.value != *next.value) && openIfDifferent)
      open =
          "its launches differ: " + shown(*first.value) + " at " + first.at + ", " + shown(*next.value) + " at " + at;
    else if (differs && !eachRead)
      open = "its launches differ, at more than " + std::to_string(kMostLaunchesAveraged) + " places";
    if (!open.empty())
      how.clear();
  }

  /// The value every launch gives; nullopt where it is open, or nothing launches.
  std::optional<T> first() const { return open.empty() && firstLaunch ? firstLaunch->value : std::nullopt; }
};

/// The sizes of `launches`, where they differ, as their mean weighted by
/// how often each runs, each dimension rounded (so that the kernel's
/// threads add up as its launches' do); `how` says so. The first's where
/// they agree; nullopt where one is open, or the mean is not a block
/// `block` can be.
inline std::optional<ptx::analysis::Dim3> meanDims(Agreement<ptx::analysis::Dim3> &sizes, bool block, bool &isMean) {
  const auto &launches = sizes.each; // every one folds while the sizes are not open
  if (!sizes.differs || !sizes.open.empty())
    return sizes.first();
  constexpr std::size_t kLaunchesNamed = 4;
  double runs = 0, x = 0, y = 0, z = 0;
  std::string each;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const double weight = static_cast<double>(std::max<std::uint64_t>(launches[i].runs, 1));
    runs += weight;
    x += weight * launches[i].value->x;
    y += weight * launches[i].value->y;
    z += weight * launches[i].value->z;
    if (i < kLaunchesNamed)
      each += (i ? ", " : "") + shownDims(*launches[i].value) + " at " + launches[i].at + " (" +
              std::to_string(launches[i].runs) + (launches[i].runs == 1 ? " time)" : " times)");
  }
  if (launches.size() > kLaunchesNamed)
    each += " and " + std::to_string(launches.size() - kLaunchesNamed) + " more";
  auto rounded = [&](double sum) { return static_cast<std::uint32_t>(std::max(1.0, std::round(sum / runs))); };
  const ptx::analysis::Dim3 mean{rounded(x), rounded(y), rounded(z)};
  if (block && !fitsOneBlock(mean)) {
    sizes.open = "its launches differ (" + each + "), and their mean is no block";
    return std::nullopt;
  }
  sizes.how = "the mean of its launches, by how often each runs: " + each;
  isMean = true;
  return mean;
}

} // namespace ptxdvfs::tools
