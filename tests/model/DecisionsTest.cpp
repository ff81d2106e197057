// DecisionsTest.cpp - objectives, confidence and lint classes on hand-made surfaces.
#include "ptxdvfs/model/Decisions.h"

#include <gtest/gtest.h>

namespace ptxdvfs::model {
namespace {

// Grid order (memory ascending, then core): 0 = 810/600, 1 = 810/1000,
// 2 = 3505/600, 3 = 3505/1000 (default), 4 = 3505/1200 (Fmax).
GridPoints smallGrid() {
  GridPoints points;
  points.grid = {{810, 600}, {810, 1000}, {3505, 600}, {3505, 1000}, {3505, 1200}};
  points.defaultIndex = 3;
  points.fmaxIndex = 4;
  return points;
}

/// Factors {time, power} per point; energy = time x power; spread zero.
ApplicationPrediction predictionOf(std::vector<std::array<double, 2>> timePower, double spread = 0) {
  ApplicationPrediction prediction;
  for (const auto &[time, power] : timePower) {
    prediction.surface.mean.push_back({time, power, time * power});
    prediction.surface.spread.push_back({spread, spread, spread});
  }
  prediction.hasSpread = spread > 0;
  prediction.minEnergyPoint = minEnergyPoint(prediction.surface.mean);
  return prediction;
}

// Memory-bound: the low core clock costs 2% time for 20% less power.
const std::vector<std::array<double, 2>> kMemoryBound = {
    {3.0, 0.5}, {3.0, 0.6}, {1.02, 0.8}, {1.0, 1.0}, {0.99, 1.2}};
// Compute-bound: the low memory clock costs 1% time for 30% less power.
const std::vector<std::array<double, 2>> kComputeBound = {
    {1.6, 0.4}, {1.01, 0.7}, {1.6, 0.8}, {1.0, 1.0}, {0.85, 1.15}};

TEST(DecisionsTest, ParsesEveryObjectiveAndRejectsTheRest) {
  Objective objective;
  EXPECT_EQ(parseObjective("min-energy", objective), "");
  EXPECT_EQ(objective.kind, ObjectiveKind::MinEnergy);
  EXPECT_EQ(parseObjective("energy-under-slowdown=7.5%", objective), "");
  EXPECT_EQ(objective.kind, ObjectiveKind::EnergyUnderSlowdown);
  EXPECT_DOUBLE_EQ(objective.maxSlowdownPercent, 7.5);
  EXPECT_EQ(toString(objective), "energy-under-slowdown=7.5%");
  EXPECT_EQ(parseObjective("energy-under-slowdown=3", objective), "");
  EXPECT_DOUBLE_EQ(objective.maxSlowdownPercent, 3);
  EXPECT_EQ(parseObjective("pareto", objective), "");
  EXPECT_EQ(parseObjective("max-perf-per-watt", objective), "");
  EXPECT_EQ(objective.kind, ObjectiveKind::MaxPerfPerWatt);
  EXPECT_NE(parseObjective("energy-under-slowdown", objective), "");
  EXPECT_NE(parseObjective("energy-under-slowdown=-1%", objective), "");
  EXPECT_NE(parseObjective("energy-under-slowdown=5x", objective), "");
  EXPECT_NE(parseObjective("fastest", objective), "");
}

TEST(DecisionsTest, MinEnergyKeepsThePredictorsOwnChoice) {
  ApplicationPrediction prediction = predictionOf(kMemoryBound);
  prediction.minEnergyPoint = 4; // e.g. a risk-averse choice: decide() must not override it
  Decision decision = decide(prediction, {}, smallGrid());
  EXPECT_EQ(decision.point, 4u);
}

TEST(DecisionsTest, SlowdownBoundExcludesSlowerPoints) {
  ApplicationPrediction prediction = predictionOf(kComputeBound);
  // Least energy overall: 810/600 (1.6 x 0.4 = 0.64), 60% slower.
  EXPECT_EQ(decide(prediction, {ObjectiveKind::MinEnergy, 0}, smallGrid()).point, 0u);
  Decision within = decide(prediction, {ObjectiveKind::EnergyUnderSlowdown, 5}, smallGrid());
  EXPECT_EQ(within.point, 1u);
  EXPECT_NEAR(within.vsDefault.time, 1.01, 1e-9);
  EXPECT_NEAR(within.vsDefault.energy, 0.707, 1e-9);
  EXPECT_NEAR(within.vsFmax.energy, 0.707 / (0.85 * 1.15), 1e-9);
  // Nothing allowed to be slower: only the default and faster points remain.
  EXPECT_EQ(decide(prediction, {ObjectiveKind::EnergyUnderSlowdown, 0}, smallGrid()).point, 4u);
}

TEST(DecisionsTest, ParetoSetIsFastestFirstAndHoldsTheMinimum) {
  Decision decision = decide(predictionOf(kComputeBound), {ObjectiveKind::Pareto, 0}, smallGrid());
  // Fmax (fastest), 810/1000, 810/600 (least energy); 3505/1000 and 3505/600 are beaten.
  EXPECT_EQ(decision.pareto, (std::vector<std::size_t>{4, 1, 0}));
  EXPECT_EQ(decision.point, 0u);
}

TEST(DecisionsTest, PerfPerWattIsLeastTimeTimesPower) {
  ApplicationPrediction prediction = predictionOf(kComputeBound);
  prediction.surface.mean[2][kEnergy] = 0.1; // an energy head that disagrees with time x power
  EXPECT_EQ(decide(prediction, {ObjectiveKind::MaxPerfPerWatt, 0}, smallGrid()).point, 0u);
}

TEST(DecisionsTest, ConfidenceComparesTheSavingWithTheSpread) {
  Objective slowdown{ObjectiveKind::EnergyUnderSlowdown, 5};
  // Saving 29.3%; uncertainty hypot(s, s) / 1.0.
  EXPECT_EQ(decide(predictionOf(kComputeBound, 0.05), slowdown, smallGrid()).confidence, Confidence::High);
  EXPECT_EQ(decide(predictionOf(kComputeBound, 0.15), slowdown, smallGrid()).confidence, Confidence::Medium);
  Decision low = decide(predictionOf(kComputeBound, 0.3), slowdown, smallGrid());
  EXPECT_EQ(low.confidence, Confidence::Low);
  EXPECT_NEAR(low.energyUncertaintyPercent, 100 * std::hypot(0.3, 0.3), 1e-6);
  EXPECT_EQ(decide(predictionOf(kComputeBound), slowdown, smallGrid()).confidence, Confidence::Unknown);
}

TEST(DecisionsTest, ClassifiesMemoryAndComputeBoundKernels) {
  LintFinding memory = classify(predictionOf(kMemoryBound), smallGrid(), {});
  EXPECT_EQ(memory.sensitivity, Sensitivity::CoreInsensitive);
  EXPECT_EQ(memory.decision.point, 2u);
  EXPECT_STREQ(ruleId(memory.sensitivity), "dvfs-core-insensitive");
  LintFinding compute = classify(predictionOf(kComputeBound), smallGrid(), {});
  EXPECT_EQ(compute.sensitivity, Sensitivity::MemoryInsensitive);
  EXPECT_EQ(compute.decision.point, 1u);
}

TEST(DecisionsTest, SmallSavingsAndRaisedClocksAreClassedApart) {
  // A 2% saving is below the 5% threshold: balanced, at the default clocks' class.
  std::vector<std::array<double, 2>> flat = {{2, 1}, {2, 1}, {1.02, 0.96}, {1, 1}, {0.9, 1.2}};
  EXPECT_EQ(classify(predictionOf(flat), smallGrid(), {}).sensitivity, Sensitivity::Balanced);
  EXPECT_EQ(classify(predictionOf(flat), smallGrid(), {1, 5}).sensitivity, Sensitivity::CoreInsensitive);
  // Fmax is 20% faster at 10% more power: 12% less energy.
  std::vector<std::array<double, 2>> race = {{2, 1}, {2, 1}, {1.3, 0.9}, {1, 1}, {0.8, 1.1}};
  EXPECT_EQ(classify(predictionOf(race), smallGrid(), {}).sensitivity, Sensitivity::RaceToIdle);
}

} // namespace
} // namespace ptxdvfs::model
