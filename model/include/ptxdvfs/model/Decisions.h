// Decisions.h - from a predicted surface to the clocks to run at, and what they cost.
#pragma once

#include "ptxdvfs/embeddings/GpuClocks.h"
#include "ptxdvfs/model/SurfacePredictor.h"

#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::model {

/// What `recommend` optimises.
enum class ObjectiveKind {
  MinEnergy,           ///< least energy, at any speed (the predictor's own choice)
  EnergyUnderSlowdown, ///< least energy within a slowdown against the default clocks
  Pareto,              ///< the speed/energy Pareto set; the chosen point is its min-energy end
  MaxPerfPerWatt,      ///< most work per joule: least time x power
};

struct Objective {
  ObjectiveKind kind = ObjectiveKind::MinEnergy;
  /// EnergyUnderSlowdown: the largest time increase allowed over the
  /// default clocks, percent (>= 0).
  double maxSlowdownPercent = 0;
};

/// Reads `min-energy`, `energy-under-slowdown=P%` (or `=P`), `pareto`,
/// `max-perf-per-watt`. Returns an error message, empty on success.
std::string parseObjective(const std::string &text, Objective &objective);
std::string toString(const Objective &objective);

/// Time, power and energy at one point over those at another: 0.95 is 5% less.
struct Ratios {
  double time = 1, power = 1, energy = 1;
};

/// How far a predicted change can be trusted, from the predictor's spread.
enum class Confidence {
  High,    ///< the predicted energy saving exceeds twice its uncertainty
  Medium,  ///< ... exceeds its uncertainty
  Low,     ///< the saving is within the uncertainty: it may not be real
  Unknown, ///< the predictor reports no spread
  None,    ///< nothing changes: the chosen point is the default one
};
const char *toString(Confidence confidence);

/// The points of a grid that decisions compare against.
struct GridPoints {
  std::vector<embeddings::VfPoint> grid; ///< GpuClocks::grid()
  std::size_t defaultIndex = 0;
  std::size_t fmaxIndex = 0;
};
GridPoints gridPointsOf(const embeddings::GpuClocks &clocks);

struct Decision {
  std::size_t point = 0;            ///< the chosen V-F point (grid index)
  std::vector<std::size_t> pareto;  ///< the predicted Pareto set, fastest first
  Ratios vsDefault, vsFmax;         ///< chosen point against the default clocks and Fmax
  Confidence confidence = Confidence::Unknown;
  /// Uncertainty of the energy saving against the default clocks, percent
  /// of the default energy (spreads at both points combined); 0 without spread.
  double energyUncertaintyPercent = 0;
};

/// Ratios of point `a` over point `b` of a surface.
Ratios ratiosAt(const Surface &surface, std::size_t a, std::size_t b);

/// Chooses by `objective`. MinEnergy keeps the predictor's own choice
/// (ApplicationPrediction::minEnergyPoint, the one `evaluate` scores);
/// EnergyUnderSlowdown minimises mean + risk x spread of the energy over
/// the points whose predicted time is within the slowdown (the default
/// point always is).
Decision decide(const ApplicationPrediction &prediction, const Objective &objective,
                const GridPoints &points, double risk = 0);

/// The DVFS class of a kernel that `lint` reports.
enum class Sensitivity {
  CoreInsensitive,   ///< memory-bound: a lower core clock saves energy, costs little time
  MemoryInsensitive, ///< compute-bound: a lower memory clock saves energy, costs little time
  RaceToIdle,        ///< higher clocks finish sooner and save energy
  Balanced,          ///< no point saves enough within the slowdown: default clocks are right
};
/// `dvfs-core-insensitive`, `dvfs-memory-insensitive`, `dvfs-race-to-idle`, `dvfs-balanced`.
const char *ruleId(Sensitivity sensitivity);

struct LintThresholds {
  double minSavingPercent = 5;   ///< energy saving against the default clocks worth a hint
  double maxSlowdownPercent = 5; ///< time increase a hint may ask for
};

struct LintFinding {
  Sensitivity sensitivity = Sensitivity::Balanced;
  Decision decision; ///< the least energy within the slowdown
};

/// Classifies by the least-energy point within the slowdown: a saving below
/// the threshold is Balanced; otherwise a lower memory clock makes it
/// MemoryInsensitive, else a lower core clock CoreInsensitive, else
/// (clocks raised) RaceToIdle.
LintFinding classify(const ApplicationPrediction &prediction, const GridPoints &points,
                     const LintThresholds &thresholds, double risk = 0);

} // namespace ptxdvfs::model
