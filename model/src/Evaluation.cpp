// Evaluation.cpp - error statistics, the minimum-energy choice and Pareto sets.
#include "ptxdvfs/model/Evaluation.h"

#include <algorithm>
#include <cmath>

namespace ptxdvfs::model {

std::size_t chooseMinEnergyPoint(const SurfacePrediction &prediction, double risk, double maxTime) {
  std::size_t best = 0;
  double bestScore = INFINITY;
  for (std::size_t p = 0; p < prediction.mean.size(); ++p) {
    if (prediction.mean[p][kTime] > maxTime)
      continue;
    double score = prediction.mean[p][kEnergy] + risk * prediction.spread[p][kEnergy];
    if (score < bestScore) {
      bestScore = score;
      best = p;
    }
  }
  return best;
}


std::size_t minEnergyPoint(const Surface &surface) {
  std::size_t best = 0;
  for (std::size_t p = 1; p < surface.size(); ++p)
    if (surface[p][kEnergy] < surface[best][kEnergy])
      best = p;
  return best;
}

std::vector<std::size_t> paretoPoints(const Surface &surface) {
  // Faster means a smaller time factor; a point is dominated when another
  // is at least as fast and as frugal, and strictly better in one.
  std::vector<std::size_t> front;
  for (std::size_t p = 0; p < surface.size(); ++p) {
    bool dominated = false;
    for (std::size_t q = 0; q < surface.size() && !dominated; ++q) {
      bool noWorse = surface[q][kTime] <= surface[p][kTime] &&
                     surface[q][kEnergy] <= surface[p][kEnergy];
      bool better = surface[q][kTime] < surface[p][kTime] ||
                    surface[q][kEnergy] < surface[p][kEnergy];
      dominated = noWorse && better;
    }
    if (!dominated)
      front.push_back(p);
  }
  return front;
}

EvaluationResult evaluateSurfaces(const std::vector<Surface> &predicted,
                                  const std::vector<Surface> &truth, std::size_t fmaxIndex,
                                  std::size_t referenceIndex,
                                  const std::vector<std::size_t> &chosenPoints) {
  EvaluationResult result;
  result.benchmarks = truth.size();
  result.vfPoints = truth.empty() ? 0 : truth.front().size();
  std::array<ErrorSummary *, 3> summaries = {&result.time, &result.power, &result.energy};
  std::size_t predictions = 0;
  for (std::size_t b = 0; b < truth.size(); ++b) {
    const Surface &guess = predicted[b], &real = truth[b];
    for (std::size_t p = 0; p < real.size(); ++p) {
      for (std::size_t m = 0; m < 3; ++m) {
        double error = std::fabs(guess[p][m] - real[p][m]) / real[p][m];
        summaries[m]->mape += error;
        summaries[m]->within10 += error <= 0.10 ? 1 : 0;
      }
      ++predictions;
    }
    std::size_t chosen = chosenPoints.empty() ? minEnergyPoint(guess) : chosenPoints[b];
    std::size_t oracle = minEnergyPoint(real);
    double energy = real[chosen][kEnergy];
    result.minEnergy.excessVsOracle += energy / real[oracle][kEnergy] - 1;
    result.minEnergy.savingVsFmax += 1 - energy / real[fmaxIndex][kEnergy];
    result.minEnergy.savingVsReference += 1 - energy / real[referenceIndex][kEnergy];

    std::vector<std::size_t> guessed = paretoPoints(guess), actual = paretoPoints(real);
    std::vector<std::size_t> common;
    std::set_intersection(guessed.begin(), guessed.end(), actual.begin(), actual.end(),
                          std::back_inserter(common));
    result.pareto.precision += double(common.size()) / double(guessed.size());
    result.pareto.recall += double(common.size()) / double(actual.size());
  }
  if (predictions > 0)
    for (ErrorSummary *summary : summaries) {
      summary->mape *= 100.0 / double(predictions);
      summary->within10 *= 100.0 / double(predictions);
    }
  if (!truth.empty()) {
    double scale = 100.0 / double(truth.size());
    result.minEnergy.excessVsOracle *= scale;
    result.minEnergy.savingVsFmax *= scale;
    result.minEnergy.savingVsReference *= scale;
    result.pareto.precision *= scale;
    result.pareto.recall *= scale;
  }
  return result;
}

} // namespace ptxdvfs::model
