// Evaluation.h - accuracy of predicted scaling surfaces, and the decisions taken from them.
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <vector>

namespace ptxdvfs::model {

/// Time, power and energy scaling factors at every V-F point of one
/// application, in GpuClocks::grid() order.
using Surface = std::vector<std::array<double, 3>>;

inline constexpr std::size_t kTime = 0, kPower = 1, kEnergy = 2;

/// One application's predicted surface: the mean and the spread of the
/// predictions behind it (an ensemble's members, a predictor's neighbours)
/// at each V-F point, in the same units; all zero when there is none.
struct SurfacePrediction {
  Surface mean;
  Surface spread;
};

/// The V-F point to run at for least energy. Risk 0 takes the argmin of the
/// mean predicted energy; risk r > 0 minimises mean + r x spread, an upper
/// quantile of the members' predictions (r = 1 is about the 84th percentile
/// if they spread normally), which avoids points the members disagree on.
/// The one selection rule behind `evaluate` and `recommend`. Points whose
/// mean time factor exceeds `maxTime` are not considered (a slowdown
/// bound); 0 when none is left.
std::size_t chooseMinEnergyPoint(const SurfacePrediction &prediction, double risk,
                                 double maxTime = std::numeric_limits<double>::infinity());

struct ErrorSummary {
  double mape = 0;     ///< mean of |predicted - true| / true, percent
  double within10 = 0; ///< share of predictions within 10% of the truth, percent
};

/// The minimum-energy use case, averaged over applications, percent.
struct MinEnergySummary {
  double excessVsOracle = 0;    ///< energy at the chosen point above the true minimum
  double savingVsFmax = 0;      ///< energy saved by the chosen point against Fmax
  double savingVsReference = 0; ///< ... against the reference (default) point
};

/// Speedup (1 / time) against normalised energy: how well the predicted
/// Pareto-optimal points match the true ones, averaged over applications.
struct ParetoSummary {
  double precision = 0; ///< share of predicted Pareto points that are truly Pareto-optimal
  double recall = 0;    ///< share of true Pareto points that were predicted
};

struct EvaluationResult {
  ErrorSummary time, power, energy;
  MinEnergySummary minEnergy;
  ParetoSummary pareto;
  std::size_t benchmarks = 0;
  std::size_t vfPoints = 0;
};

/// The point with the lowest energy of a surface (first on ties).
std::size_t minEnergyPoint(const Surface &surface);

/// Indices of the points no other point beats in both speed and energy.
std::vector<std::size_t> paretoPoints(const Surface &surface);

/// Compares predicted with measured surfaces (same order and size).
/// `fmaxIndex` and `referenceIndex` locate those points in the grid. The
/// minimum-energy point of each application is `chosen[i]`, or the
/// predicted surface's minEnergyPoint() when `chosen` is empty.
EvaluationResult evaluateSurfaces(const std::vector<Surface> &predicted,
                                  const std::vector<Surface> &truth, std::size_t fmaxIndex,
                                  std::size_t referenceIndex,
                                  const std::vector<std::size_t> &chosen = {});

} // namespace ptxdvfs::model
