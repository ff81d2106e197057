// Neighbours.h - the k training applications whose log-scaled instruction mix is closest.
#pragma once

#include "ptxdvfs/model/BaselineData.h"
#include "ptxdvfs/model/Evaluation.h"

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ptxdvfs::model {

/// A mix with every share s replaced by log(1 + 1000 s) / log(1001)
/// (0 stays 0, 1 stays 1), the scale of DvfsModelOptions::log_mix. On
/// shares, a loop of 4 operations per load and one of 64 differ by 0.02 in
/// load share; on this scale by a third of the range, so the distance sees
/// operations per load, which decides whether a short loop is
/// bandwidth-bound.
InstructionHistogram logScaled(const InstructionHistogram &histogram);

/// L1 distance of two (log-scaled) mixes, summed over the opcode, space
/// and type blocks.
double mixL1Distance(const InstructionHistogram &a, const InstructionHistogram &b);

/// L1 distance of the execution-unit blocks of two (log-scaled) mixes.
double unitMixL1Distance(const InstructionHistogram &a, const InstructionHistogram &b);

/// Which part of the mix neighbours are found by.
enum class NeighbourFeatures {
  /// The opcode, space and type blocks (`knn_log_histogram`).
  InstructionMix,
  /// The execution-unit block only (`knn_unit_mix`): programs that keep
  /// the same units equally busy are neighbours whatever opcodes they do
  /// it with, so a real kernel's integer and control opcodes do not make it
  /// unlike every microbenchmark. Its lead over the opcode mix in
  /// family-grouped CV came from twins; with them held out it is no better
  /// than the mean surface (docs/model.md, "Twins").
  ExecutionUnits,
};

/// k-nearest-neighbour surfaces: an application's predicted surface is the
/// geometric mean (scaling factors are ratios) of the measured surfaces of
/// the k training applications whose log-scaled mixes are closest in L1
/// (ties go to the earlier application).
///
/// k is fitted, not set: each candidate is scored by leave-one-group-out
/// over the training applications (an application's group, see
/// heldOutGroups(), is hidden from it, as in grouped CV), and the lowest
/// score wins, the smaller k on ties. The
/// score of a candidate is the mean over applications of the mean relative
/// error of the three factors plus the energy above the true minimum at
/// the predicted minimum-energy point (fractions). Deterministic.
///
/// Optionally (`knn_toward_mean`), a prediction far from every training
/// application is pulled towards the geometric mean of all training
/// surfaces (the constant surface): with d the mean distance to the k
/// neighbours, log prediction = (1 - w) log neighbours + w log mean,
/// w = d / (d + D). The pull distance D is fitted with k, on the same
/// score, from the candidates given as multiples of the median
/// leave-one-family-out neighbour distance (infinity: no pull). Why: a
/// program unlike anything measured (a real kernel's mix against the
/// microbenchmarks', 2-4x further than a held-out family's) may be better
/// served by the average than by whichever programs are least unlike it.
class NearestNeighbours {
public:
  static const std::vector<int> &defaultCandidates();
  /// Candidate pull distances as multiples of the median leave-one-family-out
  /// distance to the nearest neighbour; infinity means no pull. The default
  /// is no pull (`knn_log_histogram`); `knn_toward_mean` fits one of
  /// towardMeanPullCandidates() (infinity, 4, 2, 1, 0.5, 0.25).
  static const std::vector<double> &defaultPullCandidates();
  static const std::vector<double> &towardMeanPullCandidates();

  explicit NearestNeighbours(const BaselineData &data,
                             const std::vector<int> &candidates = defaultCandidates(),
                             const std::vector<double> &pullCandidates = defaultPullCandidates(),
                             NeighbourFeatures features = NeighbourFeatures::InstructionMix);

  /// The fitted number of neighbours.
  int k() const { return k_; }
  /// The fitted pull distance D (log-mix L1 units; infinity: no pull).
  double pullDistance() const { return pullDistance_; }
  /// Leave-one-family-out score of each candidate k at the fitted pull
  /// distance (lower is better); empty when no application has a training
  /// application outside its family (then k is the middle candidate and
  /// there is no pull).
  const std::map<int, double> &selectionScores() const { return scores_; }

  /// The geometric mean of the surfaces of the k() nearest applications,
  /// pulled towards the training mean by their distance.
  Surface predict(const InstructionHistogram &histogram) const;

  /// What predict() rests on: the k() nearest training applications
  /// (indices into the BaselineData, nearest first) and their log-mix L1
  /// distances, the prediction (`mean`), the weight of the training mean in
  /// it (0: the neighbours alone), and the neighbours' standard deviation
  /// around their own geometric mean at each V-F point (how much they
  /// disagree; zero for k = 1).
  struct Neighbourhood {
    std::vector<std::size_t> applications;
    std::vector<double> distances;
    double pull = 0;
    Surface mean;
    Surface spread;
  };
  Neighbourhood neighbourhood(const InstructionHistogram &histogram) const;

private:
  /// Indices of the `count` nearest applications to `histogram` (log-scaled),
  /// nearest first, skipping those for which `hidden` is true.
  std::vector<std::pair<double, std::size_t>> nearest(const InstructionHistogram &logHistogram,
                                                      std::size_t count,
                                                      const std::vector<bool> &hidden) const;
  Surface geometricMean(const std::vector<std::pair<double, std::size_t>> &applications,
                        std::size_t count) const;
  void fit(const BaselineData &data, const std::vector<int> &candidates,
           const std::vector<double> &pullCandidates);

  std::vector<InstructionHistogram> logHistograms_;
  std::vector<Surface> surfaces_;
  Surface logMean_; // the mean of every training surface's logarithm
  std::map<int, double> scores_;
  NeighbourFeatures features_;
  int k_ = 1;
  double pullDistance_ = std::numeric_limits<double>::infinity();
};

/// Log-scaled mixes closer than this (L1, opcode or unit block) are the
/// same program to a nearest-neighbour predictor.
inline constexpr double kTwinDistance = 0.05;

/// What is hidden together when one application is held out: its family
/// (familyOf()) and every application whose log-scaled opcode mix, or unit
/// mix where every mix has one, is within kTwinDistance of a member, and so
/// on transitively. Per application, a label naming the group's families
/// (sorted, joined by '+'); a label is its own familyOf().
///
/// Why: 82 of the 140 microbenchmarks have a twin in another family
/// (`sp_add_16` and `sp_mul_16` keep the same units busy in the same
/// shares), so leave-one-family-out let a neighbour predictor look the
/// answer up, which no real application allows. Grouped CV and the fitting
/// of k hold out these groups instead (docs/model.md, "Twins").
std::vector<std::string> heldOutGroups(const BaselineData &data);

/// The fitted neighbours of a neighbour baseline: `knn_log_histogram` (no
/// pull), `knn_toward_mean` (pull fitted with k) or `knn_unit_mix` (no
/// pull, by execution units; nullptr where offersBaseline() says no); nullptr
/// for any other name. The one place that says which is which, for
/// Baselines (training, evaluate) and the card predictors (predict, lint).
std::unique_ptr<NearestNeighbours> fitNeighbourBaseline(const BaselineData &data,
                                                        const std::string &name);

} // namespace ptxdvfs::model
