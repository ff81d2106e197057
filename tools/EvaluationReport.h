// EvaluationReport.h - one layout, in JSON and as a table, for `evaluate` and cross-validation.
#pragma once

#include "ptxdvfs/model/CrossValidation.h"

#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <string>

namespace ptxdvfs::tools {

using PredictorResults = std::map<std::string, model::ClassedEvaluation>;

/// The "lstm" entry's metrics at the top level (`time`, `power`, `energy`,
/// `min_energy`, `pareto`, `benchmarks`, `vf_points`, and per class), the
/// baselines under `baselines` and the LSTM's read-out variants under
/// `variants`, each with the same fields.
nlohmann::json evaluationJson(const PredictorResults &results);

/// A table: one row per predictor, then the min-energy excess per class.
void printEvaluationTable(std::ostream &out, const PredictorResults &results);

/// One row per application: MAPEs, chosen and measured minimum-energy points (MHz).
void printBenchmarkTable(std::ostream &out, const std::vector<model::BenchmarkScore> &scores);

} // namespace ptxdvfs::tools
