// EnsembleTest.cpp - ensemble means and spreads, the energy source, and the risk-aware choice.
#include "ToyData.h"

#include "ptxdvfs/model/Ensemble.h"

#include <gtest/gtest.h>

using namespace ptxdvfs;
using namespace ptxdvfs::test;

namespace {

/// A surface whose energy column is `energy`, other columns 1.
Surface energySurface(std::vector<double> energy) {
  Surface surface;
  for (double e : energy)
    surface.push_back({1.0, 1.0, e});
  return surface;
}

std::vector<DvfsModel> seededMembers(int count) {
  std::vector<DvfsModel> members;
  for (int m = 0; m < count; ++m) {
    torch::manual_seed(static_cast<uint64_t>(10 + m));
    members.push_back(DvfsModel(tinyModel()));
  }
  return members;
}

} // namespace

TEST(EnsembleTest, RiskZeroTakesTheArgminAndRiskAvoidsDisagreement) {
  // Point 1 is lowest on average, but the members disagree there.
  SurfacePrediction prediction{energySurface({1.0, 0.90, 0.95}), energySurface({0.0, 0.2, 0.01})};
  EXPECT_EQ(chooseMinEnergyPoint(prediction, 0.0), 1u);
  EXPECT_EQ(chooseMinEnergyPoint(prediction, 1.0), 2u); // 0.96 beats 1.10
  EXPECT_EQ(chooseMinEnergyPoint(prediction, 0.1), 1u); // 0.92 still beats 0.951
}

TEST(EnsembleTest, MeanAndSpreadAreThoseOfTheMembers) {
  TensorDataset data = toyData(6);
  std::vector<DvfsModel> members = seededMembers(2);
  std::vector<std::size_t> subset = {4, 1, 3};
  auto together = predictEnsemble(members, data, subset, EnergySource::Head);
  std::vector<DvfsModel> first = {members[0]}, second = {members[1]};
  auto alone0 = predictEnsemble(first, data, subset, EnergySource::Head);
  auto alone1 = predictEnsemble(second, data, subset, EnergySource::Head);
  ASSERT_EQ(together.size(), 3u);
  for (std::size_t i = 0; i < subset.size(); ++i)
    for (std::size_t p = 0; p < 4; ++p)
      for (std::size_t m = 0; m < 3; ++m) {
        double a = alone0[i].mean[p][m], b = alone1[i].mean[p][m];
        EXPECT_NEAR(together[i].mean[p][m], (a + b) / 2, 1e-5);
        EXPECT_NEAR(together[i].spread[p][m], std::fabs(a - b) / 2, 1e-5);
        EXPECT_EQ(alone0[i].spread[p][m], 0.0);
      }
  EXPECT_NE(alone0[0].mean, alone1[0].mean) << "different seeds, different members";
}

TEST(EnsembleTest, PredictionsFollowTheSubsetOrderWhateverTheBatching) {
  TensorDataset data = toyData(12); // lengths differ, so batches reorder items
  std::vector<DvfsModel> members = seededMembers(1);
  std::vector<std::size_t> forward = range(0, 12), backward(forward.rbegin(), forward.rend());
  auto a = predictEnsemble(members, data, forward, EnergySource::Head, 3);
  auto b = predictEnsemble(members, data, backward, EnergySource::Head, 5);
  for (std::size_t i = 0; i < 12; ++i)
    for (std::size_t p = 0; p < 4; ++p)
      for (std::size_t m = 0; m < 3; ++m)
        EXPECT_NEAR(a[i].mean[p][m], b[11 - i].mean[p][m], 1e-5) << "item " << i;
}

TEST(EnsembleTest, TimeTimesPowerReplacesTheEnergyHead) {
  TensorDataset data = toyData(3);
  std::vector<DvfsModel> members = seededMembers(1);
  auto head = predictEnsemble(members, data, {0, 1, 2}, EnergySource::Head);
  auto product = predictEnsemble(members, data, {0, 1, 2}, EnergySource::TimeTimesPower);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t p = 0; p < 4; ++p) {
      EXPECT_NEAR(product[i].mean[p][kEnergy], head[i].mean[p][kTime] * head[i].mean[p][kPower],
                  1e-5);
      EXPECT_EQ(product[i].mean[p][kTime], head[i].mean[p][kTime]);
    }
  EXPECT_NE(head[0].mean[0][kEnergy], product[0].mean[0][kEnergy]);
  EnergySource parsed;
  EXPECT_TRUE(parseEnergySource("time_x_power", parsed));
  EXPECT_EQ(parsed, EnergySource::TimeTimesPower);
  EXPECT_STREQ(toString(parsed), "time_x_power");
  EXPECT_FALSE(parseEnergySource("power", parsed));
}

TEST(EnsembleTest, EvaluationScoresTheChosenPointWhenGiven) {
  Surface truth = energySurface({1.0, 0.8, 0.9});
  Surface guess = energySurface({1.0, 0.8, 0.9});
  EvaluationResult argmin = evaluateSurfaces({guess}, {truth}, 0, 0);
  EXPECT_DOUBLE_EQ(argmin.minEnergy.excessVsOracle, 0);
  EvaluationResult chosen = evaluateSurfaces({guess}, {truth}, 0, 0, {2});
  EXPECT_NEAR(chosen.minEnergy.excessVsOracle, 12.5, 1e-9); // 0.9 against 0.8
  EXPECT_NEAR(chosen.minEnergy.savingVsFmax, 10, 1e-9);
}

TEST(EnsembleTest, PredictedChoicesKeepTheMeanAndTheRiskAwareChoice) {
  SurfacePrediction risky{energySurface({1.0, 0.90, 0.95}), energySurface({0.0, 0.2, 0.01})};
  PredictedChoices careful, bold;
  careful.add({risky, risky}, 1.0);
  bold.add({risky}, 0.0);
  EXPECT_EQ(careful.chosen, (std::vector<std::size_t>{2, 2}));
  EXPECT_EQ(careful.surfaces[1], risky.mean);
  careful.add(bold);
  careful.add(energySurface({0.5, 0.7, 0.6}));
  EXPECT_EQ(careful.chosen, (std::vector<std::size_t>{2, 2, 1, 0}));
  EXPECT_EQ(careful.surfaces.size(), 4u);
}

TEST(EnsembleTest, ABlendAveragesTheSurfacesAndChoosesItsOwnMinimum) {
  // a prefers point 0, b prefers point 1 strongly; the half-and-half blend
  // follows b's stronger preference.
  PredictedChoices a, b;
  a.add(Surface{{1, 1, 1.0}, {1, 1, 1.2}, {1, 1, 3.0}});
  b.add(Surface{{2, 2, 3.0}, {2, 2, 1.0}, {2, 2, 0.5}});
  PredictedChoices blend = blendSurfaces(a, b, 0.5);
  ASSERT_EQ(blend.surfaces.size(), 1u);
  EXPECT_DOUBLE_EQ(blend.surfaces[0][0][kTime], 1.5);
  EXPECT_DOUBLE_EQ(blend.surfaces[0][1][kEnergy], 1.1);
  EXPECT_EQ(blend.chosen[0], 1u);
  EXPECT_EQ(blendSurfaces(a, b, 0.0).chosen[0], 0u);
  EXPECT_EQ(blendSurfaces(a, b, 1.0).chosen[0], 2u);
}
