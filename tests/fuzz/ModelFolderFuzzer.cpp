// ModelFolderFuzzer.cpp - libFuzzer: a model folder with one file replaced by the input (its hash
// updated, so the content reaches the readers) must be refused cleanly or read, never crash.
// Input: first byte picks the file (manifest.json, config.json, gpu.json, baselines.json), the
// rest is its content. The folder is a small copy of the shipped model, made once.
#include "Sha256.h"

#include "ptxdvfs/model/ModelCard.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char *const kFiles[] = {"manifest.json", "config.json", "gpu.json", "baselines.json"};

std::string slurp(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void spit(const fs::path &path, const std::string &text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

struct Folder {
  fs::path dir;
  std::map<std::string, std::string> pristine;
  json manifest;
};

Folder &folder() {
  static Folder made = [] {
    Folder f;
    f.dir = fs::temp_directory_path() / ("ptxdvfs-fuzz-model-" + std::to_string(getpid()));
    fs::remove_all(f.dir);
    fs::create_directories(f.dir);
    fs::copy(PTXDVFS_SHIPPED_MODEL "/vocabulary", f.dir / "vocabulary", fs::copy_options::recursive);
    fs::copy_file(PTXDVFS_SHIPPED_MODEL "/gpu.json", f.dir / "gpu.json");
    json config = json::parse(slurp(PTXDVFS_SHIPPED_MODEL "/config.json"));
    config["ensemble_size"] = 1;
    spit(f.dir / "config.json", config.dump(1));
    json baselines = json::parse(slurp(PTXDVFS_SHIPPED_MODEL "/baselines.json"));
    baselines["applications"] = json(baselines["applications"].begin(), baselines["applications"].begin() + 3);
    spit(f.dir / "baselines.json", baselines.dump(1));
    spit(f.dir / "member-0.pt", "weights are hashed, not loaded");
    f.manifest = json::parse(slurp(PTXDVFS_SHIPPED_MODEL "/manifest.json"));
    f.manifest["metrics"] = json::object();
    json files = json::object();
    for (const auto &[name, hash] : f.manifest["files"].items())
      if (name.rfind("member-", 0) != 0 || name == "member-0.pt")
        files[name] = ptxdvfs::model::Sha256().update(slurp(f.dir / name)).hexDigest();
    f.manifest["files"] = files;
    spit(f.dir / "manifest.json", f.manifest.dump(1));
    for (const char *name : kFiles)
      f.pristine[name] = slurp(f.dir / name);
    if (!ptxdvfs::model::readModelFolder(f.dir.string()))
      std::abort(); // the unfuzzed folder must load, or nothing below means anything
    std::atexit([] { fs::remove_all(folder().dir); });
    return f;
  }();
  return made;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  Folder &f = folder();
  std::string file = kFiles[data[0] % 4];
  std::string content(reinterpret_cast<const char *>(data) + 1, size - 1);
  for (const auto &[name, text] : f.pristine)
    spit(f.dir / name, text);
  spit(f.dir / file, content);
  if (file != "manifest.json") {
    json manifest = f.manifest;
    manifest["files"][file] = ptxdvfs::model::Sha256().update(content).hexDigest();
    spit(f.dir / "manifest.json", manifest.dump());
  }
  auto contents = ptxdvfs::model::readModelFolder(f.dir.string());
  if (!contents && contents.diagnostics().empty())
    __builtin_trap(); // a refusal must say why
  return 0;
}
