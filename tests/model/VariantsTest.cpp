// VariantsTest.cpp - the design choices that cross-validation decides between: physically
// shaped heads, the joint embedding table, truncated sequences, class balancing, ensembles.
#include "ToyData.h"

#include "ptxdvfs/model/Training.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

using namespace ptxdvfs;
using namespace ptxdvfs::test;

namespace {

/// A 4 x 4 grid of normalised clocks, memory-major.
torch::Tensor denseClocks() {
  std::vector<float> values;
  for (float memory : {0.25f, 0.5f, 0.75f, 1.0f})
    for (float core : {0.5f, 0.66f, 0.83f, 1.0f}) {
      values.push_back(memory);
      values.push_back(core);
    }
  return torch::tensor(values).reshape({16, 2});
}

DvfsModelOptions physicalModel() { return tinyModel().head_shape(HeadShape::Physical); }

} // namespace

TEST(PhysicalHeadTest, SurfacesArePositiveAndMonotonicInEachClock) {
  torch::NoGradGuard noGrad;
  torch::Tensor clocks = denseClocks();
  for (uint64_t seed : {1, 2, 3}) {
    torch::manual_seed(seed);
    // Seed 3: the two parts add (k = 1) rather than overlap, and the power
    // interaction may be negative.
    DvfsModel model(physicalModel().time_max_overlap(seed == 3 ? 1.0 : 9.0)
                        .signed_power_interaction(seed == 3));
    // Latents far from the origin exercise saturated coefficients too.
    torch::Tensor z = 3 * torch::randn({5, 8});
    torch::Tensor time = model->applyHead(HeadKind::Time, z, clocks).view({5, 4, 4});
    torch::Tensor power = model->applyHead(HeadKind::Power, z, clocks).view({5, 4, 4});
    torch::Tensor energy = model->applyHead(HeadKind::Energy, z, clocks).view({5, 4, 4});
    EXPECT_GT(time.min().item<float>(), 0);
    EXPECT_GE(power.min().item<float>(), 0);
    EXPECT_GT(energy.min().item<float>(), 0);
    // Raising either clock never slows a program down and never lowers power.
    EXPECT_LE((time.slice(1, 1) - time.slice(1, 0, 3)).max().item<float>(), 1e-6) << "memory";
    EXPECT_LE((time.slice(2, 1) - time.slice(2, 0, 3)).max().item<float>(), 1e-6) << "core";
    EXPECT_GE((power.slice(1, 1) - power.slice(1, 0, 3)).min().item<float>(), -1e-6);
    EXPECT_GE((power.slice(2, 1) - power.slice(2, 0, 3)).min().item<float>(), -1e-6);
  }
}

TEST(PhysicalHeadTest, WithNoOverlapTheTimePartsAdd) {
  torch::NoGradGuard noGrad;
  torch::manual_seed(4);
  DvfsModel model(physicalModel().time_max_overlap(1.0));
  torch::Tensor z = torch::randn({1, 8});
  torch::Tensor raw = model->timeHead(z);
  torch::Tensor c = torch::softplus(raw) + 1e-4;
  torch::Tensor clocks = torch::tensor({0.5f, 0.25f}).reshape({1, 2}); // v = 0.5, u = 0.25
  float expected = (c[0][0] + c[0][1] / 0.25 + c[0][2] / 0.5).item<float>();
  EXPECT_NEAR(model->applyHead(HeadKind::Time, z, clocks).item<float>(), expected, 1e-4 * expected);
}

TEST(PhysicalHeadTest, ASignedInteractionCanMakePowerRiseFasterWithCoreAtLowMemoryClock) {
  // The measured GTX Titan X shape: the core clock adds more power at the
  // low memory clock than at the high one. Search latents for one whose
  // surface shows it; a positive interaction never can.
  torch::NoGradGuard noGrad;
  torch::Tensor clocks = torch::tensor({0.25f, 0.5f, 0.25f, 1.0f, 1.0f, 0.5f, 1.0f, 1.0f}).reshape({4, 2});
  auto steepestAtLowMemory = [&](bool signedInteraction) {
    torch::manual_seed(6);
    DvfsModel model(physicalModel().signed_power_interaction(signedInteraction));
    torch::Tensor power = model->applyHead(HeadKind::Power, 4 * torch::randn({200, 8}), clocks);
    torch::Tensor lowSlope = power.select(1, 1) - power.select(1, 0);
    torch::Tensor highSlope = power.select(1, 3) - power.select(1, 2);
    EXPECT_GE(lowSlope.min().item<float>(), -1e-6);
    EXPECT_GE(highSlope.min().item<float>(), -1e-6);
    return (lowSlope - highSlope).max().item<float>();
  };
  EXPECT_LE(steepestAtLowMemory(false), 1e-6);
  EXPECT_GT(steepestAtLowMemory(true), 1e-3);
}

TEST(PhysicalHeadTest, LearnsTheToyProblem) {
  ToyLearning run = learnToyProblem(physicalModel());
  EXPECT_LT(run.after, run.before * 0.5) << "before " << run.before << ", after " << run.after;
}

TEST(JointEmbeddingTest, OneRowPerWholeCodeSoAnUnseenCombinationSharesNothing) {
  torch::manual_seed(1);
  LstmEncoder joint(LstmEncoderOptions().hidden_size(8).embedding(EmbeddingMode::Joint));
  ASSERT_TRUE(joint->joint);
  EXPECT_FALSE(joint->opcode);
  EXPECT_EQ(joint->joint->weight.size(0), kJointRows);
  EXPECT_EQ(joint->joint->weight.size(1), joint->options.inputSize());
  // Two codes that differ only in the dependency distance.
  embeddings::EncodedKernel a{"a", {record(54, 4, 1)}}, b{"b", {record(54, 4, 2)}};
  torch::Tensor fa = fieldsTensor({a}, KernelCombination::Concatenate);
  torch::Tensor fb = fieldsTensor({b}, KernelCombination::Concatenate);
  torch::Tensor fields = torch::stack({fa, fb});
  torch::Tensor lengths = torch::tensor({int64_t{1}, int64_t{1}});
  torch::Tensor z = joint(fields, lengths);
  EXPECT_FALSE(torch::allclose(z[0], z[1]));
  // Training moves only the rows of codes that occur.
  TensorDataset data = toyData(8);
  auto result = train(data, range(0, 8), {},
                      tinyModel().encoder(LstmEncoderOptions().hidden_size(8).embedding(
                          EmbeddingMode::Joint)),
                      TrainOptions().epochs(2).seed(1).patience(0));
  ASSERT_TRUE(result.hasValue());
  torch::manual_seed(1);
  DvfsModel untrained(
      tinyModel().encoder(LstmEncoderOptions().hidden_size(8).embedding(EmbeddingMode::Joint)));
  torch::Tensor changed =
      (result->model->encoder->joint->weight - untrained->encoder->joint->weight).abs().sum(1).gt(0);
  EXPECT_GT(changed.sum().item<int64_t>(), 0);
  EXPECT_LE(changed.sum().item<int64_t>(), 2) << "the toy data use two distinct codes";
}

TEST(TruncationTest, LongSequencesKeepTheirFirstAndLastHalves) {
  embeddings::EncodedKernel kernel{"k", {}};
  for (int i = 0; i < 10; ++i)
    kernel.instructions.push_back(record(i, 0, 0));
  torch::Tensor cut = fieldsTensor({kernel}, KernelCombination::Concatenate, 5);
  ASSERT_EQ(cut.size(0), 5);
  std::vector<int64_t> opcodes;
  for (int64_t i = 0; i < 5; ++i)
    opcodes.push_back(cut[i][kOpcodeColumn].item<int64_t>() - 1);
  EXPECT_EQ(opcodes, (std::vector<int64_t>{0, 1, 7, 8, 9}));
  EXPECT_EQ(fieldsTensor({kernel}, KernelCombination::Concatenate, 10).size(0), 10);
  EXPECT_EQ(fieldsTensor({kernel}, KernelCombination::Concatenate, 0).size(0), 10);
}

TEST(ClassBalanceTest, TheToyDataHoldBothClassesAndBalancedTrainingStillLearns) {
  TensorDataset data = toyData(20);
  int high = 0;
  for (std::size_t i = 0; i < data.items.size(); ++i)
    high += prefersHighMemoryClock(data, i) ? 1 : 0;
  EXPECT_GT(high, 0);
  EXPECT_LT(high, 20);
  auto plain = train(data, range(0, 20), {}, tinyModel(),
                     TrainOptions().epochs(3).seed(4).patience(0));
  auto balanced = train(data, range(0, 20), {}, tinyModel(),
                        TrainOptions().epochs(3).seed(4).patience(0).balance_classes(true));
  ASSERT_TRUE(plain.hasValue() && balanced.hasValue());
  EXPECT_FALSE(sameWeights(plain->model, balanced->model)) << "the weights must change the loss";
  EXPECT_LT(balanced->history.back().trainLoss, balanced->history.front().trainLoss);
}

TEST(EnsembleTrainingTest, MembersDifferInSeedAndParallelTrainingGivesTheSameWeights) {
  TensorDataset data = toyData(12);
  auto options = TrainOptions().epochs(3).seed(20).patience(0);
  auto serial = trainEnsemble(data, range(0, 10), range(10, 12), tinyModel(), options, 3, 1);
  auto parallel = trainEnsemble(data, range(0, 10), range(10, 12), tinyModel(), options, 3, 2);
  ASSERT_TRUE(serial.hasValue() && parallel.hasValue());
  ASSERT_EQ(serial->size(), 3u);
  for (std::size_t m = 0; m < 3; ++m)
    EXPECT_TRUE(sameWeights((*serial)[m].model, (*parallel)[m].model)) << "member " << m;
  EXPECT_FALSE(sameWeights((*serial)[0].model, (*serial)[1].model));
  // Member m is the single run with seed + m.
  auto single = train(data, range(0, 10), range(10, 12), tinyModel(), TrainOptions(options).seed(21));
  ASSERT_TRUE(single.hasValue());
  EXPECT_TRUE(sameWeights(single->model, (*serial)[1].model));
}

TEST(MixFeaturesTest, TheMixCountsRealInstructionsOnlyAndReachesTheHeads) {
  TensorDataset data = toyData(10);
  Batch padded = collate(data, {1, 9}); // item 1 is shorter: it gets padding
  torch::Tensor mix = instructionMix(padded.fields, padded.lengths);
  ASSERT_EQ(mix.sizes(), (std::vector<int64_t>{2, kMixWidth}));
  for (int64_t b = 0; b < 2; ++b) {
    EXPECT_NEAR(mix[b].narrow(0, 0, kOpcodeRows).sum().item<float>(), 1.0f, 1e-5);
    EXPECT_NEAR(mix[b].narrow(0, kOpcodeRows, kSpaceRows).sum().item<float>(), 1.0f, 1e-5);
  }
  EXPECT_EQ(mix[0][0].item<float>(), 0.0f) << "padding (opcode 0) was counted";
  // Item 1 has memory share 1/4: that share of its instructions are loads (opcode 54 + 1).
  int64_t loads = 0;
  for (int64_t i = 0; i < data.items[1].fields.size(0); ++i)
    loads += data.items[1].fields[i][kOpcodeColumn].item<int64_t>() == 55 ? 1 : 0;
  EXPECT_NEAR(mix[0][55].item<float>(), float(loads) / float(data.items[1].fields.size(0)), 1e-6);

  torch::manual_seed(2);
  DvfsModel model(tinyModel().mix_dim(5));
  torch::NoGradGuard noGrad;
  Batch alone = collate(data, {1});
  EXPECT_EQ(model->latent(alone.fields, alone.lengths).size(1), 8 + 5);
  DvfsPrediction a = model->forward(alone.fields, alone.lengths, data.clocks);
  DvfsPrediction b = model->forward(padded.fields, padded.lengths, data.clocks);
  EXPECT_TRUE(torch::allclose(a.energy[0], b.energy[0], 1e-5, 1e-6));
  // The heads read the mix: a different mix under the same z changes the output.
  torch::Tensor z = model->encoder(alone.fields, alone.lengths);
  torch::Tensor withOtherMix =
      torch::cat({z, torch::tanh(model->mix(instructionMix(padded.fields, padded.lengths)[1].unsqueeze(0)))}, 1);
  EXPECT_FALSE(torch::allclose(model->applyHead(HeadKind::Time, withOtherMix, data.clocks),
                               a.time));
}

TEST(MixFeaturesTest, TrainingMovesEveryParameterTheMixProjectionIncluded) {
  TensorDataset data = toyData(8);
  DvfsModelOptions options = tinyModel().mix_dim(4);
  DvfsModel initial = [&] {
    torch::manual_seed(5);
    return DvfsModel(options);
  }();
  EXPECT_EQ(initial->latentParameters().size() + initial->headParameters().size(),
            initial->parameters().size());
  // Joint schedule: one epoch reaches every head.
  auto trained = train(data, range(0, 8), {}, options,
                       TrainOptions().epochs(1).seed(5).patience(0).schedule(HeadSchedule::Joint));
  ASSERT_TRUE(trained.hasValue());
  auto before = initial->named_parameters(), after = trained->model->named_parameters();
  ASSERT_EQ(before.size(), after.size());
  for (const auto &item : before) {
    EXPECT_FALSE(torch::equal(item.value(), after[item.key()])) << item.key() << " never trained";
  }
}

TEST(TargetLossTest, RelativeLossWeighsAnErrorByTheTrueFactor) {
  // Two applications whose measured factors differ tenfold; a model that
  // predicts every factor 20% too high is off by the same ratio on both.
  TensorDataset data = toyData(2);
  data.items[1].targets = data.items[0].targets * 10;
  torch::manual_seed(3);
  DvfsModel model(tinyModel());
  double absolute0 = evaluationLoss(model, data, {0}, 8, TargetLoss::Absolute);
  double absolute1 = evaluationLoss(model, data, {1}, 8, TargetLoss::Absolute);
  EXPECT_GT(absolute1, 3 * absolute0) << "absolute errors grow with the factor";
  // Relative: the same model scores each application by predicted/true.
  DvfsPrediction p = [&] {
    torch::NoGradGuard noGrad;
    Batch batch = collate(data, {0});
    return model->forward(batch.fields, batch.lengths, data.clocks);
  }();
  torch::Tensor ratio = p.time[0] / data.items[0].targets.select(1, 0);
  double expected = torch::smooth_l1_loss(ratio, torch::ones_like(ratio)).item<double>();
  double relativeTime = [&] {
    TensorDataset timeOnly = data;
    // Make power and energy exact so that only the time head contributes.
    timeOnly.items[0].targets = torch::stack({data.items[0].targets.select(1, 0), p.power[0], p.energy[0]}, 1);
    return evaluationLoss(model, timeOnly, {0}, 8, TargetLoss::Relative) * kHeadCount;
  }();
  EXPECT_NEAR(relativeTime, expected, 1e-5);
}

TEST(TargetLossTest, RelativeLossAndClippingStillLearnAndClippingChangesTheRun) {
  TensorDataset data = toyData(16);
  auto options = TrainOptions().epochs(8).seed(9).patience(0).loss(TargetLoss::Relative);
  auto plain = train(data, range(0, 16), {}, tinyModel(), options);
  auto clipped = train(data, range(0, 16), {}, tinyModel(), TrainOptions(options).clip_norm(0.01));
  ASSERT_TRUE(plain.hasValue() && clipped.hasValue());
  for (const auto *run : {&*plain, &*clipped})
    EXPECT_LT(run->history.back().trainLoss, run->history.front().trainLoss);
  EXPECT_FALSE(sameWeights(plain->model, clipped->model));
}

TEST(LengthFeatureTest, HeadsSeeTheLogLengthAndPaddingDoesNotChangeIt) {
  TensorDataset data = toyData(10);
  torch::manual_seed(5);
  DvfsModel model(tinyModel().mix_dim(3).length_feature(true));
  torch::NoGradGuard noGrad;
  Batch alone = collate(data, {1}), padded = collate(data, {1, 9});
  torch::Tensor latent = model->latent(alone.fields, alone.lengths);
  ASSERT_EQ(latent.size(1), 8 + 3 + 1);
  EXPECT_NEAR(latent[0][11].item<float>(), std::log(float(data.items[1].fields.size(0))) / 10, 1e-6);
  EXPECT_TRUE(torch::allclose(model->latent(padded.fields, padded.lengths)[0], latent[0], 1e-5, 1e-6));
}
