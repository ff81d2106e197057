// Neighbours.cpp - log-scaled mix distances, the leave-one-family-out choice of k, geometric means.
#include "ptxdvfs/model/Neighbours.h"

#include "ptxdvfs/model/Splits.h"
#include "ptxdvfs/model/InstructionMix.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <string>

namespace ptxdvfs::model {

InstructionHistogram logScaled(const InstructionHistogram &histogram) {
  InstructionHistogram scaled;
  for (const auto &[feature, share] : histogram)
    scaled[feature] = static_cast<float>(std::log1p(kLogMixScale * share) / std::log1p(kLogMixScale));
  return scaled;
}

namespace {

/// L1 distance of the features [first, last) of two mixes.
double l1Distance(const InstructionHistogram &a, const InstructionHistogram &b, int64_t first,
                  int64_t last) {
  double total = 0;
  auto i = a.lower_bound(first), j = b.lower_bound(first);
  auto aEnd = a.lower_bound(last), bEnd = b.lower_bound(last);
  while (i != aEnd || j != bEnd) {
    if (j == bEnd || (i != aEnd && i->first < j->first)) {
      total += std::fabs(i->second);
      ++i;
    } else if (i == aEnd || j->first < i->first) {
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

} // namespace

double mixL1Distance(const InstructionHistogram &a, const InstructionHistogram &b) {
  return l1Distance(a, b, 0, kMixWidth);
}

double unitMixL1Distance(const InstructionHistogram &a, const InstructionHistogram &b) {
  return l1Distance(a, b, kMixWidth, kHistogramFeatures);
}

std::vector<std::string> heldOutGroups(const BaselineData &data) {
  std::size_t count = data.names.size();
  std::vector<std::size_t> parent(count);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](std::size_t a) {
    while (parent[a] != a)
      a = parent[a] = parent[parent[a]];
    return a;
  };
  std::vector<std::string> families;
  std::vector<InstructionHistogram> logMixes;
  for (std::size_t a = 0; a < count; ++a) {
    families.push_back(familyOf(data.names[a]));
    logMixes.push_back(logScaled(data.histograms[a]));
  }
  bool units = hasUnitBlocks(data);
  for (std::size_t a = 0; a < count; ++a)
    for (std::size_t b = a + 1; b < count; ++b)
      if (families[a] == families[b] || mixL1Distance(logMixes[a], logMixes[b]) < kTwinDistance ||
          (units && unitMixL1Distance(logMixes[a], logMixes[b]) < kTwinDistance))
        parent[root(a)] = root(b);
  std::map<std::size_t, std::set<std::string>> members;
  for (std::size_t a = 0; a < count; ++a)
    members[root(a)].insert(families[a]);
  std::vector<std::string> groups;
  for (std::size_t a = 0; a < count; ++a) {
    std::string label;
    for (const std::string &family : members[root(a)])
      label += (label.empty() ? "" : "+") + family;
    groups.push_back(std::move(label));
  }
  return groups;
}

const std::vector<int> &NearestNeighbours::defaultCandidates() {
  static const std::vector<int> candidates = {1, 2, 3, 4, 5, 7};
  return candidates;
}

const std::vector<double> &NearestNeighbours::defaultPullCandidates() {
  static const std::vector<double> none = {std::numeric_limits<double>::infinity()};
  return none;
}

const std::vector<double> &NearestNeighbours::towardMeanPullCandidates() {
  static const std::vector<double> candidates = {std::numeric_limits<double>::infinity(), 4, 2, 1,
                                                 0.5, 0.25};
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

/// The weight of the training mean for an application whose neighbours lie
/// `distance` away, at pull distance `pull` (infinity: none).
double pullWeight(double distance, double pull) {
  if (std::isinf(pull) || distance <= 0)
    return 0;
  return distance / (distance + pull);
}

/// exp((1 - weight) log surface + weight logMean), point by point.
Surface pulledTowards(const Surface &surface, const Surface &logMean, double weight) {
  if (weight == 0)
    return surface;
  Surface result = surface;
  for (std::size_t p = 0; p < result.size(); ++p)
    for (std::size_t m = 0; m < 3; ++m)
      result[p][m] = std::exp((1 - weight) * std::log(surface[p][m]) + weight * logMean[p][m]);
  return result;
}

/// The sum of the logarithms of the given surfaces.
Surface logSum(const std::vector<Surface> &surfaces, const std::vector<std::size_t> &which) {
  Surface total(surfaces.front().size(), {0, 0, 0});
  for (std::size_t a : which)
    for (std::size_t p = 0; p < total.size(); ++p)
      for (std::size_t m = 0; m < 3; ++m)
        total[p][m] += std::log(surfaces[a][p][m]);
  return total;
}

double meanDistance(const std::vector<std::pair<double, std::size_t>> &order, std::size_t count) {
  count = std::min(count, order.size());
  double total = 0;
  for (std::size_t i = 0; i < count; ++i)
    total += order[i].first;
  return total / static_cast<double>(count);
}

} // namespace

NearestNeighbours::NearestNeighbours(const BaselineData &data, const std::vector<int> &candidates,
                                     const std::vector<double> &pullCandidates,
                                     NeighbourFeatures features)
    : surfaces_(data.surfaces), features_(features) {
  for (const InstructionHistogram &histogram : data.histograms)
    logHistograms_.push_back(logScaled(histogram));
  std::vector<std::size_t> everyone(surfaces_.size());
  std::iota(everyone.begin(), everyone.end(), 0);
  logMean_ = logSum(surfaces_, everyone);
  for (auto &point : logMean_)
    for (double &value : point)
      value /= static_cast<double>(surfaces_.size());
  if (!candidates.empty())
    fit(data, candidates, pullCandidates);
}

void NearestNeighbours::fit(const BaselineData &data, const std::vector<int> &candidates,
                            const std::vector<double> &pullCandidates) {
  k_ = candidates[candidates.size() / 2];
  std::size_t count = surfaces_.size();
  std::map<std::string, std::vector<std::size_t>> members;
  std::vector<std::string> groups = heldOutGroups(data);
  for (std::size_t a = 0; a < count; ++a)
    members[groups[a]].push_back(a);
  std::map<std::string, Surface> groupLogSums;
  for (const auto &[group, which] : members)
    groupLogSums[group] = logSum(surfaces_, which);
  Surface totalLogSum = logMean_;
  for (auto &point : totalLogSum)
    for (double &value : point)
      value *= static_cast<double>(count);

  // Each application seen with its group hidden: its neighbours and the
  // mean of the other groups' surfaces.
  struct LeftOut {
    std::size_t application;
    std::vector<std::pair<double, std::size_t>> order;
    Surface logMean;
  };
  std::vector<LeftOut> leftOut;
  int largest = *std::max_element(candidates.begin(), candidates.end());
  for (std::size_t a = 0; a < count; ++a) {
    std::vector<bool> hidden(count);
    for (std::size_t b = 0; b < count; ++b)
      hidden[b] = groups[b] == groups[a];
    auto order = nearest(logHistograms_[a], static_cast<std::size_t>(largest), hidden);
    if (order.empty())
      continue;
    double others = static_cast<double>(count - members[groups[a]].size());
    Surface logMean = totalLogSum;
    for (std::size_t p = 0; p < logMean.size(); ++p)
      for (std::size_t m = 0; m < 3; ++m)
        logMean[p][m] = (logMean[p][m] - groupLogSums[groups[a]][p][m]) / others;
    leftOut.push_back({a, std::move(order), std::move(logMean)});
  }
  if (leftOut.empty())
    return;

  std::vector<double> nearestDistances;
  for (const LeftOut &item : leftOut)
    nearestDistances.push_back(item.order.front().first);
  std::nth_element(nearestDistances.begin(),
                   nearestDistances.begin() + static_cast<std::ptrdiff_t>(nearestDistances.size() / 2),
                   nearestDistances.end());
  double typical = nearestDistances[nearestDistances.size() / 2];

  double bestScore = std::numeric_limits<double>::infinity();
  for (double multiple : pullCandidates) {
    double pull = std::isinf(multiple) ? multiple : multiple * typical;
    std::map<int, double> scores;
    for (int k : candidates) {
      auto neighbours = static_cast<std::size_t>(k);
      double total = 0;
      for (const LeftOut &item : leftOut) {
        Surface predicted =
            pulledTowards(geometricMean(item.order, neighbours), item.logMean,
                          pullWeight(meanDistance(item.order, neighbours), pull));
        total += choiceAndFitError(predicted, surfaces_[item.application]);
      }
      scores[k] = total / static_cast<double>(leftOut.size());
      // Ties go to the earlier candidate: no pull before a pull, fewer neighbours before more.
      if (scores[k] < bestScore) {
        bestScore = scores[k];
        k_ = k;
        pullDistance_ = pull;
      }
    }
    if (pull == pullDistance_)
      scores_ = scores;
  }
}

std::vector<std::pair<double, std::size_t>>
NearestNeighbours::nearest(const InstructionHistogram &logHistogram, std::size_t count,
                           const std::vector<bool> &hidden) const {
  std::vector<std::pair<double, std::size_t>> ranked;
  for (std::size_t b = 0; b < logHistograms_.size(); ++b)
    if (hidden.empty() || !hidden[b])
      ranked.emplace_back(features_ == NeighbourFeatures::ExecutionUnits
                              ? unitMixL1Distance(logHistogram, logHistograms_[b])
                              : mixL1Distance(logHistogram, logHistograms_[b]),
                          b);
  count = std::min(count, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(count),
                    ranked.end());
  ranked.resize(count);
  return ranked;
}

Surface NearestNeighbours::geometricMean(const std::vector<std::pair<double, std::size_t>> &applications,
                                         std::size_t count) const {
  count = std::min(count, applications.size());
  Surface mean(surfaces_[applications.front().second].size(), {0, 0, 0});
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t p = 0; p < mean.size(); ++p)
      for (std::size_t m = 0; m < 3; ++m)
        mean[p][m] += std::log(surfaces_[applications[i].second][p][m]);
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
  auto order = nearest(logScaled(histogram), static_cast<std::size_t>(k_), {});
  Neighbourhood result;
  for (const auto &[distance, application] : order) {
    result.applications.push_back(application);
    result.distances.push_back(distance);
  }
  Surface neighbours = geometricMean(order, order.size());
  result.pull = pullWeight(meanDistance(order, order.size()), pullDistance_);
  result.mean = pulledTowards(neighbours, logMean_, result.pull);
  result.spread.assign(neighbours.size(), {0, 0, 0});
  double count = static_cast<double>(order.size());
  for (std::size_t p = 0; p < neighbours.size(); ++p)
    for (std::size_t m = 0; m < 3; ++m) {
      double squares = 0;
      for (std::size_t a : result.applications)
        squares += std::pow(surfaces_[a][p][m] - neighbours[p][m], 2);
      result.spread[p][m] = std::sqrt(squares / count);
    }
  return result;
}

std::unique_ptr<NearestNeighbours> fitNeighbourBaseline(const BaselineData &data,
                                                        const std::string &name) {
  if (name == "knn_log_histogram")
    return std::make_unique<NearestNeighbours>(data);
  if (name == "knn_toward_mean")
    return std::make_unique<NearestNeighbours>(data, NearestNeighbours::defaultCandidates(),
                                               NearestNeighbours::towardMeanPullCandidates());
  if (name == "knn_unit_mix" && offersBaseline(data, name))
    return std::make_unique<NearestNeighbours>(data, NearestNeighbours::defaultCandidates(),
                                               NearestNeighbours::defaultPullCandidates(),
                                               NeighbourFeatures::ExecutionUnits);
  return nullptr;
}

} // namespace ptxdvfs::model
