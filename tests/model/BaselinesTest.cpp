// BaselinesTest.cpp - instruction mixes, their distance, the three baselines and their JSON form.
#include "ToyData.h"

#include "ptxdvfs/model/Baselines.h"
#include "ptxdvfs/model/Ensemble.h"
#include "ptxdvfs/model/SurfacePredictor.h"

#include <gtest/gtest.h>

using namespace ptxdvfs;
using namespace ptxdvfs::test;

namespace {

double blockSum(const InstructionHistogram &histogram, int64_t begin, int64_t end) {
  double sum = 0;
  for (const auto &[feature, share] : histogram)
    if (feature >= begin && feature < end)
      sum += share;
  return sum;
}

double energyMape(const Surface &predicted, const Surface &truth) {
  double total = 0;
  for (std::size_t p = 0; p < truth.size(); ++p)
    total += std::fabs(predicted[p][kEnergy] - truth[p][kEnergy]) / truth[p][kEnergy];
  return 100 * total / static_cast<double>(truth.size());
}

/// A kernel of `count` records of one (integer) opcode.
embeddings::EncodedKernel kernelOf(const std::string &name, int opcode, int count) {
  return {name, std::vector<embeddings::InstructionRecord>(static_cast<std::size_t>(count), record(opcode, 0, 1))};
}

/// Kernels A (2 records), B (8), A (2): cut to 4 records, only the A kernels remain.
std::vector<embeddings::EncodedKernel> middleKernelApplication() {
  return {kernelOf("first", 30, 2), kernelOf("middle", 12, 8), kernelOf("last", 30, 2)};
}

} // namespace

TEST(BaselinesTest, HistogramHasFourBlocksThatEachSumToOne) {
  // Three loads from global (opcode 54, space 4) and one add (30, space 0).
  embeddings::EncodedKernel kernel{"k", {record(54, 4, 1), record(54, 4, 1), record(54, 4, 1),
                                         record(30, 0, 2)}};
  InstructionHistogram histogram =
      histogramOf(fieldsTensor({kernel}, KernelCombination::Concatenate));
  EXPECT_NEAR(blockSum(histogram, 0, kOpcodeRows), 1.0, 1e-6);
  EXPECT_NEAR(blockSum(histogram, kOpcodeRows, kOpcodeRows + kSpaceRows), 1.0, 1e-6);
  EXPECT_NEAR(blockSum(histogram, kOpcodeRows + kSpaceRows, histogramWidth()), 1.0, 1e-6);
  EXPECT_NEAR(blockSum(histogram, kMixWidth, kHistogramFeatures), 1.0, 1e-6);
  EXPECT_NEAR(histogram.at(kMixWidth + static_cast<int64_t>(embeddings::ExecutionUnit::GlobalMemory)),
              0.75, 1e-6);
  // Opcodes are shifted by one in the fields tensor (0 is padding).
  EXPECT_NEAR(histogram.at(55), 0.75, 1e-6);
  EXPECT_NEAR(histogram.at(31), 0.25, 1e-6);
  EXPECT_NEAR(histogram.at(kOpcodeRows + 4), 0.75, 1e-6);
}

TEST(BaselinesTest, DistanceIsZeroForTheSameMixAndOneForDisjointMixes) {
  InstructionHistogram a = {{1, 1.0f}, {kOpcodeRows + 1, 1.0f}, {kOpcodeRows + kSpaceRows + 1, 1.0f}};
  InstructionHistogram b = {{2, 1.0f}, {kOpcodeRows + 2, 1.0f}, {kOpcodeRows + kSpaceRows + 2, 1.0f}};
  InstructionHistogram half = {{1, 0.5f}, {2, 0.5f}, {kOpcodeRows + 1, 1.0f},
                               {kOpcodeRows + kSpaceRows + 1, 1.0f}};
  EXPECT_DOUBLE_EQ(histogramDistance(a, a), 0.0);
  EXPECT_DOUBLE_EQ(histogramDistance(a, b), 1.0);
  EXPECT_DOUBLE_EQ(histogramDistance(a, half), histogramDistance(half, a));
  EXPECT_NEAR(histogramDistance(a, half), 1.0 / 6.0, 1e-9); // only the opcode block differs, by half
}

TEST(BaselinesTest, MeanAndNearestNeighbourUseTheTrainingSurfaces) {
  TensorDataset data = toyData(10);
  Baselines baselines(baselineDataOf(data, range(0, 10)), data.clocks);
  Surface mean = baselines.predict("training_mean", {});
  double expected = 0;
  for (const auto &item : data.items)
    expected += item.targets[2][kEnergy].item<double>() / 10;
  EXPECT_NEAR(mean[2][kEnergy], expected, 1e-6);
  // Application 7 is in the training set: its own mix is nearest.
  Surface nearest = baselines.predict("nearest_histogram", histogramOf(data.items[7].fields));
  EXPECT_EQ(nearest, measuredSurface(data.items[7]));
  EXPECT_THROW(baselines.predict("oracle", {}), std::invalid_argument);
}

TEST(BaselinesTest, HistogramMlpLearnsTheMixAndIsDeterministic) {
  // Scaling in the toy data follows the memory share of the mix alone.
  TensorDataset data = toyData(20);
  Baselines first(baselineDataOf(data, range(0, 15)), data.clocks);
  Baselines second(baselineDataOf(data, range(0, 15)), data.clocks);
  double mlpError = 0, meanError = 0;
  for (std::size_t i = 15; i < 20; ++i) {
    InstructionHistogram mix = histogramOf(data.items[i].fields);
    Surface predicted = first.predict("histogram_mlp", mix);
    EXPECT_EQ(predicted, second.predict("histogram_mlp", mix));
    mlpError += energyMape(predicted, measuredSurface(data.items[i]));
    meanError += energyMape(first.predict("training_mean", mix), measuredSurface(data.items[i]));
  }
  EXPECT_LT(mlpError, meanError / 2);
}

TEST(BaselinesTest, DataRoundTripsThroughJsonAndRejectsMalformedDocuments) {
  TensorDataset data = toyData(4);
  BaselineData original = baselineDataOf(data, range(0, 4));
  BaselineData back = baselineDataFrom(nlohmann::json::parse(toJson(original).dump()));
  EXPECT_EQ(back.names, original.names);
  EXPECT_EQ(back.histograms, original.histograms);
  EXPECT_EQ(back.surfaces, original.surfaces);

  EXPECT_TRUE(hasUnitBlocks(back));

  nlohmann::json outOfRange = toJson(original);
  outOfRange["applications"][0]["histogram"][std::to_string(kHistogramFeatures)] = 0.5;
  EXPECT_THROW(baselineDataFrom(outOfRange), std::out_of_range);
  nlohmann::json ragged = toJson(original);
  ragged["applications"][1]["surface"].erase(0);
  EXPECT_THROW(baselineDataFrom(ragged), std::length_error);
  EXPECT_THROW(baselineDataFrom(nlohmann::json{{"applications", nlohmann::json::array()}}),
               std::length_error);
  EXPECT_ANY_THROW(baselineDataFrom(nlohmann::json{{"apps", 1}}));
}

TEST(BaselinesTest, PredictBaselinesGivesEachBaselineItsSurfaceAndArgmin) {
  TensorDataset data = toyData(12);
  Baselines baselines(baselineDataOf(data, range(0, 8)), data.clocks);
  std::vector<std::size_t> items = {11, 9, 8};
  auto predictions = predictBaselines(baselines, data, items);
  ASSERT_EQ(predictions.size(), baselineNames().size());
  for (const std::string &name : baselineNames()) {
    const PredictedChoices &p = predictions.at(name);
    ASSERT_EQ(p.surfaces.size(), items.size()) << name;
    for (std::size_t k = 0; k < items.size(); ++k) {
      Surface expected = baselines.predict(name, histogramOf(data.items[items[k]].fields));
      EXPECT_EQ(p.surfaces[k], expected) << name << " item " << items[k];
      EXPECT_EQ(p.chosen[k], minEnergyPoint(expected)) << name;
    }
  }
}

TEST(BaselinesTest, MixWithoutLibTorchEqualsTheFieldsTensorsMix) {
  // Weighted records (read as executed), two kernels, cut to 6 rows as fieldsTensor() cuts.
  embeddings::EncodedKernel first{"a", {record(54, 4, 1), record(30, 0, 2), record(54, 4, 1)}};
  embeddings::EncodedKernel second{"b", {record(30, 0, 2), record(12, 1, 0), record(54, 4, 1),
                                         record(30, 0, 2), record(7, 0, 0)}};
  first.instructions[1].weight = 1000.5;
  second.instructions[2].weight = 0.0004; // stored as the minimum unit
  // Launched with 3 and 2 x 5 threads: the first kernel's weights count 3/10.
  first.launch = launchOf({3, 1, 1}, {1, 1, 1});
  second.launch = launchOf({2, 1, 1}, {5, 1, 1});
  for (int64_t maxLength : {0, 6}) {
    for (KernelCombination combination : {KernelCombination::Concatenate, KernelCombination::LastKernel}) {
      InstructionHistogram expected = histogramOf(fieldsTensor({first, second}, combination, maxLength));
      InstructionHistogram actual = mixOf({first, second}, combination, maxLength);
      ASSERT_EQ(actual.size(), expected.size()) << "maxLength " << maxLength;
      for (const auto &[feature, share] : expected)
        EXPECT_NEAR(actual.at(feature), share, 1e-5) << "feature " << feature;
    }
  }
  // An application without instructions reads as one all-zero row.
  EXPECT_EQ(mixOf({}, KernelCombination::Concatenate), histogramOf(fieldsTensor({}, KernelCombination::Concatenate)));
}

TEST(BaselinesTest, CardPredictorsAgreeWithTheBaselines) {
  TensorDataset data = toyData(15);
  ModelCard card;
  card.baselines = baselineDataOf(data, range(0, 12));
  Baselines baselines(card.baselines, data.clocks);
  embeddings::EncodedKernel kernel{"k", {record(54, 4, 1), record(30, 0, 2), record(30, 0, 2)}};
  InstructionHistogram mix = histogramOf(fieldsTensor({kernel}, KernelCombination::Concatenate));
  for (const char *name : {"training_mean", "nearest_histogram", "knn_log_histogram", "knn_unit_mix"}) {
    auto predictor = makeCardPredictor(card, name);
    ASSERT_NE(predictor, nullptr) << name;
    ApplicationPrediction prediction = predictor->predict({kernel});
    Surface expected = baselines.predict(name, mix);
    for (std::size_t p = 0; p < expected.size(); ++p)
      for (std::size_t m = 0; m < 3; ++m)
        EXPECT_NEAR(prediction.surface.mean[p][m], expected[p][m], 1e-9) << name;
    EXPECT_EQ(prediction.minEnergyPoint, minEnergyPoint(expected)) << name;
  }
  EXPECT_EQ(makeCardPredictor(card, "lstm"), nullptr);
  EXPECT_EQ(makeCardPredictor(card, "histogram_mlp"), nullptr);
  EXPECT_EQ(checkPredictorName("knn_log_histogram"), "");
  EXPECT_NE(checkPredictorName("knn").find("lstm, training_mean"), std::string::npos);
}

TEST(BaselinesTest, AWholeSequenceMixKeepsTheMiddleKernelThatTheCutDrops) {
  embeddings::Dataset dataset;
  dataset.clocks.memoryMHz = {810, 3505};
  dataset.clocks.coreMHz = {{810, {975}}, {3505, {975}}};
  dataset.clocks.defaultPoint = dataset.clocks.fmax = dataset.reference = {3505, 975};
  embeddings::Benchmark benchmark;
  benchmark.name = "three_kernels";
  benchmark.kernels = middleKernelApplication();
  benchmark.scaling = {{2, 1, 2}, {1, 1, 1}};
  dataset.benchmarks.push_back(benchmark);

  TensorDataset cut = makeTensorDataset(dataset, KernelCombination::Concatenate, 4);
  TensorDataset whole = makeTensorDataset(dataset, KernelCombination::Concatenate, 4, true);
  // The LSTM reads the same four rows either way; only the baselines' mix differs.
  ASSERT_TRUE(torch::equal(cut.items[0].fields, whole.items[0].fields));
  const int64_t middleOpcode = 12 + 1, endsOpcode = 30 + 1;
  InstructionHistogram cutMix = baselineMix(cut.items[0]);
  EXPECT_EQ(cutMix.count(middleOpcode), 0u);
  EXPECT_NEAR(cutMix.at(endsOpcode), 1.0, 1e-6);
  InstructionHistogram wholeMix = baselineMix(whole.items[0]);
  EXPECT_NEAR(wholeMix.at(middleOpcode), 8.0 / 12, 1e-6);
  EXPECT_NEAR(wholeMix.at(endsOpcode), 4.0 / 12, 1e-6);
  EXPECT_EQ(baselineDataOf(whole, {0}).histograms[0], wholeMix);
}

TEST(BaselinesTest, ACardReadsTheMixTheWayItsFolderWasTrained) {
  // Two training programs, one of each opcode; the application is mostly
  // the middle kernel's opcode, which only the whole mix sees.
  ModelCard card;
  card.maxLength = 4;
  card.baselines.names = {"middle_like", "ends_like"};
  card.baselines.histograms = {mixOf({kernelOf("m", 12, 4)}, KernelCombination::Concatenate),
                               mixOf({kernelOf("e", 30, 4)}, KernelCombination::Concatenate)};
  Surface middleSurface = {{2, 1, 2}, {1, 1, 1}}, endsSurface = {{1.1, 0.9, 0.99}, {1, 1, 1}};
  card.baselines.surfaces = {middleSurface, endsSurface};

  EXPECT_EQ(card.mixLength(), 4); // a folder that does not say: the cut mix, as before
  Surface cutPrediction = makeCardPredictor(card, "nearest_histogram")->predict(middleKernelApplication()).surface.mean;
  EXPECT_EQ(cutPrediction, endsSurface);

  card.training["whole_sequence_mix"] = true;
  EXPECT_EQ(card.mixLength(), 0);
  Surface wholePrediction = makeCardPredictor(card, "nearest_histogram")->predict(middleKernelApplication()).surface.mean;
  EXPECT_EQ(wholePrediction, middleSurface);
}
