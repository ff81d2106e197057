// DatasetLoading.h - the dataset flags train, evaluate and `dataset info` share, and the import they drive.
#pragma once

#include "ptxdvfs/embeddings/Dataset.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

/// Where a dataset's sequences come from: the stored sequence files, or
/// PTX read as written or as executed.
struct DatasetSource {
  std::string dataset; ///< folder with aggregated_dataset_<gpu>.csv
  std::string gpuInfo; ///< clock tables; empty: beside the dataset
  std::string ptxDir;  ///< benchmark folders with .ptx; empty: stored sequences
  bool asExecuted = false;
  std::uint64_t defaultTripCount = ptx::analysis::ExpansionOptions{}.defaultTripCount;
  bool broadcastLoadsAsConstant = false; ///< as executed (EncodeOptions)
};

/// Adds --ptx DIR to `command` (--dataset and --gpu-info stay with each
/// command, whose help words them).
void addPtxFlag(CLI::App &command, std::string &ptxDir);

/// Imports `source` with the settings of `import` (reference point,
/// strictness, kernel selection; its sequence source is set here). PTX is encoded by the scheme of
/// `readingName` (gpuptxmodel-v1, optionally `+executed[+broadcast]`) over
/// `vocabularyDir`; as executed, each kernel is written out within
/// `maxLength` instructions (so that the model reads all of it), with the
/// launches of the CUDA sources a PTX file names (as `predict` reads them:
/// addSourceKnowledge()), and over them those a benchmark folder's
/// `launch.json` records (LaunchFile.h). Errors name the folder or file.
ptx::Expected<embeddings::Dataset> loadDataset(const DatasetSource &source,
                                               embeddings::ImportOptions import,
                                               const std::string &vocabularyDir,
                                               std::int64_t maxLength);

/// Import options that differ from the defaults only in the reference point.
embeddings::ImportOptions withReference(embeddings::ReferenceKind reference);

} // namespace ptxdvfs::tools
