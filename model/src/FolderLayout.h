// FolderLayout.h - the file names of a model folder, shared by its reader and its writer.
#pragma once

#include "ptxdvfs/embeddings/Vocabulary.h"
#include "ptxdvfs/ptx/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::model::layout {

inline constexpr const char *kConfigFile = "config.json";
inline constexpr const char *kBaselinesFile = "baselines.json";
inline constexpr const char *kGpuFile = "gpu.json";
inline constexpr const char *kManifestFile = "manifest.json";
inline constexpr const char *kVocabularyDir = "vocabulary";

inline ptx::Diagnostic error(const std::string &path, std::string message) {
  return {path, {}, ptx::Severity::Error, std::move(message)};
}

inline std::string memberFile(std::size_t member) {
  return "member-" + std::to_string(member) + ".pt";
}

/// Files covered by the manifest, relative to the folder.
inline std::vector<std::string> payloadFiles(std::size_t members) {
  std::vector<std::string> files = {kConfigFile,
                                    kGpuFile,
                                    kBaselinesFile,
                                    std::string(kVocabularyDir) + "/" + embeddings::kOpcodesFile,
                                    std::string(kVocabularyDir) + "/" + embeddings::kStateSpacesFile,
                                    std::string(kVocabularyDir) + "/" + embeddings::kTypesFile};
  for (std::size_t m = 0; m < members; ++m)
    files.push_back(memberFile(m));
  return files;
}

/// `path` parsed, or nullopt with the reason appended to `errors`.
std::optional<nlohmann::json> readJson(const std::string &path, ptx::Diagnostics &errors);

} // namespace ptxdvfs::model::layout
