// Neighbours.cpp - log-scaled mix distances, the leave-one-family-out choice of k, geometric means.
#include "ptxdvfs/model/Neighbours.h"

#include "ptxdvfs/model/Splits.h"
#include "ptxdvfs/model/InstructionMix.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace ptxdvfs::model {

InstructionHistogram logScaled(const InstructionHistogram &histogram) {
  InstructionHistogram scaled;
  for (const auto &[feature, share] : histogram)
    scaled[feature] = static_cast<float>(std::log1p(kLogMixScale * share) / std::log1p(kLogMixScale));
  return scaled;
}

double mixL1Distance(const InstructionHistogram &a, const InstructionHistogram &b) {
  double total = 0;
  auto i = a.begin(), j = b.begin();
  while (i != a.end() || j != b.end()) {
    if (j == b.end() || (i != a.end() && i->first < j->first)) {
      total += std::fabs(i->second);
      ++i;
    } else if (i == a.end() || j->first < i->first) {
      total += std::fabs(j->second);
      ++j;
    } else {
      total += std::fabs(i->second - j->second);
      ++i;
      ++j;
    }
  }
  return total;
}

const std::vector<int> &NearestNeighbours::defaultCandidates() {
  static const std::vector<int> candidates = {1, 2, 3, 4, 5, 7};
  return candidates;
}

namespace {

/// Mean relative error of the three factors plus the energy above the true
/// minimum at the predicted minimum-energy point, both as fractions.
double choiceAndFitError(const Surface &predicted, const Surface &truth) {
  double relative = 0;
  for (std::size_t p = 0; p < truth.size(); ++p)
    for (std::size_t m = 0; m < 3; ++m)
      relative += std::fabs(predicted[p][m] / truth[p][m] - 1);
  relative /= static_cast<double>(truth.size() * 3);
  double chosen = truth[minEnergyPoint(predicted)][kEnergy];
  double best = truth[minEnergyPoint(truth)][kEnergy];
  return relative + (chosen / best - 1);
}

} // namespace

NearestNeighbours::NearestNeighbours(const BaselineData &data, const std::vector<int> &candidates)
    : surfaces_(data.surfaces) {
  for (const InstructionHistogram &histogram : data.histograms)
    logHistograms_.push_back(logScaled(histogram));
  if (candidates.empty())
    return;
  k_ = candidates[candidates.size() / 2];

  std::size_t count = surfaces_.size();
  std::vector<std::string> families;
  for (const std::string &name : data.names)
    families.push_back(familyOf(name));
  int largest = *std::max_element(candidates.begin(), candidates.end());
  std::map<int, double> total;
  std::size_t scored = 0;
  for (std::size_t a = 0; a < count; ++a) {
    std::vector<bool> hidden(count);
    for (std::size_t b = 0; b < count; ++b)
      hidden[b] = families[b] == families[a];
    std::vector<std::size_t> order =
        nearest(logHistograms_[a], static_cast<std::size_t>(largest), hidden);
    if (order.empty())
      continue;
    ++scored;
    for (int k : candidates)
      total[k] += choiceAndFitError(geometricMean(order, static_cast<std::size_t>(k)), surfaces_[a]);
  }
  if (scored == 0)
    return;
  for (int k : candidates)
    scores_[k] = total[k] / static_cast<double>(scored);
  k_ = candidates.front();
  for (int k : candidates)
    if (scores_[k] < scores_[k_] || (scores_[k] == scores_[k_] && k < k_))
      k_ = k;
}

std::vector<std::size_t> NearestNeighbours::nearest(const InstructionHistogram &logHistogram,
                                                    std::size_t count,
                                                    const std::vector<bool> &hidden) const {
  std::vector<std::pair<double, std::size_t>> ranked;
  for (std::size_t b = 0; b < logHistograms_.size(); ++b)
    if (hidden.empty() || !hidden[b])
      ranked.emplace_back(mixL1Distance(logHistogram, logHistograms_[b]), b);
  count = std::min(count, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(count),
                    ranked.end());
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < count; ++i)
    order.push_back(ranked[i].second);
  return order;
}

Surface NearestNeighbours::geometricMean(const std::vector<std::size_t> &applications,
                                         std::size_t count) const {
  count = std::min(count, applications.size());
  Surface mean(surfaces_[applications.front()].size(), {0, 0, 0});
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t p = 0; p < mean.size(); ++p)
      for (std::size_t m = 0; m < 3; ++m)
        mean[p][m] += std::log(surfaces_[applications[i]][p][m]);
  for (auto &point : mean)
    for (double &value : point)
      value = std::exp(value / static_cast<double>(count));
  return mean;
}

Surface NearestNeighbours::predict(const InstructionHistogram &histogram) const {
  return neighbourhood(histogram).mean;
}

NearestNeighbours::Neighbourhood
NearestNeighbours::neighbourhood(const InstructionHistogram &histogram) const {
  Neighbourhood result;
  result.applications = nearest(logScaled(histogram), static_cast<std::size_t>(k_), {});
  result.mean = geometricMean(result.applications, result.applications.size());
  result.spread.assign(result.mean.size(), {0, 0, 0});
  double count = static_cast<double>(result.applications.size());
  for (std::size_t p = 0; p < result.mean.size(); ++p)
    for (std::size_t m = 0; m < 3; ++m) {
      double squares = 0;
      for (std::size_t a : result.applications)
        squares += std::pow(surfaces_[a][p][m] - result.mean[p][m], 2);
      result.spread[p][m] = std::sqrt(squares / count);
    }
  return result;
}

} // namespace ptxdvfs::model
