// ModelFolder.h - a trained model on disk: weights plus everything it is valid for.
#pragma once

#include "ptxdvfs/embeddings/Dataset.h"
#include "ptxdvfs/embeddings/Vocabulary.h"
#include "ptxdvfs/model/Baselines.h"
#include "ptxdvfs/model/DvfsModel.h"
#include "ptxdvfs/model/Ensemble.h"
#include "ptxdvfs/model/TensorDataset.h"
#include "ptxdvfs/ptx/Expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ptxdvfs::model {

/// Version of the folder layout; loading refuses any other.
inline constexpr const char *kModelFormat = "ptxdvfs-model/1";

/// What a model means: the encoding its input must use, the GPU and V-F
/// grid its outputs refer to, and how it was made.
struct ModelDescription {
  std::string scheme;                  ///< encoding scheme name
  embeddings::Vocabulary vocabulary;   ///< the scheme's three lists
  embeddings::GpuClocks clocks;        ///< GPU name, clock tables, default, Fmax
  embeddings::VfPoint reference;       ///< outputs are scaling factors relative to it
  KernelCombination combination = KernelCombination::Concatenate;
  /// Longest input sequence, see fieldsTensor() (0: no limit).
  int64_t maxLength = 0;
  DvfsModelOptions architecture;
  PredictionOptions prediction;        ///< energy source and risk of the min-energy choice
  BaselineData baselines;              ///< training mixes and surfaces, for `evaluate`
  nlohmann::json training = nlohmann::json::object(); ///< options and data summary
  std::string trainingDataHash;        ///< datasetFingerprint() of the training data
  nlohmann::json metrics = nlohmann::json::object();  ///< validation results
  /// The surface users get (`lstm`, a baseline stored in the folder, or a
  /// blend variant), chosen by cross-validation (chooseDefaultPredictor);
  /// "lstm" for folders trained without it or written before it existed.
  std::string defaultPredictor = "lstm";
};

struct LoadedModel {
  ModelDescription description;
  std::vector<DvfsModel> members; ///< the ensemble (at least one), in eval mode
};

/// Writes MODEL_DIR: `member-0.pt`... (one per ensemble member),
/// `config.json`, `gpu.json`, `baselines.json`, `vocabulary/` and
/// `manifest.json` (format, scheme, SHA-256 of every file, training data
/// hash, metrics). Other files already in `dir` (a README, a LICENSE) are
/// kept. The folder is assembled beside `dir` and renamed into place, so an
/// existing model is replaced whole or not at all. Returns the errors
/// (empty on success).
[[nodiscard]] ptx::Diagnostics saveModel(const std::string &dir, std::vector<DvfsModel> &members,
                                         const ModelDescription &description);

/// Reads and checks a model folder: manifest format, every file present
/// with the recorded hash, a known scheme, a readable vocabulary and GPU
/// descriptor, and weights that fit the architecture. Each failure names
/// the file and what is wrong.
ptx::Expected<LoadedModel> loadModel(const std::string &dir);

/// SHA-256 over a dataset's content (names, codes, measurements, clocks),
/// independent of file layout and order on disk.
std::string datasetFingerprint(const embeddings::Dataset &dataset);

const char *toString(KernelCombination combination);

} // namespace ptxdvfs::model
