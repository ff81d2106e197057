// TrainSettings.h - every tunable of `ptxdvfs train`, its JSON form and the options it makes.
#pragma once

#include "ptxdvfs/model/CrossValidation.h"
#include "ptxdvfs/model/DvfsModel.h"
#include "ptxdvfs/model/Ensemble.h"
#include "ptxdvfs/model/TensorDataset.h"
#include "ptxdvfs/model/Training.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// Every tunable, with its default; a --config file sets any subset and
/// command-line flags override both. The defaults are the configuration
/// that won cross-validation (docs/model.md).
struct TrainSettings {
  int64_t epochs = 50;
  int64_t batchSize = 8;
  int64_t patience = 12;
  uint64_t seed = 1;
  double encoderLr = 0.005;
  double headLr = 0.01;
  double clipNorm = 1.0;                  ///< gradient norm limit (0: none)
  std::string loss = "relative";          ///< absolute | relative
  double validationFraction = 0.1;
  std::string schedule = "interleaved";   ///< interleaved | joint
  std::string kernels = "concatenate";    ///< concatenate | last
  std::string reference = "default";      ///< default | fmax
  int64_t hiddenSize = 50;
  int64_t numLayers = 2;
  std::string embedding = "per_field";    ///< per_field | joint
  std::string readout = "mean";           ///< last (the paper) | mean: which LSTM outputs make z
  std::vector<int64_t> headHidden = {100, 70};
  std::string headShape = "physical";     ///< free | physical
  int64_t mixDim = 16;                    ///< projected instruction mix beside z (0: none)
  bool logMix = true;                     ///< project log-scaled shares
  double timeMaxOverlap = 9.0;            ///< largest k of the physical time surface
  bool signedPowerInteraction = false;    ///< power's u v term may be negative
  bool lengthFeature = false;             ///< log sequence length beside z
  int64_t maxLength = 2000;               ///< instructions read per application (0: all)
  bool wholeSequenceMix = false;          ///< baselines' mixes count every written instruction
  bool asExecuted = false;                ///< with --ptx: read kernels as executed (docs/loops.md)
  /// As executed: header runs of a loop whose count is unknown.
  int64_t defaultTripCount = static_cast<int64_t>(ptx::analysis::ExpansionOptions{}.defaultTripCount);
  bool broadcastLoads = false;            ///< as executed: warp-uniform global loads read as .const
  int64_t ensemble = 5;                   ///< members, differing in seed
  bool balanceClasses = false;            ///< weigh best-memory-clock classes equally
  std::string energy = "head";            ///< head | time_x_power
  double risk = 0.0;                      ///< of the minimum-energy choice
  int64_t folds = 0;                      ///< cross-validation folds (0: none)
  int64_t threads = 0; ///< not a model setting: never read from or written to JSON

  /// Calls `visit(key, member)` for every setting a config file may hold:
  /// the one list both JSON directions use.
  template <typename Self, typename Visit> static void forEach(Self &self, Visit &&visit) {
    visit("epochs", self.epochs);
    visit("batch_size", self.batchSize);
    visit("patience", self.patience);
    visit("seed", self.seed);
    visit("encoder_lr", self.encoderLr);
    visit("head_lr", self.headLr);
    visit("clip_norm", self.clipNorm);
    visit("loss", self.loss);
    visit("validation_fraction", self.validationFraction);
    visit("schedule", self.schedule);
    visit("kernels", self.kernels);
    visit("reference", self.reference);
    visit("hidden_size", self.hiddenSize);
    visit("num_layers", self.numLayers);
    visit("embedding", self.embedding);
    visit("readout", self.readout);
    visit("head_hidden", self.headHidden);
    visit("head_shape", self.headShape);
    visit("mix_dim", self.mixDim);
    visit("log_mix", self.logMix);
    visit("time_max_overlap", self.timeMaxOverlap);
    visit("signed_power_interaction", self.signedPowerInteraction);
    visit("length_feature", self.lengthFeature);
    visit("max_length", self.maxLength);
    visit("whole_sequence_mix", self.wholeSequenceMix);
    visit("as_executed", self.asExecuted);
    visit("default_trip_count", self.defaultTripCount);
    visit("broadcast_loads_as_constant", self.broadcastLoads);
    visit("ensemble", self.ensemble);
    visit("balance_classes", self.balanceClasses);
    visit("energy", self.energy);
    visit("risk", self.risk);
    visit("folds", self.folds);
  }

  nlohmann::json toJson() const;
  /// Names of all keys, comma separated, for messages.
  std::string keyList() const;

  /// Reads the settings of a JSON file into *this; unknown keys and values
  /// outside their choices are errors. Returns the error ("" on success).
  std::string applyConfigFile(const std::string &path);
  /// Checks choices and ranges; returns the first problem ("" if none).
  std::string check() const;

  model::DvfsModelOptions architecture() const;
  model::TrainOptions trainOptions() const;
  model::PredictionOptions prediction() const;
  model::KernelCombination combination() const;
  /// Members trained at once: --threads, else the machine's cores.
  int parallelMembers() const;
};

} // namespace ptxdvfs::tools
