// EvaluationReport.cpp - JSON grouping and the readable table of evaluation results.
#include "EvaluationReport.h"

#include "ptxdvfs/model/Baselines.h"

#include <cstdio>

namespace ptxdvfs::tools {

namespace {

bool isBaseline(const std::string &name) {
  const auto &names = model::baselineNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// LSTM first, then its variants, then the baselines.
std::vector<std::string> reportOrder(const PredictorResults &results) {
  std::vector<std::string> order;
  if (results.count("lstm"))
    order.push_back("lstm");
  for (const auto &[name, unused] : results)
    if (name != "lstm" && !isBaseline(name))
      order.push_back(name);
  for (const std::string &name : model::baselineNames())
    if (results.count(name))
      order.push_back(name);
  return order;
}

std::string row(const std::string &name, const model::EvaluationResult &r) {
  char line[256];
  std::snprintf(line, sizeof line,
                "%-26s %6.2f %5.1f  %6.2f %5.1f  %6.2f %5.1f  %7.2f %7.2f %7.2f  %5.1f %5.1f\n",
                name.c_str(), r.time.mape, r.time.within10, r.power.mape, r.power.within10,
                r.energy.mape, r.energy.within10, r.minEnergy.excessVsOracle,
                r.minEnergy.savingVsFmax, r.minEnergy.savingVsReference, r.pareto.precision,
                r.pareto.recall);
  return line;
}

} // namespace

nlohmann::json evaluationJson(const PredictorResults &results) {
  nlohmann::json json = nlohmann::json::object();
  if (auto lstm = results.find("lstm"); lstm != results.end())
    json = model::toJson(lstm->second);
  json["baselines"] = nlohmann::json::object();
  json["variants"] = nlohmann::json::object();
  for (const auto &[name, evaluation] : results) {
    if (name == "lstm")
      continue;
    json[isBaseline(name) ? "baselines" : "variants"][name] = model::toJson(evaluation);
  }
  return json;
}

void printEvaluationTable(std::ostream &out, const PredictorResults &results) {
  if (results.empty())
    return;
  const model::EvaluationResult &any = results.begin()->second.all;
  out << any.benchmarks << " benchmarks x " << any.vfPoints << " V-F points. "
      << "MAPE and within-10% in percent; min-energy choice: energy above the oracle,\n"
      << "saving vs Fmax and vs the reference point (percent); Pareto precision/recall (percent).\n\n";
  out << "predictor                    time MAPE <=10  power MAPE <=10  energy MAPE <=10  "
         "excess  vsFmax   vsRef   ParP  ParR\n";
  for (const std::string &name : reportOrder(results))
    out << row(name, results.at(name).all);
  out << "\nBy class of the measured best memory clock (min-energy excess over the oracle, energy "
         "MAPE):\n";
  for (const std::string &name : reportOrder(results)) {
    const model::ClassedEvaluation &r = results.at(name);
    char line[200];
    std::snprintf(line, sizeof line,
                  "%-26s high (%zu): excess %6.2f, energy MAPE %6.2f   low (%zu): excess %6.2f, "
                  "energy MAPE %6.2f\n",
                  name.c_str(), r.highMemory.benchmarks, r.highMemory.minEnergy.excessVsOracle,
                  r.highMemory.energy.mape, r.lowMemory.benchmarks,
                  r.lowMemory.minEnergy.excessVsOracle, r.lowMemory.energy.mape);
    out << line;
  }
}

void printBenchmarkTable(std::ostream &out, const std::vector<model::BenchmarkScore> &scores) {
  auto point = [](embeddings::VfPoint p) {
    return std::to_string(p.memoryMHz) + "/" + std::to_string(p.coreMHz);
  };
  out << "\nPer application (MAPE percent; minimum-energy point as memory/core MHz):\n"
      << "application                     best   time  power energy  chosen      true       excess\n";
  for (const model::BenchmarkScore &s : scores) {
    char line[256];
    std::snprintf(line, sizeof line, "%-30s %-5s %6.1f %6.1f %6.1f  %-10s  %-10s %6.1f\n",
                  s.name.c_str(), s.highMemory ? "high" : "low", s.timeMape, s.powerMape,
                  s.energyMape, point(s.chosen).c_str(), point(s.oracle).c_str(),
                  s.excessVsOracle);
    out << line;
  }
}

} // namespace ptxdvfs::tools
