// EvaluationTest.cpp - error statistics, min-energy choice and Pareto sets on hand-made surfaces.
#include "ptxdvfs/model/Evaluation.h"

#include <gtest/gtest.h>

using namespace ptxdvfs::model;

namespace {

/// Four points: (time, power, energy). Point 3 is the reference and Fmax.
Surface measured() {
  return {{2.0, 0.5, 1.0}, {1.5, 0.6, 0.9}, {1.2, 0.9, 1.08}, {1.0, 1.0, 1.0}};
}

} // namespace

TEST(EvaluationTest, PerfectPredictionsScoreZeroErrorAndFullPareto) {
  EvaluationResult result = evaluateSurfaces({measured()}, {measured()}, 3, 3);
  EXPECT_DOUBLE_EQ(result.energy.mape, 0);
  EXPECT_DOUBLE_EQ(result.time.within10, 100);
  EXPECT_DOUBLE_EQ(result.minEnergy.excessVsOracle, 0);
  EXPECT_NEAR(result.minEnergy.savingVsFmax, 10, 1e-9); // 0.9 against 1.0
  EXPECT_DOUBLE_EQ(result.pareto.precision, 100);
  EXPECT_DOUBLE_EQ(result.pareto.recall, 100);
  EXPECT_EQ(result.benchmarks, 1u);
  EXPECT_EQ(result.vfPoints, 4u);
}

TEST(EvaluationTest, CountsRelativeErrorsAndTheTenPercentBand) {
  Surface guess = measured();
  guess[0][kPower] = 0.54; // +8%: inside the band
  guess[1][kPower] = 0.72; // +20%
  EvaluationResult result = evaluateSurfaces({guess}, {measured()}, 3, 3);
  EXPECT_NEAR(result.power.mape, (8.0 + 20.0) / 4, 1e-9);
  EXPECT_NEAR(result.power.within10, 75, 1e-9);
  EXPECT_DOUBLE_EQ(result.time.mape, 0);
}

TEST(EvaluationTest, WrongMinimumCostsItsTrueEnergy) {
  Surface guess = measured();
  guess[2][kEnergy] = 0.5; // the model believes point 2 is cheapest
  EvaluationResult result = evaluateSurfaces({guess}, {measured()}, 3, 3);
  EXPECT_NEAR(result.minEnergy.excessVsOracle, (1.08 / 0.9 - 1) * 100, 1e-9);
  EXPECT_NEAR(result.minEnergy.savingVsFmax, -8, 1e-9);
}

TEST(EvaluationTest, ParetoFrontKeepsOnlyUndominatedPoints) {
  // Point 2 is slower than 3 and uses more energy: dominated. Point 0 is
  // slower than 1 and uses more energy: dominated.
  EXPECT_EQ(paretoPoints(measured()), (std::vector<std::size_t>{1, 3}));
  Surface guess = measured();
  guess[2][kEnergy] = 0.95; // now undominated in the prediction
  EvaluationResult result = evaluateSurfaces({guess}, {measured()}, 3, 3);
  EXPECT_NEAR(result.pareto.precision, 100.0 * 2 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(result.pareto.recall, 100);
  EXPECT_EQ(minEnergyPoint(measured()), 1u);
}
