// LintHints.cpp - turning lint classes into located messages: GCC lines and SARIF results.
#include "LintHints.h"

#include "CountText.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <ostream>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;

namespace {

std::string percent(double fraction) { return std::to_string(std::lround(100 * std::fabs(fraction))) + "%"; }

std::string clockChange(const char *which, unsigned to, unsigned from) {
  return std::string(which) + " clock " + std::to_string(to) + " MHz (from " + std::to_string(from) + ")";
}

/// "saves 18% energy for 2% more time", or "... and 3% of the time".
std::string costText(const model::Ratios &ratios) {
  std::string text = "saves " + percent(1 - ratios.energy) + " energy";
  if (ratios.time > 1.005)
    return text + " for " + percent(ratios.time - 1) + " more time";
  if (ratios.time < 0.995)
    return text + " and " + percent(1 - ratios.time) + " of the time";
  return text + " at the same speed";
}

std::string messageOf(const std::string &kernel, const model::LintFinding &finding,
                      const model::GridPoints &points, const model::LintThresholds &thresholds) {
  const embeddings::VfPoint &to = points.grid[finding.decision.point];
  const embeddings::VfPoint &from = points.grid[points.defaultIndex];
  std::string name = "kernel '" + kernel + "'";
  std::string cost = costText(finding.decision.vsDefault);
  switch (finding.sensitivity) {
  case model::Sensitivity::CoreInsensitive:
    return name + " is memory-bound: " + clockChange("core", to.coreMHz, from.coreMHz) + " " + cost;
  case model::Sensitivity::MemoryInsensitive: {
    std::string clocks = clockChange("memory", to.memoryMHz, from.memoryMHz);
    if (to.coreMHz != from.coreMHz)
      clocks += " with " + clockChange("core", to.coreMHz, from.coreMHz);
    return name + " is compute-bound: " + clocks + " " + cost;
  }
  case model::Sensitivity::RaceToIdle:
    return name + " races to idle: " + clockChange("core", to.coreMHz, from.coreMHz) + " " + cost;
  case model::Sensitivity::Balanced:
    break;
  }
  return name + " is balanced: no clock saves " + percent(thresholds.minSavingPercent / 100) +
         " energy within " + percent(thresholds.maxSlowdownPercent / 100) +
         " more time; the default clocks are right";
}

std::optional<SourcePosition> debugPosition(const ptx::Module &module,
                                            const std::vector<CudaSourceFile> &sources,
                                            const std::optional<ptx::DebugLocation> &location) {
  if (!location || location->line == 0)
    return std::nullopt;
  std::string path(module.sourcePath(*location));
  if (path.empty())
    return std::nullopt;
  return SourcePosition{resolvedSourcePath(sources, path), location->line,
                        std::max<std::uint32_t>(location->column, 1)};
}

/// The kernel's declaration in the CUDA source, else its first `.loc`,
/// else its `.entry` line in the PTX (or the input itself when the PTX was
/// a temporary file).
SourcePosition kernelPosition(const InputModule &input, const KernelPrediction &kernel,
                              const std::vector<CudaSourceFile> &sources) {
  if (auto declared = findKernelDeclaration(sources, kernel.name))
    return *declared;
  for (const embeddings::InstructionRecord &record : kernel.encoded.instructions)
    if (auto position = debugPosition(input.module, sources, record.debugLocation))
      return *position;
  std::error_code error;
  if (fs::exists(input.module.path, error))
    return {input.module.path, kernel.function->location.line, kernel.function->location.column};
  return {input.input, 1, 1};
}

/// The loops holding at least a quarter of what the kernel executes, heaviest first.
std::vector<RelatedLocation> loopNotes(const InputModule &input, const KernelPrediction &kernel,
                                       const std::vector<CudaSourceFile> &sources) {
  const embeddings::EncodedKernel &encoded = kernel.encoded;
  std::vector<double> executed(encoded.loops.size(), 0);
  for (const embeddings::InstructionRecord &record : encoded.instructions)
    for (int loop = record.loop; loop >= 0 && static_cast<std::size_t>(loop) < executed.size();
         loop = encoded.loops[static_cast<std::size_t>(loop)].parent)
      executed[static_cast<std::size_t>(loop)] += record.weight;
  double total = encoded.executedInstructions();
  std::vector<std::size_t> order;
  for (std::size_t l = 0; l < executed.size(); ++l)
    if (total > 0 && executed[l] >= 0.25 * total)
      order.push_back(l);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return executed[a] > executed[b]; });
  std::vector<RelatedLocation> notes;
  for (std::size_t l : order) {
    const auto &loop = encoded.loops[l];
    SourcePosition position{input.module.path, loop.location.line, loop.location.column};
    if (auto source = debugPosition(input.module, sources, loop.source))
      position = *source;
    std::string origin = loop.usedDefault ? "default, not found in the code"
                                          : std::string(ptx::analysis::toString(loop.origin));
    const std::string runs = wholeCountText(loop.meanTripCount);
    std::string message = "this loop runs " + std::string(loop.atMost ? "at most " : "") +
                          (runs == "1" ? std::string("once") : runs + " times") +
                          " per entry (" + origin + "): " + percent(executed[l] / total) +
                          " of the instructions one thread executes";
    // An editor user cannot see which values a count was read with; the
    // reasons name the flag (--assume, --grid, --block) or the source change
    // that would make it exact.
    for (std::size_t r = 0; r < loop.why.size(); ++r)
      message += (r == 0 ? "; the count rests on " : ", ") + loop.why[r];
    notes.push_back({position, std::move(message)});
    if (notes.size() == 2)
      break;
  }
  return notes;
}

} // namespace

void addHintFlags(CLI::App &command, LintSettings &settings, const char *group) {
  command.add_option("--min-saving", settings.thresholds.minSavingPercent,
                     "Least energy saving, percent of the default clocks' energy, worth a hint")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str()
      ->group(group);
  command.add_option("--max-slowdown", settings.thresholds.maxSlowdownPercent,
                     "Most time increase, percent of the default clocks' time, a hint may ask for")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str()
      ->group(group);
  command.add_flag("--all", settings.all, "Also report balanced kernels and held-back hints (uncertain, or of a kernel not launched), as notes")
      ->group(group);
}

std::vector<LintHint> lintHints(const PredictionRun &run, const LintSettings &settings) {
  std::vector<LintHint> hints;
  for (const ModulePrediction &module : run.modules) {
    const std::vector<CudaSourceFile> &sources = module.sources;
    for (const KernelPrediction &kernel : module.kernels) {
      model::LintFinding finding =
          model::classify(kernel.prediction, run.model->points, settings.thresholds, run.model->risk);
      bool uncertain = finding.decision.confidence == model::Confidence::Low;
      bool balanced = finding.sensitivity == model::Sensitivity::Balanced;
      std::string unlaunched = notLaunchedReason(kernel.encoded);
      if ((balanced || uncertain || !unlaunched.empty()) && !settings.all)
        continue;
      LintHint hint;
      hint.sensitivity = finding.sensitivity;
      hint.isWarning = !balanced && !uncertain && unlaunched.empty();
      hint.message = messageOf(demangledWithoutParameters(kernel.name), finding, run.model->points,
                               settings.thresholds);
      if (uncertain)
        hint.message += " (uncertain: the predictor's spread is +-" +
                        std::to_string(std::lround(finding.decision.energyUncertaintyPercent)) +
                        "% of the energy)";
      // Its clocks never matter while the program does not run it; the
      // reason names the launches read, so a launch the reader missed shows.
      if (!unlaunched.empty())
        hint.message += " (held back, " + unlaunched + ")";
      hint.position = kernelPosition(*module.input, kernel, sources);
      if (!balanced)
        hint.notes = loopNotes(*module.input, kernel, sources);
      hint.properties = {
          {"kernel", kernel.name},
          {"predictor", run.model->predictor},
          {"gpu", run.model->folder.card.clocks.gpu},
          {"chosen", pointJson(run.model->points.grid[finding.decision.point])},
          {"default", pointJson(run.model->points.grid[run.model->points.defaultIndex])},
          {"vs_default", ratiosJson(finding.decision.vsDefault)},
          {"confidence", model::toString(finding.decision.confidence)},
          {"launched", unlaunched.empty()},
          {"energy_uncertainty_percent", finding.decision.energyUncertaintyPercent}};
      hints.push_back(std::move(hint));
    }
  }
  return hints;
}

namespace {

std::string positionText(const SourcePosition &position) {
  return position.path + ":" + std::to_string(position.line) + ":" + std::to_string(position.column);
}

} // namespace

void printGcc(const std::vector<LintHint> &hints, std::ostream &out) {
  for (const LintHint &hint : hints) {
    out << positionText(hint.position) << ": " << (hint.isWarning ? "warning" : "note") << ": "
        << hint.message << " [" << model::ruleId(hint.sensitivity) << "]\n";
    for (const RelatedLocation &note : hint.notes)
      out << positionText(note.position) << ": note: " << note.message << '\n';
  }
}

} // namespace ptxdvfs::tools
