// ModelFolder.h - a trained model on disk: weights plus everything it is valid for.
#pragma once

#include "ptxdvfs/embeddings/Dataset.h"
#include "ptxdvfs/embeddings/Vocabulary.h"
#include "ptxdvfs/model/Baselines.h"
#include "ptxdvfs/model/DvfsModel.h"
#include "ptxdvfs/model/Ensemble.h"
#include "ptxdvfs/model/ModelCard.h"
#include "ptxdvfs/model/TensorDataset.h"
#include "ptxdvfs/ptx/Expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ptxdvfs::model {

/// A model folder as LibTorch reads it: the card and the LSTM's
/// architecture and read-out.
struct ModelDescription : ModelCard {
  DvfsModelOptions architecture;
  PredictionOptions prediction; ///< energy source and risk of the min-energy choice
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

/// Reads and checks a model folder (readModelFolder()) and loads its
/// weights, checking that they fit the architecture. Each failure names
/// the file and what is wrong.
ptx::Expected<LoadedModel> loadModel(const std::string &dir);

/// The same from what readModelFolder(dir) returned: only the weights are
/// read, so a caller that needed the card first checks the folder once.
ptx::Expected<LoadedModel> loadModel(const std::string &dir, ModelFolderContents contents);

/// SHA-256 over a dataset's content (names, codes, measurements, clocks),
/// independent of file layout and order on disk.
std::string datasetFingerprint(const embeddings::Dataset &dataset);


} // namespace ptxdvfs::model
