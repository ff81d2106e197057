// TrainSettings.cpp - config files, checks and the conversion to model options.
#include "TrainSettings.h"

#include <fstream>
#include <thread>

namespace ptxdvfs::tools {

nlohmann::json TrainSettings::toJson() const {
  nlohmann::json json;
  forEach(*this, [&](const char *key, const auto &value) { json[key] = value; });
  return json;
}

std::string TrainSettings::keyList() const {
  std::string list;
  forEach(*this, [&](const char *key, const auto &) { list += (list.empty() ? "" : ", ") + std::string(key); });
  return list;
}

std::string TrainSettings::applyConfigFile(const std::string &path) {
  std::ifstream in(path);
  try {
    nlohmann::json config = nlohmann::json::parse(in);
    if (!config.is_object())
      return path + ": not a settings file (a JSON object of settings is expected, e.g. {\"epochs\": 50})";
    nlohmann::json known = toJson();
    for (const auto &[key, value] : config.items())
      if (!known.contains(key))
        return path + ": unknown setting '" + key + "' (known: " + keyList() + ")";
    forEach(*this, [&](const char *key, auto &member) {
      if (config.contains(key))
        member = config[key].get<std::decay_t<decltype(member)>>();
    });
  } catch (const std::exception &e) {
    return path + ": " + e.what();
  }
  if (std::string problem = check(); !problem.empty())
    return path + ": " + problem;
  return "";
}

std::string TrainSettings::check() const {
  auto choice = [](const char *key, const std::string &value,
                   std::initializer_list<const char *> allowed) -> std::string {
    std::string list;
    for (const char *option : allowed) {
      if (value == option)
        return "";
      list += (list.empty() ? "" : ", ") + std::string(option);
    }
    return std::string(key) + " is '" + value + "', expected one of: " + list;
  };
  for (std::string problem :
       {choice("schedule", schedule, {"interleaved", "joint"}),
        choice("kernels", kernels, {"concatenate", "last"}),
        choice("reference", reference, {"default", "fmax"}),
        choice("embedding", embedding, {"per_field", "joint"}),
        choice("readout", readout, {"last", "mean"}),
        choice("head_shape", headShape, {"free", "physical"}),
        choice("energy", energy, {"head", "time_x_power"}),
        choice("loss", loss, {"absolute", "relative"})})
    if (!problem.empty())
      return problem;
  if (ensemble < 1)
    return "ensemble must be at least 1";
  if (folds == 1 || folds < 0)
    return "folds must be 0 (no cross-validation) or at least 2";
  if (epochs < 1 || batchSize < 1)
    return "epochs and batch_size must be at least 1";
  if (timeMaxOverlap < 1)
    return "time_max_overlap must be at least 1";
  if (defaultTripCount < 1)
    return "default_trip_count must be at least 1";
  if (broadcastLoads && !asExecuted)
    return "broadcast_loads_as_constant reads kernels as executed: set as_executed too";
  if (maxLength < 0 || risk < 0 || mixDim < 0 || clipNorm < 0)
    return "max_length, mix_dim, clip_norm and risk must not be negative";
  return "";
}

model::DvfsModelOptions TrainSettings::architecture() const {
  return model::DvfsModelOptions()
      .encoder(model::LstmEncoderOptions()
                   .hidden_size(hiddenSize)
                   .num_layers(numLayers)
                   .embedding(embedding == "joint" ? model::EmbeddingMode::Joint
                                                   : model::EmbeddingMode::PerField)
                   .readout(readout == "mean" ? model::Readout::Mean : model::Readout::Last))
      .head_hidden(headHidden)
      .head_shape(headShape == "physical" ? model::HeadShape::Physical : model::HeadShape::Free)
      .mix_dim(mixDim)
      .log_mix(logMix)
      .time_max_overlap(timeMaxOverlap)
      .signed_power_interaction(signedPowerInteraction)
      .length_feature(lengthFeature);
}

model::TrainOptions TrainSettings::trainOptions() const {
  return model::TrainOptions()
      .epochs(epochs)
      .batch_size(batchSize)
      .patience(patience)
      .seed(seed)
      .encoder_lr(encoderLr)
      .head_lr(headLr)
      .threads(threads)
      .balance_classes(balanceClasses)
      .clip_norm(clipNorm)
      .loss(loss == "relative" ? model::TargetLoss::Relative : model::TargetLoss::Absolute)
      .schedule(schedule == "joint" ? model::HeadSchedule::Joint
                                    : model::HeadSchedule::Interleaved);
}

model::PredictionOptions TrainSettings::prediction() const {
  model::EnergySource source = model::EnergySource::Head;
  model::parseEnergySource(energy, source);
  return model::PredictionOptions().energy(source).risk(risk);
}

model::KernelCombination TrainSettings::combination() const {
  return kernels == "last" ? model::KernelCombination::LastKernel
                           : model::KernelCombination::Concatenate;
}

int TrainSettings::parallelMembers() const {
  if (threads > 0)
    return static_cast<int>(threads);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace ptxdvfs::tools
