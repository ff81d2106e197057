// CrossValidation.cpp - the fold loop: train, fit baselines, predict, score by class.
#include "ptxdvfs/model/CrossValidation.h"

#include "ptxdvfs/model/Baselines.h"
#include "ptxdvfs/model/Neighbours.h"
#include "ptxdvfs/model/Splits.h"

#include <torch/torch.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>

namespace ptxdvfs::model {

std::string chooseDefaultPredictor(const std::map<std::string, ClassedEvaluation> &predictors) {
  std::string best = "lstm";
  double bestScore = std::numeric_limits<double>::infinity();
  for (const auto &[name, result] : predictors) {
    if (name.rfind("lstm_risk", 0) == 0 || result.all.benchmarks == 0)
      continue;
    double total = 0;
    int classes = 0;
    for (const EvaluationResult *byClass : {&result.highMemory, &result.lowMemory})
      if (byClass->benchmarks > 0) {
        total += byClass->energy.mape + byClass->minEnergy.excessVsOracle;
        ++classes;
      }
    double score = classes > 0 ? total / classes
                               : result.all.energy.mape + result.all.minEnergy.excessVsOracle;
    if (score < bestScore) {
      bestScore = score;
      best = name;
    }
  }
  return best;
}

ClassedEvaluation evaluateByClass(const TensorDataset &data,
                                  const std::vector<Surface> &predicted,
                                  const std::vector<std::size_t> &chosen,
                                  const std::vector<std::size_t> &items) {
  std::size_t fmaxIndex = gridIndex(data, data.fmax), referenceIndex = gridIndex(data, data.reference);
  ClassedEvaluation result;
  std::vector<Surface> guess[2], truth[2], all[2];
  std::vector<std::size_t> picks[2];
  for (std::size_t i = 0; i < items.size(); ++i) {
    int high = prefersHighMemoryClock(data, items[i]) ? 1 : 0;
    guess[high].push_back(predicted[i]);
    truth[high].push_back(measuredSurface(data.items[items[i]]));
    picks[high].push_back(chosen[i]);
    all[0].push_back(predicted[i]);
    all[1].push_back(truth[high].back());
  }
  result.all = evaluateSurfaces(all[0], all[1], fmaxIndex, referenceIndex, chosen);
  result.highMemory = evaluateSurfaces(guess[1], truth[1], fmaxIndex, referenceIndex, picks[1]);
  result.lowMemory = evaluateSurfaces(guess[0], truth[0], fmaxIndex, referenceIndex, picks[0]);
  return result;
}

std::vector<BenchmarkScore> scoreBenchmarks(const TensorDataset &data,
                                            const std::vector<Surface> &predicted,
                                            const std::vector<std::size_t> &chosen,
                                            const std::vector<std::size_t> &items) {
  std::size_t fmaxIndex = gridIndex(data, data.fmax), referenceIndex = gridIndex(data, data.reference);
  std::vector<BenchmarkScore> scores;
  for (std::size_t i = 0; i < items.size(); ++i) {
    Surface truth = measuredSurface(data.items[items[i]]);
    EvaluationResult r =
        evaluateSurfaces({predicted[i]}, {truth}, fmaxIndex, referenceIndex, {chosen[i]});
    BenchmarkScore score;
    score.name = data.items[items[i]].name;
    score.highMemory = prefersHighMemoryClock(data, items[i]);
    score.timeMape = r.time.mape;
    score.powerMape = r.power.mape;
    score.energyMape = r.energy.mape;
    score.chosen = data.grid[chosen[i]];
    score.oracle = data.grid[minEnergyPoint(truth)];
    score.excessVsOracle = r.minEnergy.excessVsOracle;
    scores.push_back(score);
  }
  return scores;
}

ptx::Expected<CrossValidationResult>
crossValidate(const TensorDataset &data, const DvfsModelOptions &modelOptions,
              const TrainOptions &trainOptions, const CrossValidationOptions &options,
              const std::function<void(int, int, const EpochReport &)> &progress) {
  CrossValidationResult result;
  std::vector<bool> high;
  for (std::size_t i = 0; i < data.items.size(); ++i) {
    result.names.push_back(data.items[i].name);
    high.push_back(prefersHighMemoryClock(data, i));
  }
  std::vector<std::size_t> everyone(data.items.size());
  std::iota(everyone.begin(), everyone.end(), 0);
  // Twins in other families go to the same fold: real programs have none.
  std::vector<std::string> groups = heldOutGroups(baselineDataOf(data, everyone));
  std::size_t groupCount = std::set<std::string>(groups.begin(), groups.end()).size();
  if (groupCount < static_cast<std::size_t>(options.folds()))
    return ptx::Expected<CrossValidationResult>::failure(ptx::Diagnostic{
        "", {}, ptx::Severity::Error,
        std::to_string(options.folds()) + " folds need as many groups of benchmarks to hold out, and " +
            "there are " + std::to_string(groupCount) +
            " (a family is held out with every benchmark whose instruction mix is near-identical to " +
            "one of its own); ask for fewer folds"});
  result.fold = groupedFolds(groups, high, options.folds(), trainOptions.seed());

  const PredictionOptions &configured = options.prediction();
  // Variants that reuse the trained members: only the read-out differs.
  struct Variant {
    std::string name;
    EnergySource energy;
    double risk;
    bool singleModel;
  };
  std::vector<Variant> variants = {
      {"lstm", configured.energy(), configured.risk(), false},
      {"lstm_single_model", configured.energy(), configured.risk(), true},
      {"lstm_energy_head", EnergySource::Head, configured.risk(), false},
      {"lstm_energy_time_x_power", EnergySource::TimeTimesPower, configured.risk(), false},
      {"lstm_risk_0", configured.energy(), 0.0, false},
      {"lstm_risk_0.5", configured.energy(), 0.5, false},
      {"lstm_risk_1", configured.energy(), 1.0, false}};
  std::map<std::string, PredictedChoices> collected; // gathered over folds
  std::vector<std::size_t> order; // applications in the order predictions were collected

  for (int fold = 0; fold < options.folds(); ++fold) {
    std::vector<std::size_t> trainPool, test;
    std::vector<std::string> poolNames;
    for (std::size_t i = 0; i < data.items.size(); ++i) {
      if (result.fold[i] == fold) {
        test.push_back(i);
      } else {
        trainPool.push_back(i);
        poolNames.push_back(result.names[i]);
      }
    }
    if (test.empty())
      continue;
    Split inner = groupedSplit(poolNames, options.validation_fraction(), trainOptions.seed());
    std::vector<std::size_t> train, validation;
    for (std::size_t j : inner.train)
      train.push_back(trainPool[j]);
    for (std::size_t j : inner.validation)
      validation.push_back(trainPool[j]);

    auto trained = trainEnsemble(data, train, validation, modelOptions, trainOptions,
                                 options.ensemble(), options.parallel(),
                                 [&](int member, const EpochReport &report) {
                                   if (progress)
                                     progress(fold, member, report);
                                 });
    if (!trained)
      return ptx::Expected<CrossValidationResult>::failure(trained.takeDiagnostics());
    std::vector<DvfsModel> members;
    for (auto &member : *trained) {
      members.push_back(member.model);
      result.bestEpochs.push_back(member.bestEpoch);
    }
    std::vector<DvfsModel> first = {members.front()};

    for (EnergySource energy : {EnergySource::Head, EnergySource::TimeTimesPower}) {
      auto ensemble = predictEnsemble(members, data, test, energy);
      auto single = predictEnsemble(first, data, test, energy);
      for (const Variant &variant : variants) {
        if (variant.energy != energy)
          continue;
        collected[variant.name].add(variant.singleModel ? single : ensemble, variant.risk);
      }
    }

    // Baselines see exactly the applications the LSTM trained and stopped on.
    Baselines baselines(baselineDataOf(data, trainPool), data.clocks);
    for (const auto &[name, predictions] : predictBaselines(baselines, data, test))
      collected[name].add(predictions);
    order.insert(order.end(), test.begin(), test.end());
  }

  addBlendVariants(collected);
  for (const auto &[name, predictions] : collected)
    result.predictors[name] = evaluateByClass(data, predictions.surfaces, predictions.chosen, order);
  // The default is what users get; the others are what it was chosen against.
  std::vector<std::string> detailed = {"lstm", chooseDefaultPredictor(result.predictors)};
  for (const BlendVariant &blend : kBlendVariants) {
    detailed.push_back(blend.baseline);
    detailed.push_back(blend.name);
  }
  for (const std::string &name : detailed)
    if (auto found = collected.find(name); found != collected.end())
      result.perBenchmark[name] =
          scoreBenchmarks(data, found->second.surfaces, found->second.chosen, order);
  return result;
}

void addBlendVariants(std::map<std::string, PredictedChoices> &predictors) {
  auto lstm = predictors.find("lstm");
  if (lstm == predictors.end())
    return;
  for (const BlendVariant &blend : kBlendVariants)
    if (auto baseline = predictors.find(blend.baseline); baseline != predictors.end())
      predictors[blend.name] = blendSurfaces(lstm->second, baseline->second, kBlendWeight);
}

nlohmann::json toJson(const EvaluationResult &r) {
  auto errors = [](const ErrorSummary &e) { return nlohmann::json{{"mape", e.mape}, {"within10", e.within10}}; };
  return {{"time", errors(r.time)},
          {"power", errors(r.power)},
          {"energy", errors(r.energy)},
          {"min_energy",
           {{"excess_vs_oracle", r.minEnergy.excessVsOracle},
            {"saving_vs_fmax", r.minEnergy.savingVsFmax},
            {"saving_vs_reference", r.minEnergy.savingVsReference}}},
          {"pareto", {{"precision", r.pareto.precision}, {"recall", r.pareto.recall}}},
          {"benchmarks", r.benchmarks},
          {"vf_points", r.vfPoints}};
}

nlohmann::json toJson(const ClassedEvaluation &r) {
  nlohmann::json json = toJson(r.all);
  json["best_memory_clock_high"] = toJson(r.highMemory);
  json["best_memory_clock_low"] = toJson(r.lowMemory);
  return json;
}

nlohmann::json toJson(const std::vector<BenchmarkScore> &scores) {
  auto point = [](embeddings::VfPoint p) {
    return nlohmann::json{{"memory_mhz", p.memoryMHz}, {"core_mhz", p.coreMHz}};
  };
  nlohmann::json json = nlohmann::json::array();
  for (const BenchmarkScore &s : scores)
    json.push_back({{"name", s.name},
                    {"best_memory_clock", s.highMemory ? "high" : "low"},
                    {"time_mape", s.timeMape},
                    {"power_mape", s.powerMape},
                    {"energy_mape", s.energyMape},
                    {"excess_vs_oracle", s.excessVsOracle},
                    {"chosen", point(s.chosen)},
                    {"oracle", point(s.oracle)}});
  return json;
}

nlohmann::json toJson(const CrossValidationResult &result) {
  nlohmann::json predictors = nlohmann::json::object();
  for (const auto &[name, evaluation] : result.predictors)
    predictors[name] = toJson(evaluation);
  nlohmann::json folds = nlohmann::json::object();
  for (std::size_t i = 0; i < result.names.size(); ++i)
    folds[result.names[i]] = result.fold[i];
  nlohmann::json perBenchmark = nlohmann::json::object();
  for (const auto &[name, scores] : result.perBenchmark)
    perBenchmark[name] = toJson(scores);
  int count = result.fold.empty() ? 0 : *std::max_element(result.fold.begin(), result.fold.end()) + 1;
  return {{"folds", count},
          {"grouping", "family: the benchmark name up to its first numeric part"},
          {"predictors", predictors},
          {"best_epochs", result.bestEpochs},
          {"fold_of_benchmark", folds},
          {"per_benchmark", perBenchmark}};
}

} // namespace ptxdvfs::model
