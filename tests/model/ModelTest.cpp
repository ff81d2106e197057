// ModelTest.cpp - tensors, encoder, heads and training on tiny CPU problems with fixed seeds.
#include "ToyData.h"

#include "ptxdvfs/model/FusedLstm.h"
#include "ptxdvfs/model/Training.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <fstream>

using namespace ptxdvfs;
using namespace ptxdvfs::model;
namespace fs = std::filesystem;

using namespace ptxdvfs::test;

TEST(TensorDatasetTest, FieldsShiftOpcodesAndCombineKernels) {
  embeddings::EncodedKernel first{"a", {record(54, 4, 1), record(30, 0, 2)}};
  embeddings::EncodedKernel second{"b", {record(0, 0, 0)}};
  torch::Tensor all = fieldsTensor({first, second}, KernelCombination::Concatenate);
  ASSERT_EQ(all.sizes(), (std::vector<int64_t>{3, kFieldCount}));
  EXPECT_EQ(all[0][kOpcodeColumn].item<int64_t>(), 55);
  EXPECT_EQ(all[0][kSpaceColumn].item<int64_t>(), 4);
  EXPECT_EQ(all[1][kDistanceColumn].item<int64_t>(), 2);
  EXPECT_EQ(all[2][kOpcodeColumn].item<int64_t>(), 1);
  torch::Tensor last = fieldsTensor({first, second}, KernelCombination::LastKernel);
  EXPECT_EQ(last.size(0), 1);
  torch::Tensor empty = fieldsTensor({embeddings::EncodedKernel{"e", {}}}, KernelCombination::Concatenate);
  EXPECT_EQ(empty.sizes(), (std::vector<int64_t>{1, kFieldCount}));
  EXPECT_EQ(empty.sum().item<int64_t>(), 0);
}

TEST(TensorDatasetTest, TheMixCountsExecutionsThroughTheWeights) {
  embeddings::InstructionRecord loopBody = record(54, 4, 1), once = record(30, 0, 2);
  loopBody.weight = 3;
  embeddings::EncodedKernel kernel{"k", {loopBody, once}};
  torch::Tensor fields = fieldsTensor({kernel}, KernelCombination::Concatenate);
  EXPECT_EQ(fields[0][kWeightColumn].item<int64_t>(), static_cast<int64_t>(3 * kWeightScale));
  torch::Tensor mix = instructionMix(fields.unsqueeze(0), torch::tensor({int64_t{2}}))[0];
  EXPECT_FLOAT_EQ(mix[55].item<float>(), 0.75f); // opcode 54, shifted by one
  EXPECT_FLOAT_EQ(mix[31].item<float>(), 0.25f);
  // Rows without a weight (hand-made tensors) count once each.
  torch::Tensor unweighted = fields.clone();
  unweighted.select(1, kWeightColumn).zero_();
  torch::Tensor plain = instructionMix(unweighted.unsqueeze(0), torch::tensor({int64_t{2}}))[0];
  EXPECT_FLOAT_EQ(plain[55].item<float>(), 0.5f);
}

TEST(TensorDatasetTest, KernelsWeighByTheThreadsOfTheirLaunch) {
  // One instruction per thread each; the second kernel launches 3 times the threads.
  embeddings::EncodedKernel small{"small", {record(54, 4, 1)}}, large{"large", {record(30, 0, 2)}};
  small.launch = launchOf({4, 1, 1}, {256, 1, 1});
  large.launch = launchOf({4, 3, 1}, {128, 2, 1});
  const std::vector<embeddings::EncodedKernel> application{small, large};
  std::vector<KernelRead> read = kernelsRead(application, KernelCombination::Concatenate);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_DOUBLE_EQ(read[0].share, 1.0 / 3);
  EXPECT_DOUBLE_EQ(read[1].share, 1.0);
  torch::Tensor fields = fieldsTensor({small, large}, KernelCombination::Concatenate);
  EXPECT_EQ(fields[0][kWeightColumn].item<int64_t>(), 333);
  EXPECT_EQ(fields[1][kWeightColumn].item<int64_t>(), 1000);
  InstructionHistogram mix = mixOf({small, large}, KernelCombination::Concatenate);
  EXPECT_NEAR(mix.at(55), 0.25, 1e-3);
  EXPECT_NEAR(mix.at(31), 0.75, 1e-3);
  // Launched 6 times, the small kernel weighs twice the large one.
  small.launch->launches = 6;
  EXPECT_NEAR(mixOf({small, large}, KernelCombination::Concatenate).at(55), 2.0 / 3, 1e-3);
  small.launch->launches = 1;
  // The last kernel alone is the whole application.
  read = kernelsRead(application, KernelCombination::LastKernel);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].kernel->name, "large");
  EXPECT_EQ(read[0].share, 1.0);
  // A kernel without a launch (read as written, imported) leaves every weight as it is.
  embeddings::EncodedKernel unknown{"unknown", {record(30, 0, 2)}};
  const std::vector<embeddings::EncodedKernel> partlyKnown{small, unknown};
  for (const KernelRead &kernel : kernelsRead(partlyKnown, KernelCombination::Concatenate))
    EXPECT_EQ(kernel.share, 1.0);
  EXPECT_NEAR(mixOf({small, unknown}, KernelCombination::Concatenate).at(55), 0.5, 1e-6);
  // Launched alike, exactly as before: the microbenchmarks' mixes do not move.
  large.launch = small.launch;
  EXPECT_TRUE(torch::equal(fieldsTensor({small, large}, KernelCombination::Concatenate),
                           fieldsTensor({small, unknown}, KernelCombination::Concatenate)));
}

TEST(TensorDatasetTest, AKernelOfNoLaunchesIsNotRead) {
  // The host code read launches `used` and not `unused`: the application is `used` alone.
  embeddings::EncodedKernel used{"used", {record(54, 4, 1)}}, unused{"unused", {record(30, 0, 2)}};
  used.launch = launchOf({64, 1, 1}, {128, 1, 1});
  unused.launch = launchOf({1024, 1, 1}, {256, 1, 1});
  unused.launch->launches = 0;
  const std::vector<embeddings::EncodedKernel> application{unused, used};
  const std::vector<KernelRead> read = kernelsRead(application, KernelCombination::Concatenate);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].kernel->name, "used");
  EXPECT_EQ(read[0].share, 1.0);
  EXPECT_TRUE(torch::equal(fieldsTensor(application, KernelCombination::Concatenate),
                           fieldsTensor({used}, KernelCombination::Concatenate)));
  EXPECT_EQ(mixOf(application, KernelCombination::Concatenate).count(31), 0u);
  // Where no kernel has a launch, each is read as before, once per thread.
  embeddings::EncodedKernel alsoUnused = used;
  alsoUnused.launch->launches = 0;
  const std::vector<embeddings::EncodedKernel> noneLaunched{unused, alsoUnused};
  const std::vector<KernelRead> both = kernelsRead(noneLaunched, KernelCombination::Concatenate);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].share, 1.0);
  EXPECT_EQ(both[1].share, 1.0);
}

TEST(TensorDatasetTest, BatchesGroupSimilarLengths) {
  TensorDataset data = toyData(20);
  auto batches = batchesByLength(data, range(0, 20), 8);
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[2].size(), 4u);
  int64_t previousLongest = 0;
  for (const auto &batch : batches) {
    int64_t shortest = INT64_MAX, longest = 0;
    for (std::size_t i : batch) {
      shortest = std::min(shortest, data.items[i].fields.size(0));
      longest = std::max(longest, data.items[i].fields.size(0));
    }
    EXPECT_GE(shortest, previousLongest);
    previousLongest = longest;
  }
  Batch batch = collate(data, batches[0]);
  EXPECT_EQ(batch.fields.size(0), 8);
  EXPECT_EQ(batch.targets.sizes(), (std::vector<int64_t>{8, 4, 3}));
}

TEST(FusedLstmTest, MatchesTorchLstmInOutputsAndGradients) {
  torch::manual_seed(3);
  FusedLstm fused(FusedLstmOptions(5, 7).num_layers(2));
  torch::nn::LSTM reference(torch::nn::LSTMOptions(5, 7).num_layers(2).batch_first(true));
  {
    torch::NoGradGuard noGrad;
    for (const auto &item : reference->named_parameters())
      item.value().copy_(fused->named_parameters()[item.key()]);
  }
  torch::Tensor input = torch::randn({3, 11, 5});
  torch::Tensor fusedInput = input.clone().requires_grad_(true);
  torch::Tensor referenceInput = input.clone().requires_grad_(true);
  torch::Tensor fusedOutput = fused(fusedInput);
  torch::Tensor referenceOutput = std::get<0>(reference->forward(referenceInput));
  ASSERT_EQ(fusedOutput.sizes(), referenceOutput.sizes());
  EXPECT_TRUE(torch::allclose(fusedOutput, referenceOutput, 1e-5, 1e-6));

  torch::Tensor weights = torch::randn({3, 11, 7}); // a loss that uses every step
  (fusedOutput * weights).sum().backward();
  (referenceOutput * weights).sum().backward();
  EXPECT_TRUE(torch::allclose(fusedInput.grad(), referenceInput.grad(), 1e-4, 1e-5));
  for (const auto &item : reference->named_parameters())
    EXPECT_TRUE(torch::allclose(fused->named_parameters()[item.key()].grad(), item.value().grad(),
                                1e-4, 1e-5))
        << item.key();
}

TEST(DvfsModelTest, PredictsOneValuePerApplicationAndPoint) {
  torch::manual_seed(0);
  TensorDataset data = toyData(5);
  DvfsModel model(tinyModel());
  Batch batch = collate(data, range(0, 5));
  DvfsPrediction prediction = model->forward(batch.fields, batch.lengths, data.clocks);
  EXPECT_EQ(prediction.time.sizes(), (std::vector<int64_t>{5, 4}));
  EXPECT_EQ(prediction.power.sizes(), (std::vector<int64_t>{5, 4}));
  EXPECT_EQ(prediction.energy.sizes(), (std::vector<int64_t>{5, 4}));
}

TEST(DvfsModelTest, PaddingNeverReachesTheLatent) {
  TensorDataset data = toyData(10);
  torch::NoGradGuard noGrad;
  Batch alone = collate(data, {1});
  Batch padded = collate(data, {1, 9}); // item 9 is longer: item 1 gets padding
  ASSERT_GT(padded.fields.size(1), data.items[1].fields.size(0));
  torch::Tensor last, mean;
  for (Readout readout : {Readout::Last, Readout::Mean}) {
    torch::manual_seed(0);
    DvfsModelOptions options = tinyModel();
    options.encoder(LstmEncoderOptions(options.encoder()).readout(readout));
    DvfsModel model(options);
    torch::Tensor z1 = model->encoder(alone.fields, alone.lengths);
    torch::Tensor z2 = model->encoder(padded.fields, padded.lengths);
    EXPECT_TRUE(torch::allclose(z1[0], z2[0], 1e-6, 1e-6)) << int(readout);
    (readout == Readout::Last ? last : mean) = z1;
  }
  EXPECT_FALSE(torch::allclose(last, mean)) << "the two read-outs must differ";
}

TEST(TrainingTest, LossDecreases) {
  ToyLearning run = learnToyProblem(tinyModel());
  EXPECT_LT(run.after, run.before * 0.5) << "before " << run.before << ", after " << run.after;
  ASSERT_EQ(run.result.history.size(), 30u);
  EXPECT_LT(run.result.history.back().trainLoss, run.result.history.front().trainLoss);
}

TEST(TrainingTest, InterleavedScheduleAlsoLearns) {
  TensorDataset data = toyData(24);
  auto result = train(data, range(0, 20), range(20, 24), tinyModel(),
                      TrainOptions().epochs(30).seed(3).patience(0));
  ASSERT_TRUE(result.hasValue());
  EXPECT_LT(result->bestLoss, result->history.front().validationLoss);
  EXPECT_FALSE(std::isnan(result->history.front().validationLoss));
}

TEST(TrainingTest, SameSeedSameWeights) {
  TensorDataset data = toyData(12);
  auto options = TrainOptions().epochs(4).seed(11).patience(0);
  auto a = train(data, range(0, 12), {}, tinyModel(), options);
  auto b = train(data, range(0, 12), {}, tinyModel(), options);
  ASSERT_TRUE(a.hasValue() && b.hasValue());
  EXPECT_TRUE(sameWeights(a->model, b->model));
  auto c = train(data, range(0, 12), {}, tinyModel(), TrainOptions().epochs(4).seed(12).patience(0));
  EXPECT_FALSE(sameWeights(a->model, c->model));
}

TEST(TrainingTest, ResumedRunEndsWithTheSameWeights) {
  TensorDataset data = toyData(16);
  std::string straightDir = freshDir("ptxdvfs_ckpt_straight"), resumedDir = freshDir("ptxdvfs_ckpt_resumed");
  auto options = TrainOptions().seed(5).patience(0);
  auto straight = train(data, range(0, 12), range(12, 16), tinyModel(),
                        TrainOptions(options).epochs(6).checkpoint_dir(straightDir));
  auto firstHalf = train(data, range(0, 12), range(12, 16), tinyModel(),
                         TrainOptions(options).epochs(3).checkpoint_dir(resumedDir));
  ASSERT_TRUE(fs::exists(resumedDir + "/checkpoint.pt"));
  auto secondHalf = train(data, range(0, 12), range(12, 16), tinyModel(),
                          TrainOptions(options).epochs(6).checkpoint_dir(resumedDir).resume(true));
  ASSERT_TRUE(straight.hasValue() && firstHalf.hasValue() && secondHalf.hasValue());
  EXPECT_EQ(secondHalf->history.size(), 3u); // epochs 4..6 only
  EXPECT_EQ(secondHalf->history.front().epoch, 4);
  EXPECT_EQ(secondHalf->bestEpoch, straight->bestEpoch);
  EXPECT_TRUE(sameWeights(straight->model, secondHalf->model));
  fs::remove_all(straightDir);
  fs::remove_all(resumedDir);
}

TEST(TrainingTest, CorruptCheckpointIsAClearError) {
  TensorDataset data = toyData(4);
  std::string dir = freshDir("ptxdvfs_ckpt_corrupt");
  fs::create_directories(dir);
  std::ofstream(dir + "/checkpoint.pt") << "not a checkpoint";
  auto result = train(data, range(0, 4), {}, tinyModel(),
                      TrainOptions().epochs(2).checkpoint_dir(dir).resume(true));
  ASSERT_FALSE(result.hasValue());
  EXPECT_EQ(result.diagnostics()[0].path, dir + "/checkpoint.pt");
  EXPECT_NE(result.diagnostics()[0].message.find("cannot resume from checkpoint"), std::string::npos);
  fs::remove_all(dir);
}

TEST(TrainingTest, EarlyStoppingKeepsTheBestEpoch) {
  TensorDataset data = toyData(16);
  auto result = train(data, range(0, 12), range(12, 16), tinyModel(),
                      TrainOptions().epochs(200).seed(2).patience(3).encoder_lr(0.05).head_lr(0.05));
  ASSERT_TRUE(result.hasValue());
  EXPECT_TRUE(result->stoppedEarly);
  EXPECT_LT(result->history.size(), 200u);
  EXPECT_EQ(result->history.size(), static_cast<std::size_t>(result->bestEpoch + 3));
  EXPECT_NEAR(evaluationLoss(result->model, data, range(12, 16), 8), result->bestLoss, 1e-6);
}
