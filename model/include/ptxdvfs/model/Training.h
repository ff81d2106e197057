// Training.h - fitting a DvfsModel: schedules, early stopping, checkpoints.
#pragma once

#include "ptxdvfs/model/DvfsModel.h"
#include "ptxdvfs/model/TensorDataset.h"
#include "ptxdvfs/ptx/Expected.h"

#include <functional>
#include <string>
#include <vector>

namespace ptxdvfs::model {

/// How heads share batches.
enum class HeadSchedule {
  Interleaved, ///< the paper: each batch trains the encoder and one head, rotating
  Joint,       ///< each batch trains everything on the sum of the three losses
};

/// What a prediction's error costs, per V-F point.
enum class TargetLoss {
  Absolute, ///< the paper: SmoothL1(predicted, true)
  /// SmoothL1(predicted / true, 1): an error costs in proportion to the
  /// true factor, as MAPE scores it, so the large factors of memory-bound
  /// programs at the low memory clock are not underweighted
  Relative,
};

/// Hyper-parameters of one training run. `TrainOptions().epochs(100).seed(3)`.
struct TrainOptions {
  TORCH_ARG(int64_t, epochs) = 200;
  /// Applications per batch; batches group applications of similar length.
  TORCH_ARG(int64_t, batch_size) = 8;
  TORCH_ARG(double, encoder_lr) = 0.005;
  TORCH_ARG(double, head_lr) = 0.01;
  TORCH_ARG(HeadSchedule, schedule) = HeadSchedule::Interleaved;
  /// Stop after this many epochs without a better validation loss
  /// (0: never stop early). Without a validation set the training loss is used.
  TORCH_ARG(int64_t, patience) = 40;
  TORCH_ARG(uint64_t, seed) = 1;
  /// Weight the loss so that applications whose best memory clock is high
  /// and those whose best is low count equally (see prefersHighMemoryClock).
  TORCH_ARG(bool, balance_classes) = false;
  /// Rescale each step's gradient to at most this L2 norm (0: never).
  /// LSTMs over thousands of steps get rare huge gradients that undo
  /// epochs of progress in one step.
  TORCH_ARG(double, clip_norm) = 0.0;
  TORCH_ARG(TargetLoss, loss) = TargetLoss::Absolute;
  /// CPU threads for torch (0: leave torch's default).
  TORCH_ARG(int64_t, threads) = 0;
  /// Folder for `checkpoint.pt`, rewritten atomically after every epoch;
  /// empty: no checkpoints.
  TORCH_ARG(std::string, checkpoint_dir) = "";
  /// Continue from `checkpoint_dir/checkpoint.pt` if it exists.
  TORCH_ARG(bool, resume) = false;
};

struct EpochReport {
  int64_t epoch = 0;            ///< 1-based
  int64_t epochs = 0;           ///< planned
  double trainLoss = 0;         ///< mean SmoothL1 over the epoch's batches
  double validationLoss = 0;    ///< mean SmoothL1 of all heads; NaN without a validation set
  double seconds = 0;           ///< this epoch's wall time
  bool improved = false;
};

struct TrainResult {
  DvfsModel model{nullptr};     ///< holds the best epoch's weights
  std::vector<EpochReport> history;
  int64_t bestEpoch = 0;
  double bestLoss = 0;
  bool stoppedEarly = false;
};

/// Trains on `trainSet` (indices into `data.items`) and early-stops on
/// `validationSet`. Deterministic on CPU for a given seed and thread
/// count; a run resumed from its checkpoint ends with the same weights as
/// one that never stopped. Fails (never throws) on a corrupt checkpoint or
/// a torch error.
ptx::Expected<TrainResult> train(const TensorDataset &data, const std::vector<std::size_t> &trainSet,
                                 const std::vector<std::size_t> &validationSet,
                                 const DvfsModelOptions &modelOptions, const TrainOptions &options,
                                 const std::function<void(const EpochReport &)> &progress = {});

/// Trains `members` models that differ only in seed (options.seed() + m),
/// up to `parallel` at a time, each on one thread (torch's and the BLAS's;
/// a lone member gets options.threads() if set). The caller's thread
/// settings are restored afterwards. Member m
/// checkpoints into checkpoint_dir/member-m. `progress` is called under a
/// lock with the member's index.
ptx::Expected<std::vector<TrainResult>>
trainEnsemble(const TensorDataset &data, const std::vector<std::size_t> &trainSet,
              const std::vector<std::size_t> &validationSet, const DvfsModelOptions &modelOptions,
              const TrainOptions &options, int members, int parallel,
              const std::function<void(int member, const EpochReport &)> &progress = {});

/// Mean SmoothL1 loss of all three heads over `subset`, in eval mode.
double evaluationLoss(DvfsModel &model, const TensorDataset &data,
                      const std::vector<std::size_t> &subset, int64_t batchSize,
                      TargetLoss loss = TargetLoss::Absolute);

} // namespace ptxdvfs::model
