// ModelCard.cpp - reading and checking a model folder, all but its weights; no LibTorch.
#include "ptxdvfs/model/ModelCard.h"

#include "FolderLayout.h"
#include "Sha256.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <filesystem>
#include <fstream>

namespace ptxdvfs::model {

namespace fs = std::filesystem;
using namespace layout;

std::optional<nlohmann::json> layout::readJson(const std::string &path, ptx::Diagnostics &errors) {
  std::ifstream in(path);
  if (!in) {
    errors.push_back(error(path, "missing from the model folder"));
    return std::nullopt;
  }
  try {
    return nlohmann::json::parse(in);
  } catch (const std::exception &e) {
    errors.push_back(error(path, std::string("not valid JSON: ") + e.what()));
    return std::nullopt;
  }
}

const char *toString(KernelCombination combination) {
  switch (combination) {
  case KernelCombination::Concatenate: return "concatenate";
  case KernelCombination::LastKernel: return "last";
  }
  return "concatenate";
}

namespace {

embeddings::VfPoint pointFrom(const nlohmann::json &json) {
  return {json.at("memory_mhz").get<unsigned>(), json.at("core_mhz").get<unsigned>()};
}

} // namespace

namespace {

ptx::Expected<ModelFolderContents> readCheckedModelFolder(const std::string &dir) {
  auto fail = [](ptx::Diagnostics errors) {
    return ptx::Expected<ModelFolderContents>::failure(std::move(errors));
  };
  if (!fs::is_directory(dir))
    return fail({error(dir, "not a model folder (no such directory)")});
  ptx::Diagnostics errors;
  auto manifest = readJson((fs::path(dir) / kManifestFile).string(), errors);
  if (!manifest)
    return fail(errors);
  std::string manifestPath = (fs::path(dir) / kManifestFile).string();
  if (!manifest->is_object())
    return fail({error(manifestPath, "not a model manifest (a JSON object is expected)")});
  if (manifest->value("format", "") != kModelFormat)
    return fail({error(manifestPath, "unknown model format '" + manifest->value("format", "") +
                                         "' (expected " + kModelFormat + ")")});
  ModelFolderContents contents;
  // The member count comes from the manifest's own list, checked below.
  if (manifest->contains("files") && manifest->at("files").is_object())
    while (manifest->at("files").contains(memberFile(contents.members)))
      ++contents.members;
  if (contents.members == 0)
    return fail({error(manifestPath, "lists no weights (member-0.pt)")});
  for (const std::string &file : payloadFiles(contents.members)) {
    std::string path = (fs::path(dir) / file).string();
    std::string recorded = manifest->value("/files"_json_pointer / file, std::string());
    if (!fs::exists(path))
      errors.push_back(error(path, "missing from the model folder"));
    else if (recorded.empty())
      errors.push_back(error(manifestPath, "has no hash for " + file));
    else if (sha256OfFile(path) != recorded)
      errors.push_back(error(path, "content differs from the hash in manifest.json "
                                   "(corrupted or edited)"));
  }
  if (!errors.empty())
    return fail(errors);

  ModelCard &card = contents.card;
  try {
    card.scheme = manifest->at("scheme").get<std::string>();
    card.trainingDataHash = manifest->value("training_data_sha256", "");
    card.metrics = manifest->value("metrics", nlohmann::json::object());
    card.defaultPredictor = manifest->value("default_predictor", std::string("lstm"));
    auto gpu = readJson((fs::path(dir) / kGpuFile).string(), errors);
    auto config = readJson((fs::path(dir) / kConfigFile).string(), errors);
    if (!gpu || !config)
      return fail(errors);
    card.clocks.gpu = gpu->at("gpu").get<std::string>();
    card.clocks.memoryMHz = gpu->at("memory_mhz").get<std::vector<unsigned>>();
    for (unsigned memory : card.clocks.memoryMHz)
      card.clocks.coreMHz[memory] =
          gpu->at("core_mhz").at(std::to_string(memory)).get<std::vector<unsigned>>();
    card.clocks.defaultPoint = pointFrom(gpu->at("default"));
    card.clocks.fmax = pointFrom(gpu->at("fmax"));
    card.reference = pointFrom(gpu->at("reference"));
    if (!card.clocks.contains(card.clocks.defaultPoint) || !card.clocks.contains(card.clocks.fmax) ||
        !card.clocks.contains(card.reference))
      throw std::invalid_argument("gpu.json: default, fmax or reference is not a point of the grid");
    contents.architecture = config->at("architecture");
    contents.prediction = config->at("prediction");
    card.combination = config->value("kernel_combination", "concatenate") == "last"
                           ? KernelCombination::LastKernel
                           : KernelCombination::Concatenate;
    card.training = config->value("training", nlohmann::json::object());
    card.maxLength = config->at("max_length").get<int64_t>();
    if (config->at("ensemble_size").get<std::size_t>() != contents.members)
      throw std::invalid_argument("ensemble_size differs from the weights the manifest lists");
    auto baselines = readJson((fs::path(dir) / kBaselinesFile).string(), errors);
    if (!baselines)
      return fail(errors);
    card.baselines = baselineDataFrom(*baselines);
    if (card.baselines.surfaces.front().size() != card.clocks.grid().size())
      throw std::invalid_argument("baselines.json: surfaces do not have one point per V-F point");
  } catch (const std::exception &e) {
    return fail({error(dir, std::string("malformed model description: ") + e.what())});
  }
  auto vocabulary = embeddings::loadVocabulary((fs::path(dir) / kVocabularyDir).string());
  if (!vocabulary)
    return fail(vocabulary.takeDiagnostics());
  card.vocabulary = std::move(*vocabulary);
  auto scheme = embeddings::makeScheme(card.scheme, card.vocabulary);
  if (!scheme)
    return fail({error(manifestPath, scheme.diagnostics()[0].message)});
  return contents;
}

} // namespace

ptx::Expected<ModelFolderContents> readModelFolder(const std::string &dir) {
  // Every field is checked where it is read; this catches what a hostile
  // manifest can still do (a number where a string belongs), found by
  // tests/fuzz/ModelFolderFuzzer.cpp, so no folder content ends the process.
  try {
    return readCheckedModelFolder(dir);
  } catch (const std::exception &e) {
    return ptx::Expected<ModelFolderContents>::failure(
        ptx::Diagnostic{(fs::path(dir) / kManifestFile).string(), {}, ptx::Severity::Error,
                        std::string("malformed model description: ") + e.what()});
  }
}

std::uint64_t ModelCard::defaultTripCount() const {
  return training.value("default_trip_count", ptx::analysis::ExpansionOptions{}.defaultTripCount);
}

bool ModelCard::wholeSequenceMix() const { return training.value("whole_sequence_mix", false); }

} // namespace ptxdvfs::model
