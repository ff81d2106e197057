// DatasetLoading.cpp - importing a dataset from stored sequences or from PTX.
#include "DatasetLoading.h"

#include "LaunchFile.h"
#include "LaunchFlags.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"

#include <CLI/CLI.hpp>

#include <iterator>

namespace ptxdvfs::tools {

void addPtxFlag(CLI::App &command, std::string &ptxDir) {
  command.add_option("--ptx", ptxDir,
                     "Read each benchmark's kernels from DIR/<benchmark>/*.ptx instead of the stored "
                     "sequences (e.g. ../shared/datasets/gpuptxmodel-gtxtitanx/ptx)")
      ->check(CLI::ExistingDirectory);
}

namespace {

/// What `predict` would read of each file's launches (the CUDA sources it
/// names), then what the benchmark's launch file (launchFileBeside())
/// records, which wins: it is how the benchmark ran when it was measured.
/// Unlike `predict`, a PTX file without `-lineinfo` reads no `.cu` of its
/// name: the shipped model was trained on such files read at the
/// defaults. For its 142 training files that reading is byte-identical
/// either way (measured 2026-11-27); for another dataset, no retraining
/// has shown that reading it helps.
std::string completeLaunches(const std::string &folder, const std::string &gpu,
                             std::vector<embeddings::PtxFile> &files) {
  std::vector<CudaSourceFile> sources; // of every file, in file order
  for (embeddings::PtxFile &file : files) {
    std::vector<CudaSourceFile> read = readCudaSources(file.module, WithoutLineInfo::ReadNothing);
    addSourceKnowledge(file.module, read, file.launch, targetDeviceNamed(gpu)); // the GPU it was measured on
    sources.insert(sources.end(), std::make_move_iterator(read.begin()), std::make_move_iterator(read.end()));
  }
  const std::string path = launchFileBeside(folder, sources);
  if (path.empty())
    return "";
  std::vector<LaunchTarget> targets;
  for (embeddings::PtxFile &file : files)
    targets.push_back({&file.module, &file.launch});
  std::string unused;
  std::string problem = applyLaunchFileAt(path, targets, "in the benchmark's PTX", unused);
  return problem.empty() ? unused : problem;
}

} // namespace

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
  import.completeLaunches = completeLaunches;
  if (maxLength > 0)
    import.encode.expansion.budget = static_cast<std::size_t>(maxLength);
  return embeddings::importDataset(source.dataset, import);
}

} // namespace ptxdvfs::tools
