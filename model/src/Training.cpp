// Training.cpp - the epoch loop, head schedules, early stopping and checkpoint files.
#include "ptxdvfs/model/Training.h"

#include "Seeding.h"

#include "ptxdvfs/model/ComputeThreads.h"
#include "ptxdvfs/ptx/WorkQueue.h"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <mutex>
#include <random>

namespace ptxdvfs::model {

namespace {

constexpr const char *kCheckpointFile = "checkpoint.pt";

torch::Tensor headTargets(const Batch &batch, HeadKind head) {
  return batch.targets.select(2, static_cast<int64_t>(head));
}

/// One weight per item of `data`, averaging 1 over `trainSet`: all 1, or
/// with balancing each class of prefersHighMemoryClock() weighs half.
torch::Tensor sampleWeights(const TensorDataset &data, const std::vector<std::size_t> &trainSet,
                            bool balance) {
  torch::Tensor weights = torch::ones({static_cast<int64_t>(data.items.size())});
  if (!balance)
    return weights;
  std::vector<bool> high(data.items.size());
  double highCount = 0;
  for (std::size_t i : trainSet) {
    high[i] = prefersHighMemoryClock(data, i);
    highCount += high[i] ? 1 : 0;
  }
  double total = static_cast<double>(trainSet.size());
  if (highCount == 0 || highCount == total)
    return weights;
  for (std::size_t i : trainSet)
    weights[static_cast<int64_t>(i)] = total / (2 * (high[i] ? highCount : total - highCount));
  return weights;
}

/// The loss of every prediction [B, P], unreduced.
torch::Tensor pointLoss(const torch::Tensor &predicted, const torch::Tensor &target,
                        TargetLoss loss) {
  if (loss == TargetLoss::Relative)
    return torch::smooth_l1_loss(predicted / target, torch::ones_like(target), at::Reduction::None);
  return torch::smooth_l1_loss(predicted, target, at::Reduction::None);
}

/// Loss per application (mean over V-F points), weighted, averaged over the batch.
torch::Tensor headLoss(const torch::Tensor &predicted, const Batch &batch, HeadKind head,
                       const torch::Tensor &weights, TargetLoss loss) {
  torch::Tensor perItem = pointLoss(predicted, headTargets(batch, head), loss).mean(1);
  return (perItem * weights).mean();
}

/// The training state that a checkpoint carries besides weights.
struct Progress {
  int64_t epoch = 0; ///< epochs completed
  int64_t bestEpoch = 0;
  double bestLoss = std::numeric_limits<double>::infinity();
  int64_t epochsWithoutImprovement = 0;
};

/// Copies of the parameters and buffers, to keep the best epoch's weights.
std::vector<torch::Tensor> snapshot(DvfsModel &model) {
  std::vector<torch::Tensor> copies;
  for (const auto &parameter : model->parameters())
    copies.push_back(parameter.detach().clone());
  return copies;
}

void restore(DvfsModel &model, const std::vector<torch::Tensor> &copies) {
  torch::NoGradGuard noGrad;
  auto parameters = model->parameters();
  for (std::size_t i = 0; i < parameters.size(); ++i)
    parameters[i].copy_(copies[i]);
}

void saveCheckpoint(const std::string &dir, DvfsModel &model, torch::optim::Adam &optimizer,
                    const Progress &progress, const std::vector<torch::Tensor> &best) {
  std::filesystem::create_directories(dir);
  torch::serialize::OutputArchive archive;
  torch::serialize::OutputArchive modelArchive, optimizerArchive;
  model->save(modelArchive);
  optimizer.save(optimizerArchive);
  archive.write("model", modelArchive);
  archive.write("optimizer", optimizerArchive);
  archive.write("epoch", torch::tensor(progress.epoch));
  archive.write("best_epoch", torch::tensor(progress.bestEpoch));
  archive.write("best_loss", torch::tensor(progress.bestLoss, torch::kFloat64));
  archive.write("stale_epochs", torch::tensor(progress.epochsWithoutImprovement));
  for (std::size_t i = 0; i < best.size(); ++i)
    archive.write("best_" + std::to_string(i), best[i]);
  // Written beside, then renamed over: a crash leaves the previous checkpoint whole.
  std::string path = dir + "/" + kCheckpointFile;
  archive.save_to(path + ".tmp");
  std::filesystem::rename(path + ".tmp", path);
}

Progress loadCheckpoint(const std::string &path, DvfsModel &model, torch::optim::Adam &optimizer,
                        std::vector<torch::Tensor> &best) {
  torch::serialize::InputArchive archive;
  archive.load_from(path);
  torch::serialize::InputArchive modelArchive, optimizerArchive;
  archive.read("model", modelArchive);
  archive.read("optimizer", optimizerArchive);
  model->load(modelArchive);
  optimizer.load(optimizerArchive);
  auto scalar = [&](const char *key) {
    torch::Tensor value;
    archive.read(key, value);
    return value;
  };
  Progress progress;
  progress.epoch = scalar("epoch").item<int64_t>();
  progress.bestEpoch = scalar("best_epoch").item<int64_t>();
  progress.bestLoss = scalar("best_loss").item<double>();
  progress.epochsWithoutImprovement = scalar("stale_epochs").item<int64_t>();
  best = snapshot(model);
  for (std::size_t i = 0; i < best.size(); ++i)
    archive.read("best_" + std::to_string(i), best[i]);
  return progress;
}

/// Heads whose gradients are undefined are skipped by Adam; zeroed ones
/// would still move through momentum, so unused heads must stay undefined.
void clearGradients(DvfsModel &model) {
  for (auto &parameter : model->parameters())
    parameter.mutable_grad() = torch::Tensor();
}

/// `itemWeights` holds sampleWeights() of every item of `data`.
double trainEpoch(DvfsModel &model, torch::optim::Adam &optimizer, const TensorDataset &data,
                  const std::vector<std::size_t> &trainSet, const torch::Tensor &itemWeights,
                  const TrainOptions &options, int64_t epoch) {
  model->train();
  auto batches = batchesByLength(data, trainSet, static_cast<std::size_t>(options.batch_size()));
  // Same order for the same seed and epoch: a resumed run sees what an
  // uninterrupted one would have seen.
  std::mt19937_64 shuffle(options.seed() * 1000003u + static_cast<uint64_t>(epoch));
  std::shuffle(batches.begin(), batches.end(), shuffle);
  double total = 0;
  for (std::size_t b = 0; b < batches.size(); ++b) {
    Batch batch = collate(data, batches[b]);
    std::vector<int64_t> rows(batch.indices.begin(), batch.indices.end());
    torch::Tensor weights = itemWeights.index_select(0, torch::tensor(rows));
    torch::Tensor loss;
    if (options.schedule() == HeadSchedule::Interleaved) {
      // Rotates with the epoch, so a batch does not always meet the same head.
      auto head = static_cast<HeadKind>((b + static_cast<std::size_t>(epoch)) % kHeadCount);
      torch::Tensor predicted = model->forwardHead(head, batch.fields, batch.lengths, data.clocks);
      loss = headLoss(predicted, batch, head, weights, options.loss());
    } else {
      DvfsPrediction predicted = model->forward(batch.fields, batch.lengths, data.clocks);
      loss = headLoss(predicted.time, batch, HeadKind::Time, weights, options.loss()) +
             headLoss(predicted.power, batch, HeadKind::Power, weights, options.loss()) +
             headLoss(predicted.energy, batch, HeadKind::Energy, weights, options.loss());
    }
    clearGradients(model);
    loss.backward();
    if (options.clip_norm() > 0)
      torch::nn::utils::clip_grad_norm_(model->parameters(), options.clip_norm());
    optimizer.step();
    total += loss.item<double>();
  }
  return batches.empty() ? 0 : total / static_cast<double>(batches.size());
}

} // namespace

double evaluationLoss(DvfsModel &model, const TensorDataset &data,
                      const std::vector<std::size_t> &subset, int64_t batchSize,
                      TargetLoss loss) {
  torch::NoGradGuard noGrad;
  model->eval();
  double total = 0;
  std::size_t count = 0;
  for (const auto &indices : batchesByLength(data, subset, static_cast<std::size_t>(batchSize))) {
    Batch batch = collate(data, indices);
    DvfsPrediction predicted = model->forward(batch.fields, batch.lengths, data.clocks);
    double sum = 0;
    for (auto [head, values] : {std::pair{HeadKind::Time, predicted.time},
                                {HeadKind::Power, predicted.power},
                                {HeadKind::Energy, predicted.energy}})
      sum += pointLoss(values, headTargets(batch, head), loss).mean().item<double>();
    total += sum / kHeadCount * static_cast<double>(indices.size());
    count += indices.size();
  }
  return count == 0 ? std::nan("") : total / static_cast<double>(count);
}

ptx::Expected<TrainResult> train(const TensorDataset &data, const std::vector<std::size_t> &trainSet,
                                 const std::vector<std::size_t> &validationSet,
                                 const DvfsModelOptions &modelOptions, const TrainOptions &options,
                                 const std::function<void(const EpochReport &)> &progressReport) {
  auto fail = [](const std::string &path, std::string message) {
    return ptx::Expected<TrainResult>::failure(
        ptx::Diagnostic{path, {}, ptx::Severity::Error, std::move(message)});
  };
  if (trainSet.empty())
    return fail("", "no benchmark to train on");
  try {
    if (options.threads() > 0)
      setComputeThreads(static_cast<int>(options.threads()));
    DvfsModel model = seeded(options.seed(), [&] { return DvfsModel(modelOptions); });
    torch::optim::Adam optimizer(
        {torch::optim::OptimizerParamGroup(model->latentParameters(),
                                           std::make_unique<torch::optim::AdamOptions>(options.encoder_lr())),
         torch::optim::OptimizerParamGroup(model->headParameters(),
                                           std::make_unique<torch::optim::AdamOptions>(options.head_lr()))});

    Progress progress;
    std::vector<torch::Tensor> best = snapshot(model);
    std::string checkpoint =
        options.checkpoint_dir().empty() ? "" : options.checkpoint_dir() + "/" + kCheckpointFile;
    if (options.resume() && !checkpoint.empty() && std::filesystem::exists(checkpoint)) {
      try {
        progress = loadCheckpoint(checkpoint, model, optimizer, best);
      } catch (const std::exception &e) {
        return fail(checkpoint, std::string("cannot resume from checkpoint: ") + e.what());
      }
    }

    TrainResult result;
    const std::vector<std::size_t> &stoppingSet = validationSet.empty() ? trainSet : validationSet;
    torch::Tensor itemWeights = sampleWeights(data, trainSet, options.balance_classes());
    while (progress.epoch < options.epochs()) {
      auto start = std::chrono::steady_clock::now();
      int64_t epoch = progress.epoch + 1;
      EpochReport report;
      report.epoch = epoch;
      report.epochs = options.epochs();
      report.trainLoss = trainEpoch(model, optimizer, data, trainSet, itemWeights, options, epoch);
      double stoppingLoss =
          evaluationLoss(model, data, stoppingSet, options.batch_size(), options.loss());
      report.validationLoss = validationSet.empty() ? std::nan("") : stoppingLoss;
      report.improved = stoppingLoss < progress.bestLoss;
      if (report.improved) {
        progress.bestLoss = stoppingLoss;
        progress.bestEpoch = epoch;
        progress.epochsWithoutImprovement = 0;
        best = snapshot(model);
      } else {
        ++progress.epochsWithoutImprovement;
      }
      progress.epoch = epoch;
      report.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      result.history.push_back(report);
      if (!checkpoint.empty())
        saveCheckpoint(options.checkpoint_dir(), model, optimizer, progress, best);
      if (progressReport)
        progressReport(report);
      if (options.patience() > 0 && progress.epochsWithoutImprovement >= options.patience()) {
        result.stoppedEarly = true;
        break;
      }
    }
    restore(model, best);
    model->eval();
    result.model = model;
    result.bestEpoch = progress.bestEpoch;
    result.bestLoss = progress.bestLoss;
    return result;
  } catch (const std::exception &e) {
    return fail(options.checkpoint_dir(), std::string("training failed: ") + e.what());
  }
}

ptx::Expected<std::vector<TrainResult>>
trainEnsemble(const TensorDataset &data, const std::vector<std::size_t> &trainSet,
              const std::vector<std::size_t> &validationSet, const DvfsModelOptions &modelOptions,
              const TrainOptions &options, int members, int parallel,
              const std::function<void(int, const EpochReport &)> &progress) {
  std::vector<std::optional<ptx::Expected<TrainResult>>> results(static_cast<std::size_t>(members));
  std::mutex reportLock;
  // Batches of 8 x 50-wide matrices gain nothing from a second thread:
  // one thread per member, unless a single member was given threads.
  int workers = std::max(1, std::min(parallel, members));
  ComputeThreads caller = currentComputeThreads();
  setComputeThreads(workers == 1 && options.threads() > 0 ? static_cast<int>(options.threads()) : 1);
  ptx::runJobs(static_cast<std::size_t>(members), static_cast<unsigned>(workers), [&](std::size_t m) {
    TrainOptions memberOptions = options;
    memberOptions.seed(options.seed() + m).threads(0);
    if (!options.checkpoint_dir().empty())
      memberOptions.checkpoint_dir(options.checkpoint_dir() + "/member-" + std::to_string(m));
    results[m] = train(data, trainSet, validationSet, modelOptions, memberOptions,
                       [&](const EpochReport &report) {
                         std::lock_guard<std::mutex> guard(reportLock);
                         if (progress)
                           progress(static_cast<int>(m), report);
                       });
  });
  restoreComputeThreads(caller);
  std::vector<TrainResult> trained;
  for (auto &result : results) {
    if (!*result)
      return ptx::Expected<std::vector<TrainResult>>::failure(result->takeDiagnostics());
    trained.push_back(std::move(**result));
  }
  return trained;
}

} // namespace ptxdvfs::model
