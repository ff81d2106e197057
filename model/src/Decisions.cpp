// Decisions.cpp - objectives, comparisons against the default clocks and Fmax, confidence, lint classes.
#include "ptxdvfs/model/Decisions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ptxdvfs::model {

std::string parseObjective(const std::string &text, Objective &objective) {
  static const std::string kSlowdown = "energy-under-slowdown";
  if (text == "min-energy") {
    objective = {ObjectiveKind::MinEnergy, 0};
  } else if (text == "pareto") {
    objective = {ObjectiveKind::Pareto, 0};
  } else if (text == "max-perf-per-watt") {
    objective = {ObjectiveKind::MaxPerfPerWatt, 0};
  } else if (text.rfind(kSlowdown, 0) == 0) {
    std::string value = text.substr(kSlowdown.size());
    if (value.empty() || value.front() != '=')
      return "'" + text + "': give the slowdown allowed, e.g. energy-under-slowdown=5%";
    value.erase(0, 1);
    if (!value.empty() && value.back() == '%')
      value.pop_back();
    std::istringstream in(value);
    double percent = -1;
    if (!(in >> percent) || !in.eof() || !(percent >= 0) || !std::isfinite(percent))
      return "'" + text + "': the slowdown must be a percentage >= 0, e.g. energy-under-slowdown=5%";
    objective = {ObjectiveKind::EnergyUnderSlowdown, percent};
  } else {
    return "unknown objective '" + text +
           "' (choose min-energy, energy-under-slowdown=P%, pareto, max-perf-per-watt)";
  }
  return "";
}

std::string toString(const Objective &objective) {
  switch (objective.kind) {
  case ObjectiveKind::MinEnergy: return "min-energy";
  case ObjectiveKind::Pareto: return "pareto";
  case ObjectiveKind::MaxPerfPerWatt: return "max-perf-per-watt";
  case ObjectiveKind::EnergyUnderSlowdown: {
    std::ostringstream out;
    out << "energy-under-slowdown=" << objective.maxSlowdownPercent << '%';
    return out.str();
  }
  }
  return "min-energy";
}

const char *toString(Confidence confidence) {
  switch (confidence) {
  case Confidence::High: return "high";
  case Confidence::Medium: return "medium";
  case Confidence::Low: return "low";
  case Confidence::Unknown: return "unknown";
  case Confidence::None: return "none";
  }
  return "unknown";
}

GridPoints gridPointsOf(const embeddings::GpuClocks &clocks) {
  GridPoints points;
  points.grid = clocks.grid();
  for (std::size_t p = 0; p < points.grid.size(); ++p) {
    if (points.grid[p] == clocks.defaultPoint)
      points.defaultIndex = p;
    if (points.grid[p] == clocks.fmax)
      points.fmaxIndex = p;
  }
  return points;
}

Ratios ratiosAt(const Surface &surface, std::size_t a, std::size_t b) {
  return {surface[a][kTime] / surface[b][kTime], surface[a][kPower] / surface[b][kPower],
          surface[a][kEnergy] / surface[b][kEnergy]};
}

namespace {

std::size_t mostWorkPerJoule(const Surface &surface) {
  std::size_t best = 0;
  for (std::size_t p = 1; p < surface.size(); ++p)
    if (surface[p][kTime] * surface[p][kPower] < surface[best][kTime] * surface[best][kPower])
      best = p;
  return best;
}

} // namespace

Decision decide(const ApplicationPrediction &prediction, const Objective &objective,
                const GridPoints &points, double risk) {
  const Surface &mean = prediction.surface.mean;
  const Surface &spread = prediction.surface.spread;
  Decision decision;
  switch (objective.kind) {
  case ObjectiveKind::MinEnergy:
  case ObjectiveKind::Pareto:
    decision.point = prediction.minEnergyPoint;
    break;
  case ObjectiveKind::MaxPerfPerWatt:
    decision.point = mostWorkPerJoule(mean);
    break;
  case ObjectiveKind::EnergyUnderSlowdown: {
    // The default point is always within its own bound.
    double maxTime = mean[points.defaultIndex][kTime] * (1 + objective.maxSlowdownPercent / 100);
    decision.point = chooseMinEnergyPoint(prediction.surface, risk, maxTime);
    break;
  }
  }
  decision.pareto = paretoPoints(mean);
  std::stable_sort(decision.pareto.begin(), decision.pareto.end(),
                   [&](std::size_t a, std::size_t b) { return mean[a][kTime] < mean[b][kTime]; });
  decision.vsDefault = ratiosAt(mean, decision.point, points.defaultIndex);
  decision.vsFmax = ratiosAt(mean, decision.point, points.fmaxIndex);

  std::size_t at = decision.point, base = points.defaultIndex;
  if (at == base) {
    decision.confidence = Confidence::None;
  } else if (!prediction.hasSpread) {
    decision.confidence = Confidence::Unknown;
  } else {
    double saving = 1 - decision.vsDefault.energy;
    double uncertainty = std::hypot(spread[at][kEnergy], spread[base][kEnergy]) / mean[base][kEnergy];
    decision.energyUncertaintyPercent = 100 * uncertainty;
    decision.confidence = saving > 2 * uncertainty ? Confidence::High
                          : saving > uncertainty   ? Confidence::Medium
                                                   : Confidence::Low;
  }
  return decision;
}

const char *ruleId(Sensitivity sensitivity) {
  switch (sensitivity) {
  case Sensitivity::CoreInsensitive: return "dvfs-core-insensitive";
  case Sensitivity::MemoryInsensitive: return "dvfs-memory-insensitive";
  case Sensitivity::RaceToIdle: return "dvfs-race-to-idle";
  case Sensitivity::Balanced: return "dvfs-balanced";
  }
  return "dvfs-balanced";
}

LintFinding classify(const ApplicationPrediction &prediction, const GridPoints &points,
                     const LintThresholds &thresholds, double risk) {
  LintFinding finding;
  finding.decision = decide(prediction,
                            {ObjectiveKind::EnergyUnderSlowdown, thresholds.maxSlowdownPercent},
                            points, risk);
  double savingPercent = 100 * (1 - finding.decision.vsDefault.energy);
  const embeddings::VfPoint &chosen = points.grid[finding.decision.point];
  const embeddings::VfPoint &base = points.grid[points.defaultIndex];
  if (finding.decision.point == points.defaultIndex || savingPercent < thresholds.minSavingPercent)
    finding.sensitivity = Sensitivity::Balanced;
  else if (chosen.memoryMHz < base.memoryMHz)
    finding.sensitivity = Sensitivity::MemoryInsensitive;
  else if (chosen.coreMHz < base.coreMHz)
    finding.sensitivity = Sensitivity::CoreInsensitive;
  else
    finding.sensitivity = Sensitivity::RaceToIdle;
  return finding;
}

} // namespace ptxdvfs::model
