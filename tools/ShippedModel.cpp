// ShippedModel.cpp - finding the shipped model from the program's own location.
#include "ShippedModel.h"

#include <cstdlib>
#include <filesystem>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;

std::string shippedModelDir() {
  if (const char *set = std::getenv("PTXDVFS_MODEL"); set && *set)
    return set;
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  // Installed: <prefix>/bin/ptxdvfs or <prefix>/libexec/ptxdvfs/ptxdvfs-model.
  if (!error)
    for (const fs::path &prefix : {self.parent_path().parent_path(), self.parent_path().parent_path().parent_path()}) {
      fs::path installed = prefix / "share/ptxdvfs/trained_weights/gtxtitanx";
      if (fs::exists(installed / "manifest.json", error))
        return installed.string();
    }
  return PTXDVFS_SOURCE_MODEL;
}

std::string shippedVocabularyDir() { return (fs::path(shippedModelDir()) / "vocabulary").string(); }

} // namespace ptxdvfs::tools
