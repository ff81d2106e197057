// PredictCommand.cpp - `ptxdvfs predict FILE...`: the predicted surface of each kernel and module.
#include "PredictCommand.h"

#include "ExitCodes.h"
#include "KernelPredictions.h"
#include "SurfacePlot.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

namespace ptxdvfs::tools {

namespace {

struct PredictOptions {
  PredictionFlags prediction;
  bool json = false;
  bool csv = false;
  std::string plot;
};

constexpr const char *kWholeModule = "(all kernels)";
constexpr const char *kMetricNames[] = {"time", "power", "energy"};

bool contains(const std::vector<std::size_t> &points, std::size_t p) {
  return std::find(points.begin(), points.end(), p) != points.end();
}

/// One application's surface, each row marked: `*` least energy, `p` Pareto-optimal.
/// `reading`: what the kernel was read with (kernelReadingLines),
/// or how a file's kernels weigh in it (kernelSharesLine), or empty.
void printSurface(std::ostream &out, const PredictionRun &run, const std::string &title,
                  const model::ApplicationPrediction &prediction, const std::string &reading = {}) {
  const model::SurfacePrediction &surface = prediction.surface;
  std::vector<std::size_t> pareto = model::paretoPoints(surface.mean);
  out << title << '\n';
  if (!prediction.neighbours.empty()) {
    out << "  nearest training programs:";
    char distance[32];
    for (std::size_t i = 0; i < prediction.neighbours.size(); ++i) {
      out << ' ' << prediction.neighbours[i];
      if (i < prediction.neighbourDistances.size()) {
        std::snprintf(distance, sizeof distance, " (%.2f)", prediction.neighbourDistances[i]);
        out << distance;
      }
    }
    if (prediction.trainingMeanWeight > 0) {
      std::snprintf(distance, sizeof distance, "%.0f%%", 100 * prediction.trainingMeanWeight);
      out << "; " << distance << " training mean, for their distance";
    }
    out << '\n';
  }
  if (!reading.empty())
    out << reading << '\n';
  out << "  f_mem  f_core   time             power            energy\n";
  char line[160];
  for (std::size_t p = 0; p < surface.mean.size(); ++p) {
    const embeddings::VfPoint &point = run.model->points.grid[p];
    std::string cells;
    for (std::size_t m = 0; m < 3; ++m) {
      if (prediction.hasSpread)
        std::snprintf(line, sizeof line, "  %6.3f +- %-5.3f", surface.mean[p][m], surface.spread[p][m]);
      else
        std::snprintf(line, sizeof line, "  %-15.3f", surface.mean[p][m]);
      cells += line;
    }
    std::snprintf(line, sizeof line, "  %5u  %6u%s  %s%s\n", point.memoryMHz, point.coreMHz,
                  cells.c_str(), p == prediction.minEnergyPoint ? "*" : " ",
                  contains(pareto, p) ? "p" : "");
    out << line;
  }
}

void printText(const PredictionRun &run) {
  const embeddings::VfPoint &reference = run.model->folder.card.reference;
  std::cout << "Scaling factors relative to " << pointText(reference)
            << " MHz (memory/core); predictor " << run.model->predictor << " of " << run.model->modelDir << '\n';
  std::cout << "*: least energy   p: Pareto-optimal (no point is both faster and uses less energy)\n";
  for (const ModulePrediction &module : run.modules) {
    for (const KernelPrediction &kernel : module.kernels)
      printSurface(std::cout, run, "\n" + module.input->input + ": kernel " + demangle(kernel.name),
                   kernel.prediction, kernelReadingLines(kernel.encoded));
    if (module.whole)
      printSurface(std::cout, run, "\n" + module.input->input + ": all " +
                                       std::to_string(module.kernels.size()) + " kernels together",
                   *module.whole, kernelSharesLine(module));
  }
}

nlohmann::json surfaceJson(const PredictionRun &run, const model::ApplicationPrediction &prediction) {
  nlohmann::json points = nlohmann::json::array();
  std::vector<std::size_t> pareto = model::paretoPoints(prediction.surface.mean);
  for (std::size_t p = 0; p < prediction.surface.mean.size(); ++p) {
    nlohmann::json row = pointJson(run.model->points.grid[p]);
    for (std::size_t m = 0; m < 3; ++m) {
      row[kMetricNames[m]] = prediction.surface.mean[p][m];
      row[std::string(kMetricNames[m]) + "_spread"] =
          prediction.hasSpread ? nlohmann::json(prediction.surface.spread[p][m]) : nlohmann::json();
    }
    row["pareto"] = contains(pareto, p);
    points.push_back(std::move(row));
  }
  return {{"points", points},
          {"min_energy", pointJson(run.model->points.grid[prediction.minEnergyPoint])},
          {"nearest_training_programs", prediction.neighbours},
          {"neighbour_distances", prediction.neighbourDistances},
          {"training_mean_weight", prediction.trainingMeanWeight}};
}

void printJson(const PredictionRun &run) {
  nlohmann::json modules = nlohmann::json::array();
  for (const ModulePrediction &module : run.modules) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const KernelPrediction &kernel : module.kernels) {
      nlohmann::json entry = surfaceJson(run, kernel.prediction);
      entry.update(kernelReadingJson(kernel));
      kernels.push_back(std::move(entry));
    }
    nlohmann::json entry = {{"input", module.input->input}, {"kernels", kernels}};
    entry["all_kernels"] = module.whole ? surfaceJson(run, *module.whole) : nlohmann::json();
    if (module.whole)
      entry["all_kernels"]["kernel_shares"] = module.shares;
    modules.push_back(std::move(entry));
  }
  nlohmann::json out = {{"model", run.model->modelDir},
                        {"gpu", run.model->folder.card.clocks.gpu},
                        {"predictor", run.model->predictor},
                        {"reference", pointJson(run.model->folder.card.reference)},
                        {"default", pointJson(run.model->points.grid[run.model->points.defaultIndex])},
                        {"fmax", pointJson(run.model->points.grid[run.model->points.fmaxIndex])},
                        {"modules", modules}};
  std::cout << out.dump(2) << '\n';
}

std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

void printCsvRows(const PredictionRun &run, const std::string &input, const std::string &kernel,
                  const model::ApplicationPrediction &prediction) {
  std::vector<std::size_t> pareto = model::paretoPoints(prediction.surface.mean);
  for (std::size_t p = 0; p < prediction.surface.mean.size(); ++p) {
    std::cout << csvField(input) << ',' << csvField(kernel) << ',' << run.model->points.grid[p].memoryMHz
              << ',' << run.model->points.grid[p].coreMHz;
    for (std::size_t m = 0; m < 3; ++m)
      std::cout << ',' << prediction.surface.mean[p][m];
    for (std::size_t m = 0; m < 3; ++m) {
      std::cout << ',';
      if (prediction.hasSpread)
        std::cout << prediction.surface.spread[p][m];
    }
    std::cout << ',' << (contains(pareto, p) ? 1 : 0) << ',' << (p == prediction.minEnergyPoint ? 1 : 0)
              << '\n';
  }
}

void printCsv(const PredictionRun &run) {
  std::cout.precision(6);
  std::cout << "input,kernel,memory_mhz,core_mhz,time,power,energy,time_spread,power_spread,"
               "energy_spread,pareto,min_energy\n";
  for (const ModulePrediction &module : run.modules) {
    for (const KernelPrediction &kernel : module.kernels)
      printCsvRows(run, module.input->input, kernel.name, kernel.prediction);
    if (module.whole)
      printCsvRows(run, module.input->input, kWholeModule, *module.whole);
  }
}

/// Draws the one application of the run (a file's kernel, or its kernels
/// together); an exit status.
int plot(const PredictionRun &run, const std::string &path) {
  if (run.modules.size() != 1) {
    spdlog::error("--plot draws one application: give one input file");
    return kExitUsageError;
  }
  const ModulePrediction &module = run.modules.front();
  const model::ApplicationPrediction &prediction = module.whole ? *module.whole : module.kernels.front().prediction;
  std::string what = module.whole ? "all " + std::to_string(module.kernels.size()) + " kernels"
                                  : "kernel " + demangle(module.kernels.front().name);
  PlotRequest request{module.input->input + ": " + what,
                      "predicted by " + run.model->predictor + " of " + run.model->modelDir + " for " +
                          run.model->folder.card.clocks.gpu + "; factors against the default clocks",
                      &prediction, &run.model->points, prediction.minEnergyPoint};
  if (std::string error = writeSurfacePlot(request, path); !error.empty()) {
    spdlog::error("{}", error);
    return kExitInputError;
  }
  spdlog::info("wrote {}", path);
  return kExitSuccess;
}

} // namespace

void setupPredictCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<PredictOptions>();
  CLI::App *command = app.add_subcommand(
      "predict", "Predict each kernel's time, power and energy at every V-F point of the GPU");
  command->footer(
      "Examples:\n"
      "  ptxdvfs predict examples/saxpy.ptx\n"
      "  ptxdvfs predict --csv kernels.cu --arch sm_80 > surface.csv\n"
      "  ptxdvfs predict --json --assume n=1048576 --grid 4096 --block 256 app.ptx\n"
      "  ptxdvfs predict --plot saxpy.svg examples/saxpy.ptx\n"
      "Factors are relative to the model's reference clocks (the GPU's default): time 1.10 is\n"
      "10% slower, energy 0.85 uses 15% less. '+-' is the predictor's spread: the ensemble\n"
      "members' disagreement (lstm), the nearest training programs' (knn_*).\n"
      "The LSTM's factor at the reference point is its prediction, not forced to 1 (it is\n"
      "what `evaluate` scores); recommend and lint compare points of one surface.\n"
      "A file with several kernels is also predicted as a whole, as `evaluate` reads a\n"
      "benchmark: each kernel's instructions count once for every thread it launches\n"
      "(grid x block, times its launches: a launch file's, or its launch sites in the\n"
      "host code times the host loops around them and around a launching helper's\n"
      "calls), so a kernel launched with more threads, or more often, weighs more\n"
      "('kernels weigh' line where they differ; --json: kernel_shares), and one that host\n"
      "code launching the others launches nowhere is not counted (share 0). Kernels are\n"
      "read as they execute: give what the PTX cannot tell with --assume, --grid and\n"
      "--block (see `ptxdvfs loops`). A kernel\n"
      "whose loop counts rest on defaults gets a 'loops:' line (--json: loop_counts)\n"
      "naming what they rest on.\n"
      "The shipped model's default predictor is knn_log_histogram: the training programs\n"
      "whose log-scaled instruction mix is closest. In cross-validation that holds out each\n"
      "family with its twins it beats the LSTM, the blends and knn_unit_mix (the neighbours\n"
      "by execution unit) on both memory classes (docs/model.md). Choose another with\n"
      "--predictor.");
  addPredictionFlags(*command, options->prediction);
  auto *json = command->add_flag("--json", options->json, "Print JSON on stdout");
  command->add_flag("--csv", options->csv,
                    "Print CSV on stdout: one row per kernel and V-F point; the kernel "
                    "'(all kernels)' is the whole file")
      ->excludes(json);
  command->add_option("--plot", options->plot,
                      "Also draw FILE.svg or FILE.png: energy against speedup at every V-F point "
                      "(Pareto set and least-energy point marked) and a heat map of the energy "
                      "factor over the clocks. One input; its kernels together if it has several "
                      "(--kernel picks one)")
      ->check([](const std::string &path) -> std::string {
        std::string extension = path.size() >= 4 ? path.substr(path.size() - 4) : "";
        return extension == ".svg" || extension == ".png" ? "" : "--plot writes .svg or .png files: " + path;
      });
  command->callback([options, &exitCode] {
    PredictionRun run;
    exitCode = runPredictions(options->prediction, run);
    if (run.modules.empty())
      return;
    if (options->json)
      printJson(run);
    else if (options->csv)
      printCsv(run);
    else
      printText(run);
    if (!options->plot.empty() && exitCode == kExitSuccess)
      exitCode = plot(run, options->plot);
  });
}

} // namespace ptxdvfs::tools
