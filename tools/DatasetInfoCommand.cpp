// DatasetInfoCommand.cpp - `ptxdvfs dataset info DIR`.
#include "DatasetInfoCommand.h"

#include "DiagnosticPrinter.h"
#include "DatasetLoading.h"
#include "ExitCodes.h"
#include "ShippedModel.h"

#include "ptxdvfs/embeddings/Dataset.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <numeric>

namespace ptxdvfs::tools {

namespace {

using embeddings::Dataset;
using embeddings::VfPoint;

struct LengthSummary {
  std::size_t min = 0, median = 0, p90 = 0, max = 0;
  double mean = 0;
};

/// Instructions per benchmark, all kernels together.
LengthSummary summariseLengths(const Dataset &dataset) {
  std::vector<std::size_t> lengths;
  for (const auto &benchmark : dataset.benchmarks) {
    std::size_t total = 0;
    for (const auto &kernel : benchmark.kernels)
      total += kernel.instructions.size();
    lengths.push_back(total);
  }
  if (lengths.empty())
    return {};
  std::sort(lengths.begin(), lengths.end());
  auto at = [&](double quantile) {
    return lengths[static_cast<std::size_t>(quantile * double(lengths.size() - 1) + 0.5)];
  };
  double sum = std::accumulate(lengths.begin(), lengths.end(), 0.0);
  return {lengths.front(), at(0.5), at(0.9), lengths.back(), sum / double(lengths.size())};
}

std::map<std::size_t, std::size_t> kernelsPerBenchmark(const Dataset &dataset) {
  std::map<std::size_t, std::size_t> histogram;
  for (const auto &benchmark : dataset.benchmarks)
    ++histogram[benchmark.kernels.size()];
  return histogram;
}

/// Read as executed: the loops of every kernel by where their counts came
/// from (`originName`: constant, assumed, default, unknown), and how many
/// benchmarks have a loop at the default count, which a launch file or
/// the host code beside the PTX would fix.
struct LoopOrigins {
  std::map<std::string, std::size_t> loops;
  std::size_t benchmarksWithDefaults = 0;
};

LoopOrigins summariseLoops(const Dataset &dataset) {
  LoopOrigins origins;
  for (const auto &benchmark : dataset.benchmarks) {
    bool defaulted = false;
    for (const auto &kernel : benchmark.kernels)
      for (const auto &loop : kernel.loops) {
        const std::string_view origin = ptx::analysis::originName(loop);
        ++origins.loops[std::string(origin)];
        defaulted = defaulted || origin == "default";
      }
    origins.benchmarksWithDefaults += defaulted;
  }
  return origins;
}

nlohmann::json point(VfPoint p) { return {{"memory_mhz", p.memoryMHz}, {"core_mhz", p.coreMHz}}; }

nlohmann::json toJson(const Dataset &dataset, const ptx::Diagnostics &irregularities,
                      const std::string &referenceKind) {
  LengthSummary lengths = summariseLengths(dataset);
  nlohmann::json perBenchmark = nlohmann::json::object();
  std::size_t kernels = 0;
  for (const auto &[count, benchmarks] : kernelsPerBenchmark(dataset)) {
    perBenchmark[std::to_string(count)] = benchmarks;
    kernels += count * benchmarks;
  }
  nlohmann::json cores = nlohmann::json::object();
  for (const auto &[memory, list] : dataset.clocks.coreMHz)
    cores[std::to_string(memory)] = list;
  const LoopOrigins origins = summariseLoops(dataset);
  return {{"directory", dataset.directory},
          {"gpu", dataset.clocks.gpu},
          {"scheme", dataset.scheme},
          {"benchmarks", dataset.benchmarks.size()},
          {"kernels", {{"total", kernels}, {"per_benchmark", perBenchmark}}},
          {"sequence_length",
           {{"min", lengths.min},
            {"median", lengths.median},
            {"p90", lengths.p90},
            {"max", lengths.max},
            {"mean", lengths.mean}}},
          {"loops", {{"by_origin", origins.loops}, {"benchmarks_with_default_counts", origins.benchmarksWithDefaults}}},
          {"grid",
           {{"points", dataset.clocks.grid().size()},
            {"memory_mhz", dataset.clocks.memoryMHz},
            {"core_mhz", cores}}},
          {"reference", {{"kind", referenceKind}, {"point", point(dataset.reference)}}},
          {"default", point(dataset.clocks.defaultPoint)},
          {"fmax", point(dataset.clocks.fmax)},
          {"irregularities", diagnosticsToJson(irregularities)}};
}

std::string describe(VfPoint p) {
  return "(" + std::to_string(p.memoryMHz) + ", " + std::to_string(p.coreMHz) + ") MHz";
}

void printText(const Dataset &dataset, const ptx::Diagnostics &irregularities,
               const std::string &referenceKind, std::ostream &out) {
  out << "dataset:     " << dataset.directory << "\n";
  out << "gpu:         " << dataset.clocks.gpu << ", encoding " << dataset.scheme << "\n";
  out << "benchmarks:  " << dataset.benchmarks.size() << " with sequences and measurements\n";
  out << "kernels:     ";
  const char *separator = "";
  for (const auto &[count, benchmarks] : kernelsPerBenchmark(dataset)) {
    out << separator << benchmarks << " benchmark(s) with " << count << " kernel(s)";
    separator = ", ";
  }
  out << "\n";
  LengthSummary lengths = summariseLengths(dataset);
  out << "length:      instructions per benchmark: min " << lengths.min << ", median "
      << lengths.median << ", p90 " << lengths.p90 << ", max " << lengths.max << ", mean "
      << static_cast<long>(lengths.mean + 0.5) << "\n";
  if (LoopOrigins origins = summariseLoops(dataset); !origins.loops.empty()) {
    std::size_t total = 0;
    std::string parts;
    for (const auto &[origin, count] : origins.loops) {
      total += count;
      parts += (parts.empty() ? "" : ", ") + std::to_string(count) + " " + origin;
    }
    out << "loops:       " << total << " (" << parts << "); " << origins.benchmarksWithDefaults
        << " benchmark(s) with a loop at the default count (a launch.json beside the PTX sets it)\n";
  }
  out << "V-F grid:    " << dataset.clocks.grid().size() << " points\n";
  for (const auto &[memory, cores] : dataset.clocks.coreMHz) {
    out << "  memory " << memory << " MHz: core";
    for (unsigned core : cores)
      out << " " << core;
    out << "\n";
  }
  out << "reference:   " << referenceKind << " " << describe(dataset.reference) << " (default "
      << describe(dataset.clocks.defaultPoint) << ", Fmax " << describe(dataset.clocks.fmax)
      << ")\n";
  out << "irregularities: " << irregularities.size() << "\n";
  for (const auto &diagnostic : irregularities)
    out << "  " << diagnostic.format() << "\n";
}

} // namespace

void setupDatasetCommands(CLI::App &app, int &exitCode) {
  CLI::App *group = app.add_subcommand("dataset", "Inspect measurement datasets");
  group->require_subcommand(1);
  auto options = std::make_shared<DatasetInfoOptions>();
  CLI::App *info = group->add_subcommand(
      "info", "Summarise a dataset folder: benchmarks, kernels, lengths, V-F grid, problems");
  info->footer("Example:\n"
               "  ptxdvfs dataset info ../shared/datasets/gpuptxmodel-gtxtitanx/microbenchmarks\n"
               "Clock tables are read from DIR/gpu_info, else DIR/../gpu_info, else --gpu-info.\n"
               "Irregular benchmarks are listed and left out; --strict makes them errors (exit 1).");
  info->add_option("dir", options->dir, "Dataset folder (aggregated_dataset_<gpu>.csv inside)")
      ->required()
      ->check(CLI::ExistingDirectory);
  info->add_option("--gpu-info", options->gpuInfoDir, "Folder with the clock tables")
      ->check(CLI::ExistingDirectory);
  info->add_option("--reference", options->reference,
                   "V-F point the scaling factors are relative to")
      ->check(CLI::IsMember({"default", "fmax"}))
      ->capture_default_str();
  info->add_flag("--last-kernel-only", options->lastKernelOnly,
                 "Keep only the last kernel file in name order, as the original tool did");
  info->add_flag("--strict", options->strict, "Treat irregularities as errors");
  addPtxFlag(*info, options->ptxDir);
  info->add_flag("--as-executed", options->asExecuted,
                 "With --ptx: read each kernel as one thread executes it (see `ptxdvfs loops`)");
  info->add_flag("--broadcast-loads-as-constant", options->broadcastLoads,
                 "As executed: read a global load of one address per warp as .const, as models "
                 "trained with that setting do")
      ->needs("--as-executed");
  info->add_option("--default-trip-count", options->defaultTripCount,
                   "As executed: iterations of a loop whose count cannot be found")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  info->add_option("--max-length", options->maxLength,
                   "As executed: instructions written per kernel (a model's max_length)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  info->add_flag("--json", options->json, "Print the summary as JSON on stdout");
  info->callback([options, &exitCode] { exitCode = runDatasetInfoCommand(*options); });
}

int runDatasetInfoCommand(const DatasetInfoOptions &options) {
  embeddings::ImportOptions import;
  import.reference = options.reference == "fmax" ? embeddings::ReferenceKind::Fmax
                                                 : embeddings::ReferenceKind::Default;
  import.kernels = options.lastKernelOnly ? embeddings::KernelSelection::LastFileOnly
                                          : embeddings::KernelSelection::AllKernels;
  import.strict = options.strict;
  DatasetSource source{options.dir, options.gpuInfoDir, options.ptxDir, options.asExecuted,
                       options.defaultTripCount, options.broadcastLoads};
  auto dataset = loadDataset(source, import, shippedVocabularyDir(), options.maxLength);
  if (!dataset) {
    printDiagnostics(dataset.diagnostics(), std::cerr);
    return kExitInputError;
  }
  if (options.json)
    std::cout << toJson(*dataset, dataset.diagnostics(), options.reference).dump(2) << '\n';
  else
    printText(*dataset, dataset.diagnostics(), options.reference, std::cout);
  return kExitSuccess;
}

} // namespace ptxdvfs::tools
