// ModelCard.h - what a model folder says of itself, read and checked without LibTorch.
#pragma once

#include "ptxdvfs/embeddings/GpuClocks.h"
#include "ptxdvfs/embeddings/Vocabulary.h"
#include "ptxdvfs/model/BaselineData.h"
#include "ptxdvfs/model/InstructionMix.h"
#include "ptxdvfs/ptx/Expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace ptxdvfs::model {

/// Version of the folder layout; loading refuses any other.
inline constexpr const char *kModelFormat = "ptxdvfs-model/1";

/// What a model means: the encoding its input must use, the GPU and V-F
/// grid its outputs refer to, the training programs its baselines keep,
/// and how it was made. Everything but the LSTM itself (ModelDescription).
struct ModelCard {
  std::string scheme;                  ///< encoding scheme and reading (readingName())
  embeddings::Vocabulary vocabulary;   ///< the scheme's three lists
  embeddings::GpuClocks clocks;        ///< GPU name, clock tables (MHz), default, Fmax
  embeddings::VfPoint reference;       ///< outputs are scaling factors relative to it
  KernelCombination combination = KernelCombination::Concatenate;
  /// Longest input sequence, see fieldsTensor() (0: no limit); read as
  /// executed, also the expansion budget.
  int64_t maxLength = 0;
  BaselineData baselines;              ///< training mixes and surfaces
  nlohmann::json training = nlohmann::json::object(); ///< options and data summary
  std::string trainingDataHash;        ///< datasetFingerprint() of the training data
  nlohmann::json metrics = nlohmann::json::object();  ///< validation results
  /// The surface users get (`lstm`, a baseline stored in the folder, or a
  /// blend variant), chosen by cross-validation (chooseDefaultPredictor);
  /// "lstm" for folders trained without it or written before it existed.
  std::string defaultPredictor = "lstm";

  /// Header runs the model was trained to give a loop whose count the PTX
  /// cannot tell (`default_trip_count` in `training`); PTX must be read
  /// with the same count for its mixes to compare. ExpansionOptions'
  /// default for folders that do not record one.
  std::uint64_t defaultTripCount() const;

  /// Whether the baselines' mixes count every written instruction
  /// (`whole_sequence_mix` in `training`), not only the maxLength the LSTM
  /// reads; false for folders that do not record it.
  bool wholeSequenceMix() const;
  /// The length limit of the baselines' mixes, for mixOf(): 0 (none) or
  /// maxLength.
  int64_t mixLength() const { return wholeSequenceMix() ? 0 : maxLength; }
};

/// A model folder read without its weights: the card, and what only
/// LibTorch reads (config.json's `architecture` and `prediction`, the
/// number of `member-<i>.pt` files).
struct ModelFolderContents {
  ModelCard card;
  nlohmann::json architecture;
  nlohmann::json prediction;
  std::size_t members = 0;
};

/// Reads and checks a model folder: manifest format, every file present
/// with the recorded hash (the weights included), a known scheme, a
/// readable vocabulary, GPU descriptor and baselines. Each failure names
/// the file and what is wrong. The weights are checked, not loaded
/// (loadModel() does that).
ptx::Expected<ModelFolderContents> readModelFolder(const std::string &dir);

const char *toString(KernelCombination combination);

} // namespace ptxdvfs::model
