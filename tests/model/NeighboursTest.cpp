// NeighboursTest.cpp - the log-scaled mix distance, the leave-one-family-out choice of k, and
// the geometric mean of the nearest surfaces.
#include "ToyData.h"

#include "ptxdvfs/model/Baselines.h"
#include "ptxdvfs/model/Neighbours.h"
#include "ptxdvfs/model/Splits.h"
#include "ptxdvfs/model/SurfacePredictor.h"
#include "ptxdvfs/model/TensorDataset.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace ptxdvfs;
using namespace ptxdvfs::test;

namespace {

/// A surface of `points` V-F points whose three factors all equal `value`.
Surface flat(double value, std::size_t points = 4) { return Surface(points, {value, value, value}); }

/// A mix with one opcode (the three blocks each summing to 1).
InstructionHistogram mixOf(int64_t opcode, float share = 1.0f) {
  InstructionHistogram mix = {{kOpcodeRows + 1, 1.0f}, {kOpcodeRows + kSpaceRows + 1, 1.0f}};
  mix[opcode] = share;
  if (share < 1.0f)
    mix[900] = 1.0f - share;
  return mix;
}

/// `mix` with its execution-unit block: all of it `unit`.
InstructionHistogram withUnit(InstructionHistogram mix, embeddings::ExecutionUnit unit) {
  mix[kMixWidth + static_cast<int64_t>(unit)] = 1.0f;
  return mix;
}

} // namespace

TEST(NeighboursTest, LogScaleKeepsTheEndsAndSpreadsSmallShares) {
  InstructionHistogram scaled = logScaled({{1, 1.0f}, {2, 0.004f}, {3, 0.064f}});
  EXPECT_FLOAT_EQ(scaled.at(1), 1.0f);
  EXPECT_EQ(scaled.size(), 3u);
  // Shares of 0.4% and 6.4%: 0.06 apart as shares, over a third of the range here.
  EXPECT_NEAR(scaled.at(3) - scaled.at(2), 0.371, 0.001);
  EXPECT_NEAR(scaled.at(2), std::log1p(4.0) / std::log1p(1000.0), 1e-6);
}

TEST(NeighboursTest, L1DistanceSumsEveryDifferenceAndIsSymmetric) {
  InstructionHistogram a = {{1, 0.5f}, {2, 0.5f}}, b = {{2, 0.25f}, {7, 1.0f}};
  EXPECT_DOUBLE_EQ(mixL1Distance(a, a), 0.0);
  EXPECT_DOUBLE_EQ(mixL1Distance(a, b), 0.5 + 0.25 + 1.0);
  EXPECT_DOUBLE_EQ(mixL1Distance(a, b), mixL1Distance(b, a));
  // The old baseline's distance is this one over the six block maxima.
  EXPECT_DOUBLE_EQ(histogramDistance(a, b), mixL1Distance(a, b) / 6);
}

TEST(NeighboursTest, PredictionIsTheGeometricMeanOfTheNearestSurfaces) {
  BaselineData data;
  data.names = {"a_1", "b_1", "c_1", "d_1"};
  data.histograms = {mixOf(10, 0.50f), mixOf(10, 0.40f), mixOf(10, 0.05f), mixOf(20)};
  data.surfaces = {flat(1.0), flat(4.0), flat(100.0), flat(1000.0)};
  NearestNeighbours two(data, {2});
  ASSERT_EQ(two.k(), 2);
  // Nearest to a share of 0.45 are the 0.50 and 0.40 applications: sqrt(1 x 4).
  Surface predicted = two.predict(mixOf(10, 0.45f));
  for (const auto &factors : predicted)
    for (double factor : factors)
      EXPECT_NEAR(factor, 2.0, 1e-9);
}

TEST(NeighboursTest, LeaveOneFamilyOutPicksOneNeighbourWhenOnlyTheNearestIsAlike) {
  // Four families of kind A (opcode 10) and two single-member families of
  // kind B (opcode 20). Hiding its own family, an A application still finds
  // A applications first, but a B application has one B neighbour left: any
  // k > 1 mixes in A surfaces and is wrong for it.
  BaselineData data;
  for (const char *name : {"fa_1", "fa_2", "ga_1", "ga_2", "ha_1", "ia_1"}) {
    data.names.push_back(name);
    // Shares 0.1 apart: no two families are twins (heldOutGroups).
    data.histograms.push_back(mixOf(10, 0.1f * static_cast<float>(data.names.size())));
    data.surfaces.push_back(flat(1.0));
  }
  for (const char *name : {"jb_1", "kb_1"}) {
    data.names.push_back(name);
    data.histograms.push_back(mixOf(20, 0.1f * static_cast<float>(data.names.size())));
    data.surfaces.push_back(flat(3.0));
  }
  NearestNeighbours neighbours(data);
  EXPECT_EQ(neighbours.k(), 1);
  ASSERT_EQ(neighbours.selectionScores().size(), NearestNeighbours::defaultCandidates().size());
  EXPECT_NEAR(neighbours.selectionScores().at(1), 0.0, 1e-12);
  EXPECT_GT(neighbours.selectionScores().at(3), 0.1);
}

TEST(NeighboursTest, LeaveOneFamilyOutAveragesWhenSurfacesAreNoisy) {
  // One kind, eight families of two near-identical siblings, families
  // scattered by +-30% around 2. A sibling would make one neighbour look
  // perfect; with the family hidden, the nearest family alone is off by up
  // to 60% and a mean of several is much closer.
  BaselineData data;
  for (int f = 0; f < 8; ++f)
    for (int sibling = 0; sibling < 2; ++sibling) {
      data.names.push_back("fam" + std::string(1, static_cast<char>('a' + f)) + "_" +
                           std::to_string(sibling));
      data.histograms.push_back(
          mixOf(10, 0.05f + 0.1f * static_cast<float>(f) + 0.001f * static_cast<float>(sibling)));
      data.surfaces.push_back(flat(f % 2 == 0 ? 2.6 : 1.4));
    }
  NearestNeighbours neighbours(data);
  EXPECT_GT(neighbours.k(), 1);
  EXPECT_LT(neighbours.selectionScores().at(neighbours.k()), neighbours.selectionScores().at(1));
}

TEST(NeighboursTest, TwinsInOtherFamiliesAreHeldOutWithTheFamily) {
  using embeddings::ExecutionUnit;
  BaselineData data;
  // a_1/a_2 one family; b_1 an opcode twin of a_2 (0.001 apart in share);
  // c_1 a unit twin of b_1 (another opcode, the same unit); d_1 alone.
  data.names = {"a_1", "a_2", "b_1", "c_1", "d_1"};
  data.histograms = {withUnit(mixOf(10, 0.2f), ExecutionUnit::Fp32),
                     withUnit(mixOf(10, 0.6f), ExecutionUnit::Fp32),
                     withUnit(mixOf(10, 0.601f), ExecutionUnit::Integer),
                     withUnit(mixOf(30), ExecutionUnit::Integer),
                     withUnit(mixOf(40), ExecutionUnit::GlobalMemory)};
  data.surfaces = std::vector<Surface>(5, flat(1.0));
  std::vector<std::string> groups = heldOutGroups(data);
  EXPECT_EQ(groups, (std::vector<std::string>{"a+b+c", "a+b+c", "a+b+c", "a+b+c", "d"}));
  EXPECT_EQ(familyOf(groups[0]), groups[0]); // folds can take labels for names

  // Without unit blocks only the opcode twin joins.
  for (InstructionHistogram &mix : data.histograms)
    mix.erase(mix.lower_bound(kMixWidth), mix.end());
  EXPECT_EQ(heldOutGroups(data), (std::vector<std::string>{"a+b", "a+b", "a+b", "c", "d"}));
}

TEST(NeighboursTest, ASingleFamilyLeavesNothingToScoreAndKeepsTheMiddleCandidate) {
  BaselineData data;
  data.names = {"x_1", "x_2"};
  data.histograms = {mixOf(10), mixOf(10, 0.5f)};
  data.surfaces = {flat(1.0), flat(2.0)};
  NearestNeighbours neighbours(data, {1, 3, 5});
  EXPECT_TRUE(neighbours.selectionScores().empty());
  EXPECT_EQ(neighbours.k(), 3);
  // Fewer applications than k: the mean of all of them.
  EXPECT_NEAR(neighbours.predict(mixOf(10))[0][kTime], std::sqrt(2.0), 1e-9);
}

TEST(NeighboursTest, UnitMixFindsNeighboursByWhatIsBusyNotByOpcode) {
  // The query uses b's opcode but keeps a's unit busy (say integer shifts
  // where a did integer adds, against b's global loads).
  using embeddings::ExecutionUnit;
  BaselineData data;
  data.names = {"a_1", "b_1"};
  data.histograms = {withUnit(mixOf(10), ExecutionUnit::Integer), withUnit(mixOf(20), ExecutionUnit::GlobalMemory)};
  data.surfaces = {flat(1.0), flat(4.0)};
  InstructionHistogram query = withUnit(mixOf(20), ExecutionUnit::Integer);
  auto byOpcode = fitNeighbourBaseline(data, "knn_log_histogram");
  auto byUnit = fitNeighbourBaseline(data, "knn_unit_mix");
  ASSERT_NE(byUnit, nullptr);
  EXPECT_EQ(byOpcode->neighbourhood(query).applications.front(), 1u);
  EXPECT_EQ(byUnit->neighbourhood(query).applications.front(), 0u);
  EXPECT_DOUBLE_EQ(byUnit->neighbourhood(query).distances.front(), 0.0);
  // Each distance reads its own blocks only.
  EXPECT_DOUBLE_EQ(unitMixL1Distance(query, data.histograms[0]), 0.0);
  EXPECT_DOUBLE_EQ(mixL1Distance(query, data.histograms[1]), 0.0);
  EXPECT_DOUBLE_EQ(unitMixL1Distance(query, data.histograms[1]), 2.0);
}

TEST(NeighboursTest, MixesWithoutTheUnitBlockOfferNoUnitMixPredictor) {
  // What a model folder written before the unit block holds.
  BaselineData data;
  data.names = {"a_1", "b_1"};
  data.histograms = {mixOf(10), mixOf(20)};
  data.surfaces = {flat(1.0), flat(4.0)};
  EXPECT_FALSE(hasUnitBlocks(data));
  EXPECT_EQ(fitNeighbourBaseline(data, "knn_unit_mix"), nullptr);
  EXPECT_NE(fitNeighbourBaseline(data, "knn_log_histogram"), nullptr);
  Baselines baselines(data, torch::zeros({4, 2}));
  EXPECT_FALSE(baselines.offers("knn_unit_mix"));
  EXPECT_TRUE(baselines.offers("knn_log_histogram"));

  ModelCard card;
  card.baselines = data;
  EXPECT_EQ(makeCardPredictor(card, "knn_unit_mix"), nullptr);
  EXPECT_NE(checkPredictorName("knn_unit_mix", card).find("retrain"), std::string::npos);
  EXPECT_EQ(checkPredictorName("knn_log_histogram", card), "");
  card.baselines.histograms[1] = withUnit(mixOf(20), embeddings::ExecutionUnit::Fp32);
  EXPECT_FALSE(hasUnitBlocks(card.baselines)); // every application needs one
  card.baselines.histograms[0] = withUnit(mixOf(10), embeddings::ExecutionUnit::Fp32);
  EXPECT_EQ(checkPredictorName("knn_unit_mix", card), "");
}

TEST(NeighboursTest, BaselineUsesTheFittedNeighboursAndRejectsNonPositiveFactors) {
  TensorDataset data = toyData(12);
  BaselineData training = baselineDataOf(data, range(0, 12));
  Baselines baselines(training, data.clocks);
  NearestNeighbours neighbours(training);
  EXPECT_EQ(baselines.neighbourCounts().at("knn_log_histogram"), neighbours.k());
  NearestNeighbours byUnits(training, NearestNeighbours::defaultCandidates(),
                            NearestNeighbours::defaultPullCandidates(), NeighbourFeatures::ExecutionUnits);
  EXPECT_EQ(baselines.neighbourCounts().at("knn_unit_mix"), byUnits.k());
  EXPECT_EQ(baselines.neighbourCounts().size(), 3u); // and knn_toward_mean
  InstructionHistogram mix = histogramOf(data.items[3].fields);
  EXPECT_EQ(baselines.predict("knn_log_histogram", mix), neighbours.predict(mix));

  nlohmann::json zero = toJson(training);
  zero["applications"][2]["surface"][0][1] = 0.0;
  EXPECT_THROW(baselineDataFrom(zero), std::domain_error);
}

TEST(NeighboursTest, NeighbourhoodNamesTheNearestAndTheirDisagreement) {
  BaselineData data;
  data.names = {"a_1", "b_1", "c_1", "d_1"};
  data.histograms = {mixOf(10, 0.50f), mixOf(10, 0.40f), mixOf(10, 0.05f), mixOf(20)};
  data.surfaces = {flat(1.0), flat(4.0), flat(100.0), flat(1000.0)};
  NearestNeighbours::Neighbourhood two = NearestNeighbours(data, {2}).neighbourhood(mixOf(10, 0.45f));
  ASSERT_EQ(two.applications.size(), 2u);
  EXPECT_EQ(data.names[two.applications[0]], "a_1"); // 0.50 is nearer to 0.45 than 0.40 on the log scale
  EXPECT_EQ(data.names[two.applications[1]], "b_1");
  // Around the geometric mean 2: deviations -1 and +2, RMS sqrt(2.5).
  EXPECT_NEAR(two.spread[0][kEnergy], std::sqrt(2.5), 1e-9);
  NearestNeighbours::Neighbourhood one = NearestNeighbours(data, {1}).neighbourhood(mixOf(20));
  EXPECT_EQ(one.applications, std::vector<std::size_t>{3});
  EXPECT_NEAR(one.spread[0][kTime], 0.0, 1e-9); // exp(log(x)) rounds
}

TEST(NeighboursTest, TowardMeanPullsFarProgramsToTheTrainingMeanAndKeepsNearOnes) {
  // Two kinds of programs whose surfaces are 1 and 4 (geometric mean 2).
  // Hiding its family, each program still finds its own kind at a small
  // distance, so the fitted pull is weak there; a query that shares little
  // with any of them is pulled much further towards 2 than a near one.
  BaselineData data;
  for (int f = 0; f < 6; ++f) {
    bool second = f % 2 == 1;
    data.names.push_back("fam" + std::string(1, static_cast<char>('a' + f)) + "_1");
    data.histograms.push_back(mixOf(second ? 20 : 10, 0.5f + 0.02f * static_cast<float>(f)));
    data.surfaces.push_back(flat(second ? 4.0 : 1.0));
  }
  NearestNeighbours plain(data);
  EXPECT_TRUE(std::isinf(plain.pullDistance()));
  NearestNeighbours pulled(data, {1}, {std::numeric_limits<double>::infinity(), 1.0});
  // Leaving one family out costs nothing without a pull and something with
  // one, so the fit keeps neighbours alone: the pull must be earned.
  EXPECT_TRUE(std::isinf(pulled.pullDistance()));

  NearestNeighbours forced(data, {1}, {1.0});
  ASSERT_FALSE(std::isinf(forced.pullDistance()));
  NearestNeighbours::Neighbourhood near = forced.neighbourhood(mixOf(10, 0.52f));
  NearestNeighbours::Neighbourhood far = forced.neighbourhood(mixOf(30, 0.9f));
  ASSERT_EQ(near.distances.size(), 1u);
  EXPECT_LT(near.distances[0], far.distances[0]);
  EXPECT_LT(near.pull, far.pull);
  EXPECT_NEAR(far.pull, far.distances[0] / (far.distances[0] + forced.pullDistance()), 1e-12);
  // log prediction = (1 - w) log neighbour + w log 2.
  double neighbour = data.surfaces[far.applications[0]][0][kTime];
  EXPECT_NEAR(std::log(far.mean[0][kTime]),
              (1 - far.pull) * std::log(neighbour) + far.pull * std::log(2.0), 1e-9);
  // The spread stays the neighbours' own (zero for one).
  EXPECT_NEAR(far.spread[0][kTime], 0.0, 1e-9);
}
