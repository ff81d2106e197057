// LintHints.h - one DVFS hint per kernel, located in the source, and its GCC and SARIF renderings.
#pragma once

#include "CudaSource.h"
#include "KernelPredictions.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct RelatedLocation {
  SourcePosition position;
  std::string message;
};

struct LintHint {
  model::Sensitivity sensitivity = model::Sensitivity::Balanced;
  bool isWarning = true;       ///< else a note (balanced, or held back: uncertain, or not launched)
  std::string message;         ///< without the rule id
  SourcePosition position;     ///< the kernel's declaration, else its first line
  std::vector<RelatedLocation> notes; ///< the loops that drive it, heaviest first
  nlohmann::json properties;   ///< the predicted numbers behind it
};

struct LintSettings {
  model::LintThresholds thresholds;
  bool all = false; ///< also balanced kernels and held-back hints, as notes
};

/// Adds --min-saving, --max-slowdown and --all to `command` in `group`.
void addHintFlags(CLI::App &command, LintSettings &settings, const char *group);

/// The hints for every kernel of `run` (file order); kernels with nothing
/// to say are left out unless `settings.all`.
std::vector<LintHint> lintHints(const PredictionRun &run, const LintSettings &settings);

/// `path:line:col: warning: message [rule]`, then its notes.
void printGcc(const std::vector<LintHint> &hints, std::ostream &out);

/// A SARIF 2.1.0 log: tool.driver with every rule, one result per hint,
/// paths relative to `sourceRoot` (as `SRCROOT`) where they lie under it.
nlohmann::json sarifLog(const std::vector<LintHint> &hints, const std::string &sourceRoot,
                        const std::string &version);

} // namespace ptxdvfs::tools
