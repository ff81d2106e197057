// DatasetLoading.cpp - importing a dataset from stored sequences or from PTX.
#include "DatasetLoading.h"

#include "LaunchFlags.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"

#include <CLI/CLI.hpp>

namespace ptxdvfs::tools {

void addPtxFlag(CLI::App &command, std::string &ptxDir) {
  command.add_option("--ptx", ptxDir,
                     "Read each benchmark's kernels from DIR/<benchmark>/*.ptx instead of the stored "
                     "sequences (e.g. ../shared/datasets/gpuptxmodel-gtxtitanx/ptx)")
      ->check(CLI::ExistingDirectory);
}

embeddings::ImportOptions withReference(embeddings::ReferenceKind reference) {
  embeddings::ImportOptions import;
  import.reference = reference;
  return import;
}

ptx::Expected<embeddings::Dataset> loadDataset(const DatasetSource &source,
                                               embeddings::ImportOptions import,
                                               const std::string &vocabularyDir,
                                               std::int64_t maxLength) {
  import.gpuInfoDir = source.gpuInfo;
  if (source.ptxDir.empty() && source.asExecuted)
    return ptx::Expected<embeddings::Dataset>::failure(ptx::Diagnostic{
        source.dataset, {}, ptx::Severity::Error,
        "reading as executed needs the benchmarks' PTX: add --ptx DIR"});
  auto vocabulary = embeddings::loadVocabulary(vocabularyDir);
  if (!vocabulary)
    return ptx::Expected<embeddings::Dataset>::failure(vocabulary.takeDiagnostics());
  if (source.ptxDir.empty()) {
    import.vocabulary = &*vocabulary;
    return embeddings::importDataset(source.dataset, import);
  }
  auto scheme = embeddings::makeScheme(embeddings::kGpuPtxModelV1, std::move(*vocabulary));
  if (!scheme)
    return ptx::Expected<embeddings::Dataset>::failure(scheme.takeDiagnostics());
  import.ptxScheme = scheme->get();
  import.ptxDir = source.ptxDir;
  import.encode.asExecuted = source.asExecuted;
  import.encode.broadcastLoadsAsConstant = source.broadcastLoadsAsConstant;
  import.encode.expansion.defaultTripCount = source.defaultTripCount;
  // A kernel's launch in the CUDA sources its PTX names counts here as in `predict`.
  import.completeLaunch = [](const ptx::Module &module, ptx::analysis::LaunchAssumptions &launch) {
    addSourceKnowledge(module, readCudaSources(module), launch);
  };
  if (maxLength > 0)
    import.encode.expansion.budget = static_cast<std::size_t>(maxLength);
  return embeddings::importDataset(source.dataset, import);
}

} // namespace ptxdvfs::tools
