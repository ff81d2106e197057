// ModelFolder.cpp - saving, hashing, loading and checking model folders.
#include "ptxdvfs/model/ModelFolder.h"

#include "FolderLayout.h"
#include "Sha256.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"

#include <torch/torch.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <unistd.h>

namespace ptxdvfs::model {

namespace fs = std::filesystem;
using namespace layout;

namespace {

nlohmann::json pointJson(embeddings::VfPoint point) {
  return {{"memory_mhz", point.memoryMHz}, {"core_mhz", point.coreMHz}};
}

nlohmann::json architectureJson(const DvfsModelOptions &options) {
  const LstmEncoderOptions &e = options.encoder();
  return {{"opcode_dim", e.opcode_dim()},
          {"space_dim", e.space_dim()},
          {"type_dim", e.type_dim()},
          {"operands_dim", e.operands_dim()},
          {"distance_dim", e.distance_dim()},
          {"kind_dim", e.kind_dim()},
          {"hidden_size", e.hidden_size()},
          {"num_layers", e.num_layers()},
          {"embedding", e.embedding() == EmbeddingMode::Joint ? "joint" : "per_field"},
          {"readout", e.readout() == Readout::Mean ? "mean" : "last"},
          {"head_hidden", options.head_hidden()},
          {"head_shape", options.head_shape() == HeadShape::Physical ? "physical" : "free"},
          {"mix_dim", options.mix_dim()},
          {"log_mix", options.log_mix()},
          {"time_max_overlap", options.time_max_overlap()},
          {"signed_power_interaction", options.signed_power_interaction()},
          {"length_feature", options.length_feature()}};
}

DvfsModelOptions architectureFrom(const nlohmann::json &json) {
  auto oneOf = [&](const char *key, const char *first, const char *second) {
    std::string value = json.at(key).get<std::string>();
    if (value != first && value != second)
      throw std::invalid_argument(std::string(key) + " is '" + value + "', expected " + first +
                                  " or " + second);
    return value == second;
  };
  LstmEncoderOptions encoder;
  encoder.embedding(oneOf("embedding", "per_field", "joint") ? EmbeddingMode::Joint
                                                            : EmbeddingMode::PerField);
  // Absent in folders written before the choice existed: they read the last step.
  if (json.contains("readout"))
    encoder.readout(oneOf("readout", "last", "mean") ? Readout::Mean : Readout::Last);
  encoder.opcode_dim(json.at("opcode_dim"))
      .space_dim(json.at("space_dim"))
      .type_dim(json.at("type_dim"))
      .operands_dim(json.at("operands_dim"))
      .distance_dim(json.at("distance_dim"))
      .kind_dim(json.at("kind_dim"))
      .hidden_size(json.at("hidden_size"))
      .num_layers(json.at("num_layers"));
  return DvfsModelOptions()
      .encoder(encoder)
      .head_hidden(json.at("head_hidden").get<std::vector<int64_t>>())
      .head_shape(oneOf("head_shape", "free", "physical") ? HeadShape::Physical : HeadShape::Free)
      .mix_dim(json.at("mix_dim").get<int64_t>())
      .log_mix(json.value("log_mix", false)) // absent before it existed
      .time_max_overlap(json.value("time_max_overlap", 9.0))
      .signed_power_interaction(json.value("signed_power_interaction", false))
      .length_feature(json.value("length_feature", false)); // absent before it existed
}

nlohmann::json gpuJson(const embeddings::GpuClocks &clocks, embeddings::VfPoint reference) {
  nlohmann::json cores = nlohmann::json::object();
  for (const auto &[memory, list] : clocks.coreMHz)
    cores[std::to_string(memory)] = list;
  return {{"gpu", clocks.gpu},
          {"memory_mhz", clocks.memoryMHz},
          {"core_mhz", cores},
          {"default", pointJson(clocks.defaultPoint)},
          {"fmax", pointJson(clocks.fmax)},
          {"reference", pointJson(reference)}};
}

void writeText(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush())
    throw std::runtime_error("cannot write " + path.string());
}

std::string joinLines(const std::vector<std::string> &lines) {
  std::string text;
  for (const auto &line : lines)
    text += line + "\n";
  return text;
}

/// Copies the files of an existing model folder that saving does not
/// produce (documentation, licences) into the new one.
void keepExtraFiles(const fs::path &from, const fs::path &to, std::size_t members) {
  if (!fs::is_directory(from))
    return;
  std::vector<std::string> produced = payloadFiles(members);
  produced.push_back(kManifestFile);
  for (const auto &entry : fs::recursive_directory_iterator(from)) {
    if (!entry.is_regular_file())
      continue;
    std::string relative = fs::relative(entry.path(), from).generic_string();
    bool oldWeights = relative.rfind("member-", 0) == 0 && entry.path().extension() == ".pt";
    if (oldWeights || std::find(produced.begin(), produced.end(), relative) != produced.end())
      continue;
    fs::create_directories((to / relative).parent_path());
    fs::copy_file(entry.path(), to / relative, fs::copy_options::overwrite_existing);
  }
}

/// Weights of one member; torch::load replaces each tensor whatever its
/// shape, so the shapes the architecture declares are compared afterwards.
ptx::Expected<DvfsModel> loadWeights(const std::string &path, const DvfsModelOptions &architecture) {
  auto mismatch = [&](const std::string &what) {
    return ptx::Expected<DvfsModel>::failure(
        error(path, "weights do not fit the architecture in config.json: " + what));
  };
  try {
    DvfsModel model(architecture);
    std::map<std::string, std::vector<int64_t>> declared;
    for (const auto &item : model->named_parameters())
      declared[item.key()] = item.value().sizes().vec();
    torch::load(model, path);
    for (const auto &item : model->named_parameters())
      if (item.value().sizes().vec() != declared[item.key()])
        return mismatch(item.key() + " has shape " + c10::str(item.value().sizes()) +
                        ", expected " + c10::str(c10::IntArrayRef(declared[item.key()])));
    model->eval();
    return model;
  } catch (const std::exception &e) {
    std::string what = e.what();
    return mismatch(what.substr(0, what.find('\n')));
  }
}

} // namespace

ptx::Diagnostics saveModel(const std::string &dir, std::vector<DvfsModel> &members,
                           const ModelDescription &description) {
  if (members.empty())
    return {error(dir, "cannot write a model folder without weights")};
  fs::path target = fs::absolute(dir);
  fs::path staging = target.string() + ".tmp-" + std::to_string(::getpid());
  std::error_code ignored;
  try {
    fs::remove_all(staging);
    fs::create_directories(staging / kVocabularyDir);
    keepExtraFiles(target, staging, members.size());
    for (std::size_t m = 0; m < members.size(); ++m)
      torch::save(members[m], (staging / memberFile(m)).string());
    nlohmann::json config = {{"architecture", architectureJson(description.architecture)},
                             {"kernel_combination", toString(description.combination)},
                             {"max_length", description.maxLength},
                             {"ensemble_size", members.size()},
                             {"prediction",
                              {{"energy", toString(description.prediction.energy())},
                               {"risk", description.prediction.risk()}}},
                             {"training", description.training}};
    writeText(staging / kBaselinesFile, toJson(description.baselines).dump() + "\n");
    writeText(staging / kConfigFile, config.dump(2) + "\n");
    writeText(staging / kGpuFile, gpuJson(description.clocks, description.reference).dump(2) + "\n");
    writeText(staging / kVocabularyDir / embeddings::kOpcodesFile,
              joinLines(description.vocabulary.opcodes));
    writeText(staging / kVocabularyDir / embeddings::kStateSpacesFile,
              joinLines(description.vocabulary.stateSpaces));
    writeText(staging / kVocabularyDir / embeddings::kTypesFile,
              joinLines(description.vocabulary.types));
    nlohmann::json hashes = nlohmann::json::object();
    for (const std::string &file : payloadFiles(members.size()))
      hashes[file] = sha256OfFile((staging / file).string());
    nlohmann::json manifest = {{"format", kModelFormat},
                               {"scheme", description.scheme},
                               {"gpu", description.clocks.gpu},
                               {"files", hashes},
                               {"training_data_sha256", description.trainingDataHash},
                               {"default_predictor", description.defaultPredictor},
                               {"metrics", description.metrics}};
    writeText(staging / kManifestFile, manifest.dump(2) + "\n");

    // Swap the finished folder in; the old one goes only once the new one is in place.
    fs::path previous = target.string() + ".old-" + std::to_string(::getpid());
    bool replacing = fs::exists(target);
    if (replacing)
      fs::rename(target, previous);
    fs::rename(staging, target);
    if (replacing)
      fs::remove_all(previous, ignored);
    return {};
  } catch (const std::exception &e) {
    fs::remove_all(staging, ignored);
    return {error(dir, std::string("cannot write the model folder: ") + e.what())};
  }
}

ptx::Expected<LoadedModel> loadModel(const std::string &dir) {
  auto contents = readModelFolder(dir);
  if (!contents)
    return ptx::Expected<LoadedModel>::failure(contents.takeDiagnostics());
  return loadModel(dir, std::move(*contents));
}

ptx::Expected<LoadedModel> loadModel(const std::string &dir, ModelFolderContents contents) {
  LoadedModel loaded;
  ModelDescription &description = loaded.description;
  static_cast<ModelCard &>(description) = std::move(contents.card);
  try {
    description.architecture = architectureFrom(contents.architecture);
    EnergySource energy;
    if (!parseEnergySource(contents.prediction.at("energy").get<std::string>(), energy))
      throw std::invalid_argument("prediction.energy must be head or time_x_power");
    description.prediction.energy(energy).risk(contents.prediction.at("risk").get<double>());
  } catch (const std::exception &e) {
    return ptx::Expected<LoadedModel>::failure(
        error(dir, std::string("malformed model description: ") + e.what()));
  }
  for (std::size_t m = 0; m < contents.members; ++m) {
    std::string weightsPath = (fs::path(dir) / memberFile(m)).string();
    auto member = loadWeights(weightsPath, description.architecture);
    if (!member)
      return ptx::Expected<LoadedModel>::failure(member.takeDiagnostics());
    loaded.members.push_back(*member);
  }
  return loaded;
}

std::string datasetFingerprint(const embeddings::Dataset &dataset) {
  Sha256 hash;
  hash.update(dataset.scheme).update("\n").update(dataset.clocks.gpu).update("\n");
  for (auto point : dataset.clocks.grid())
    hash.update(std::to_string(point.memoryMHz) + "," + std::to_string(point.coreMHz) + ";");
  for (const auto &benchmark : dataset.benchmarks) {
    hash.update("\n" + benchmark.name + "\n");
    for (const auto &kernel : benchmark.kernels) {
      hash.update("kernel\n");
      for (const auto &record : kernel.instructions)
        hash.update(embeddings::toCode(record));
    }
    char number[64];
    for (const auto &m : benchmark.measurements) {
      std::snprintf(number, sizeof number, "%.9g,%.9g,%.9g;", m.time, m.power, m.energy);
      hash.update(number);
    }
  }
  return hash.hexDigest();
}

} // namespace ptxdvfs::model
