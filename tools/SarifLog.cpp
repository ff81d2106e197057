// SarifLog.cpp - lint hints as a SARIF 2.1.0 log, for code-scanning services and editors.
#include "FileUri.h"
#include "LintHints.h"

#include <cctype>
#include <cstdio>
#include <filesystem>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;

namespace {

struct RuleText {
  model::Sensitivity sensitivity;
  const char *name;
  const char *shortText;
  const char *help;
};

constexpr RuleText kRules[] = {
    {model::Sensitivity::CoreInsensitive, "MemoryBoundKernel",
     "The kernel is memory-bound: a lower core clock saves energy for little time.",
     "The predicted time barely grows as the core clock falls, while power does: the kernel "
     "waits on memory. Lock the core clock at the suggested value (nvidia-smi "
     "--lock-gpu-clocks) when this kernel dominates the run, or accept the hint's thresholds "
     "with ptxdvfs lint --min-saving/--max-slowdown."},
    {model::Sensitivity::MemoryInsensitive, "ComputeBoundKernel",
     "The kernel is compute-bound: a lower memory clock saves energy for little time.",
     "The predicted time barely changes with the memory clock: the kernel's work is on the "
     "cores. Lower the memory clock (nvidia-smi --lock-memory-clocks) where the GPU allows it."},
    {model::Sensitivity::RaceToIdle, "RaceToIdleKernel",
     "Higher clocks finish the kernel sooner and use less energy.",
     "Static power dominates at the default clocks: running faster finishes the work before "
     "the extra dynamic power costs more than the time saved. Raise the core clock."},
    {model::Sensitivity::Balanced, "BalancedKernel",
     "No clock saves enough energy within the allowed slowdown.",
     "The default clocks are right for this kernel under the thresholds given (ptxdvfs lint "
     "--min-saving, --max-slowdown). Reported only with --all."},
};

nlohmann::json physicalLocation(const SourcePosition &position, const fs::path &root) {
  std::error_code error;
  fs::path absolute = fs::weakly_canonical(fs::absolute(position.path), error);
  fs::path relative = absolute.lexically_relative(root);
  nlohmann::json artifact;
  if (!relative.empty() && *relative.begin() != "..")
    artifact = {{"uri", percentEncodedPath(relative.generic_string())}, {"uriBaseId", "SRCROOT"}};
  else
    artifact = {{"uri", "file://" + percentEncodedPath(absolute.generic_string())}};
  nlohmann::json region = {{"startLine", std::max<std::uint32_t>(position.line, 1)}};
  if (position.column > 0)
    region["startColumn"] = position.column;
  return {{"physicalLocation", {{"artifactLocation", artifact}, {"region", region}}}};
}

} // namespace

nlohmann::json sarifLog(const std::vector<LintHint> &hints, const std::string &sourceRoot,
                        const std::string &version) {
  std::error_code error;
  fs::path root = fs::weakly_canonical(fs::absolute(sourceRoot), error);
  nlohmann::json rules = nlohmann::json::array();
  for (const RuleText &rule : kRules)
    rules.push_back({{"id", model::ruleId(rule.sensitivity)},
                     {"name", rule.name},
                     {"shortDescription", {{"text", rule.shortText}}},
                     {"fullDescription", {{"text", rule.shortText}}},
                     {"help", {{"text", rule.help}}},
                     {"defaultConfiguration",
                      {{"level", rule.sensitivity == model::Sensitivity::Balanced ? "note" : "warning"}}}});
  nlohmann::json results = nlohmann::json::array();
  for (const LintHint &hint : hints) {
    std::size_t ruleIndex = 0;
    while (ruleIndex + 1 < std::size(kRules) && kRules[ruleIndex].sensitivity != hint.sensitivity)
      ++ruleIndex;
    nlohmann::json related = nlohmann::json::array();
    for (std::size_t n = 0; n < hint.notes.size(); ++n) {
      nlohmann::json location = physicalLocation(hint.notes[n].position, root);
      location["id"] = n;
      location["message"] = {{"text", hint.notes[n].message}};
      related.push_back(std::move(location));
    }
    nlohmann::json result = {{"ruleId", model::ruleId(hint.sensitivity)},
                             {"ruleIndex", ruleIndex},
                             {"level", hint.isWarning ? "warning" : "note"},
                             {"message", {{"text", hint.message}}},
                             {"locations", nlohmann::json::array({physicalLocation(hint.position, root)})},
                             {"properties", hint.properties}};
    if (!related.empty())
      result["relatedLocations"] = std::move(related);
    results.push_back(std::move(result));
  }
  std::string rootUri = "file://" + percentEncodedPath(root.generic_string());
  if (rootUri.back() != '/')
    rootUri += '/';
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", nlohmann::json::array({{{"tool",
                                            {{"driver",
                                              {{"name", "ptxdvfs"},
                                               {"version", version},
                                               {"semanticVersion", version},
                                               {"rules", rules}}}}},
                                           {"originalUriBaseIds", {{"SRCROOT", {{"uri", rootUri}}}}},
                                           {"results", results}}})}};
}

} // namespace ptxdvfs::tools
