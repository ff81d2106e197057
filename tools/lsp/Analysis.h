// Analysis.h - one editor document (.ptx text, or a saved .cu through nvcc) into LSP diagnostics and hover texts.
#pragma once

#include "KernelInputs.h"
#include "KernelPredictions.h"
#include "LintHints.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ptxdvfs::tools::lsp {

struct AnalysisSettings {
  PredictionFlags prediction; ///< the model half is loaded once; inputs: --arch, --nvcc-flag, --kernel
  LintSettings lint;          ///< which hints become diagnostics (`all`: notes too)
};

enum class DocumentKind { Ptx, Cuda, Other };

/// By extension: .ptx, .cu/.cuh, anything else (not analysed).
DocumentKind documentKind(const std::string &path);

/// What hover shows for one kernel, and where its name is (0-based line).
struct KernelSummary {
  std::string name;     ///< as in the PTX (possibly mangled)
  std::string bareName; ///< demangled, without parameters
  std::string markdown;
};

struct DocumentAnalysis {
  nlohmann::json diagnostics = nlohmann::json::array(); ///< LSP Diagnostic[] for this document
  std::vector<KernelSummary> kernels;
  bool cancelled = false; ///< a newer save stopped nvcc: publish nothing
};

/// Analyses the document at `path`. A `.ptx` document is parsed from
/// `text` (what the editor holds, saved or not); a `.cu` one is compiled
/// from disk by nvcc, which `cancellation` can stop. Syntax errors and
/// nvcc's errors become error diagnostics on their lines; each kernel's
/// hint becomes a diagnostic on its name (the declaration in a `.cu`, the
/// `.entry` in a `.ptx`), with the loops that drive it as related
/// information. Never throws: a failure is one error diagnostic (and a
/// line in the log). `model` comes from loadPredictionModel(), shared by
/// every document.
DocumentAnalysis analyseDocument(std::shared_ptr<const PredictionModel> model,
                                 const AnalysisSettings &settings,
                                 const std::string &path, const std::string &text,
                                 Cancellation *cancellation);

/// Line `line` (0-based) of `text`, without its line end; empty past the end.
std::string lineOf(const std::string &text, std::uint32_t line);

} // namespace ptxdvfs::tools::lsp
