// Neighbours.h - the k training applications whose log-scaled instruction mix is closest.
#pragma once

#include "ptxdvfs/model/BaselineData.h"
#include "ptxdvfs/model/Evaluation.h"

#include <map>
#include <vector>

namespace ptxdvfs::model {

/// A mix with every share s replaced by log(1 + 1000 s) / log(1001)
/// (0 stays 0, 1 stays 1), the scale of DvfsModelOptions::log_mix. On
/// shares, a loop of 4 operations per load and one of 64 differ by 0.02 in
/// load share; on this scale by a third of the range, so the distance sees
/// operations per load, which decides whether a short loop is
/// bandwidth-bound.
InstructionHistogram logScaled(const InstructionHistogram &histogram);

/// L1 distance of two (log-scaled) mixes, summed over all three blocks.
double mixL1Distance(const InstructionHistogram &a, const InstructionHistogram &b);

/// k-nearest-neighbour surfaces: an application's predicted surface is the
/// geometric mean (scaling factors are ratios) of the measured surfaces of
/// the k training applications whose log-scaled mixes are closest in L1
/// (ties go to the earlier application).
///
/// k is fitted, not set: each candidate is scored by leave-one-family-out
/// over the training applications (an application's own family, see
/// familyOf(), is hidden from it, as a held-out family's siblings are in
/// grouped CV), and the lowest score wins, the smaller k on ties. The
/// score of a candidate is the mean over applications of the mean relative
/// error of the three factors plus the energy above the true minimum at
/// the predicted minimum-energy point (fractions). Deterministic.
class NearestNeighbours {
public:
  static const std::vector<int> &defaultCandidates();

  explicit NearestNeighbours(const BaselineData &data,
                             const std::vector<int> &candidates = defaultCandidates());

  /// The fitted number of neighbours.
  int k() const { return k_; }
  /// Leave-one-family-out score of each candidate k (lower is better);
  /// empty when no application has a training application outside its
  /// family (then k is the middle candidate).
  const std::map<int, double> &selectionScores() const { return scores_; }

  /// The geometric mean of the surfaces of the k() nearest applications.
  Surface predict(const InstructionHistogram &histogram) const;

  /// What predict() rests on: the k() nearest training applications
  /// (indices into the BaselineData, nearest first), their geometric mean,
  /// and their standard deviation around it at each V-F point (how much
  /// the neighbours disagree; zero for k = 1).
  struct Neighbourhood {
    std::vector<std::size_t> applications;
    Surface mean;
    Surface spread;
  };
  Neighbourhood neighbourhood(const InstructionHistogram &histogram) const;

private:
  /// Indices of the `count` nearest applications to `histogram` (log-scaled),
  /// nearest first, skipping those for which `hidden` is true.
  std::vector<std::size_t> nearest(const InstructionHistogram &logHistogram, std::size_t count,
                                   const std::vector<bool> &hidden) const;
  Surface geometricMean(const std::vector<std::size_t> &applications, std::size_t count) const;

  std::vector<InstructionHistogram> logHistograms_;
  std::vector<Surface> surfaces_;
  std::map<int, double> scores_;
  int k_ = 1;
};

} // namespace ptxdvfs::model
