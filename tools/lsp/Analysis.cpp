// Analysis.cpp - parse or compile one document, lint its kernels, and say it in LSP's terms.
#include "lsp/Analysis.h"

#include "ExitCodes.h"
#include "FileUri.h"

#include "ptxdvfs/ptx/Parser.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>

namespace ptxdvfs::tools::lsp {

namespace fs = std::filesystem;

namespace {

enum LspSeverity { kError = 1, kWarning = 2, kInformation = 3, kHint = 4 };

nlohmann::json position(std::uint32_t line, std::uint32_t character) {
  return {{"line", line}, {"character", character}};
}

nlohmann::json range(std::uint32_t line, std::uint32_t start, std::uint32_t end) {
  return {{"start", position(line, start)}, {"end", position(line, std::max(start, end))}};
}

nlohmann::json diagnostic(const nlohmann::json &where, int severity, const std::string &message) {
  return {{"range", where}, {"severity", severity}, {"source", "ptxdvfs"}, {"message", message}};
}

/// 1-based line/column (0: unknown) to a 0-based position.
std::uint32_t zeroBased(std::uint32_t oneBased) { return oneBased > 0 ? oneBased - 1 : 0; }

bool samePath(const std::string &a, const std::string &b) {
  if (a == b)
    return true;
  std::error_code error;
  fs::path left = fs::weakly_canonical(a, error);
  if (error)
    return false;
  fs::path right = fs::weakly_canonical(b, error);
  return !error && left == right;
}

/// The range of `name` on `line`, searched from `column`, else from the
/// line's start; the bare position when it is not there.
nlohmann::json nameRange(const std::string &text, std::uint32_t line, std::uint32_t column,
                         const std::string &name) {
  std::string content = lineOf(text, line);
  std::size_t found = content.find(name, std::min<std::size_t>(column, content.size()));
  if (found == std::string::npos)
    found = content.find(name);
  if (found == std::string::npos)
    return range(line, column, column);
  auto start = static_cast<std::uint32_t>(found);
  return range(line, start, start + static_cast<std::uint32_t>(name.size()));
}

nlohmann::json parseDiagnostic(const ptx::Diagnostic &found) {
  std::uint32_t line = zeroBased(found.location.line), column = zeroBased(found.location.column);
  int severity = found.severity == ptx::Severity::Error     ? kError
                 : found.severity == ptx::Severity::Warning ? kWarning
                                                            : kInformation;
  return diagnostic(range(line, column, column + 1), severity, found.message);
}

/// nvcc's `path(line): error: message` lines that name this document.
nlohmann::json nvccDiagnostics(const std::string &output, const std::string &path,
                               const std::string &text) {
  static const std::regex located(R"(^(.*)\((\d+)\): (error|warning|catastrophic error)[^:]*: (.*)$)");
  nlohmann::json found = nlohmann::json::array();
  std::istringstream lines(output);
  std::string line;
  std::smatch match;
  while (std::getline(lines, line))
    if (std::regex_match(line, match, located) && samePath(match[1].str(), path)) {
      auto at = zeroBased(static_cast<std::uint32_t>(std::stoul(match[2].str())));
      found.push_back(diagnostic(range(at, 0, static_cast<std::uint32_t>(lineOf(text, at).size())),
                                 match[3].str() == "warning" ? kWarning : kError,
                                 "nvcc: " + match[4].str()));
    }
  return found;
}

std::string fixed(double value, const char *format) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string hoverText(const LintHint &hint, const KernelPrediction &kernel, const std::string &bare) {
  const nlohmann::json &numbers = hint.properties;
  auto clocks = [](const nlohmann::json &point) {
    return std::to_string(point.value("memory_mhz", 0)) + "/" + std::to_string(point.value("core_mhz", 0));
  };
  const nlohmann::json &ratios = numbers["vs_default"];
  std::string text = "**ptxdvfs** kernel `" + bare + "`, predicted by `" +
                     numbers.value("predictor", "") + "` for " + numbers.value("gpu", "") +
                     "\n\n" + hint.message + " [" + model::ruleId(hint.sensitivity) + "]\n\n" +
                     "| clocks (memory/core MHz) | time | power | energy |\n|---|---|---|---|\n" +
                     "| default " + clocks(numbers["default"]) + " | 1.00 | 1.00 | 1.00 |\n" +
                     "| chosen " + clocks(numbers["chosen"]) + " | " +
                     fixed(ratios.value("time", 1.0), "%.2f") + " | " +
                     fixed(ratios.value("power", 1.0), "%.2f") + " | " +
                     fixed(ratios.value("energy", 1.0), "%.2f") + " |\n\n" +
                     "Confidence: " + numbers.value("confidence", "unknown");
  double uncertainty = numbers.value("energy_uncertainty_percent", 0.0);
  if (uncertainty > 0)
    text += " (energy +-" + fixed(uncertainty, "%.0f") + "%)";
  text += ".";
  const model::ApplicationPrediction &prediction = kernel.prediction;
  if (!prediction.neighbours.empty()) {
    text += " Nearest training programs:";
    for (const std::string &name : prediction.neighbours)
      text += " `" + name + "`";
    text += ".";
  }
  for (const RelatedLocation &note : hint.notes)
    text += "\n\n- line " + std::to_string(note.position.line) + ": " + note.message;
  return text;
}

} // namespace

std::string lineOf(const std::string &text, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t l = 0; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string::npos)
      return "";
    ++start;
  }
  std::size_t end = text.find('\n', start);
  std::string result = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!result.empty() && result.back() == '\r')
    result.pop_back();
  return result;
}

DocumentKind documentKind(const std::string &path) {
  std::string extension = fs::path(path).extension().string();
  if (extension == ".ptx")
    return DocumentKind::Ptx;
  if (extension == ".cu" || extension == ".cuh")
    return DocumentKind::Cuda;
  return DocumentKind::Other;
}

namespace {

DocumentAnalysis analyse(std::shared_ptr<const PredictionModel> model, const AnalysisSettings &settings,
                         const std::string &path, const std::string &text,
                         Cancellation *cancellation) {
  DocumentAnalysis result;
  PredictionRun run;
  run.model = std::move(model);

  DocumentKind kind = documentKind(path);
  if (kind == DocumentKind::Ptx) {
    ptx::ParseResult parsed = ptx::parseForDiagnostics(text, path);
    for (const ptx::Diagnostic &found : parsed.diagnostics)
      result.diagnostics.push_back(parseDiagnostic(found));
    if (ptx::hasErrors(parsed.diagnostics))
      return result;
    run.inputs.modules.push_back({path, std::move(parsed.module), {}});
  } else if (kind == DocumentKind::Cuda) {
    CompiledCuda compiled = compileCudaFile(path, settings.prediction.inputs, cancellation);
    if (compiled.cancelled) {
      result.cancelled = true;
      return result;
    }
    result.diagnostics = nvccDiagnostics(compiled.nvccOutput, path, text);
    if (!compiled.module) {
      // No located nvcc error: nvcc is missing or failed on its own (a
      // warning, not an error in the user's code).
      if (result.diagnostics.empty())
        result.diagnostics.push_back(diagnostic(range(0, 0, 0), kWarning, compiled.error));
      return result;
    }
    run.inputs.modules.push_back(std::move(*compiled.module));
  } else {
    return result;
  }

  if (predictInputs(settings.prediction, run) != kExitSuccess || run.modules.empty()) {
    if (run.modules.empty() && !run.inputs.modules.front().module.kernels().empty())
      result.diagnostics.push_back(diagnostic(
          range(0, 0, 0), kInformation,
          "no kernel could be predicted (--kernel, or --assume for another file; see the server's log)"));
    return result;
  }
  LintSettings everything = settings.lint;
  everything.all = true; // hover describes every kernel; the settings decide what is published
  for (const LintHint &hint : lintHints(run, everything)) {
    std::string name = hint.properties.value("kernel", "");
    const KernelPrediction *kernel = nullptr;
    for (const KernelPrediction &candidate : run.modules.front().kernels)
      if (candidate.name == name)
        kernel = &candidate;
    if (!kernel)
      continue;
    std::string bare = demangledWithoutParameters(name);
    nlohmann::json where;
    if (samePath(hint.position.path, path))
      where = nameRange(text, zeroBased(hint.position.line), zeroBased(hint.position.column), bare);
    else if (kind == DocumentKind::Ptx)
      where = nameRange(text, zeroBased(kernel->function->location.line),
                        zeroBased(kernel->function->location.column), name);
    else
      where = range(0, 0, 0);
    if (hint.isWarning || settings.lint.all) {
      nlohmann::json published =
          diagnostic(where, hint.isWarning ? kWarning : kInformation, hint.message);
      published["code"] = model::ruleId(hint.sensitivity);
      published["data"] = hint.properties;
      nlohmann::json related = nlohmann::json::array();
      for (const RelatedLocation &note : hint.notes) {
        auto line = zeroBased(note.position.line), column = zeroBased(note.position.column);
        related.push_back({{"location", {{"uri", fileUri(note.position.path)},
                                         {"range", range(line, column, column)}}},
                           {"message", note.message}});
      }
      if (!related.empty())
        published["relatedInformation"] = related;
      result.diagnostics.push_back(std::move(published));
    }
    result.kernels.push_back({name, bare, hoverText(hint, *kernel, bare)});
  }
  return result;
}

} // namespace

DocumentAnalysis analyseDocument(std::shared_ptr<const PredictionModel> model,
                                 const AnalysisSettings &settings, const std::string &path,
                                 const std::string &text, Cancellation *cancellation) {
  try {
    return analyse(std::move(model), settings, path, text, cancellation);
  } catch (const std::exception &error) {
    // The server outlives any one document: say what broke, where the user looks.
    spdlog::error("{}: analysis failed: {}", path, error.what());
    DocumentAnalysis failed;
    failed.diagnostics.push_back(
        diagnostic(range(0, 0, 0), kError, std::string("ptxdvfs failed: ") + error.what()));
    return failed;
  }
}

} // namespace ptxdvfs::tools::lsp
