// DatasetFuzzer.cpp - libFuzzer: a dataset folder whose measurement CSV and two benchmarks'
// sequence files come from the input must import or be refused with diagnostics, never crash.
// Input: the three files separated by lines "#--".
#include "ptxdvfs/embeddings/Dataset.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const fs::path &folder() {
  static fs::path made = [] {
    fs::path dir = fs::temp_directory_path() / ("ptxdvfs-fuzz-dataset-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "A");
    fs::create_directories(dir / "B");
    fs::copy(PTXDVFS_GPU_INFO_DIR, dir / "gpu_info", fs::copy_options::recursive);
    std::atexit([] { fs::remove_all(folder()); });
    return dir;
  }();
  return made;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string input(reinterpret_cast<const char *>(data), size);
  std::string parts[3];
  std::size_t start = 0;
  for (int part = 0; part < 3; ++part) {
    std::size_t end = part < 2 ? input.find("\n#--\n", start) : std::string::npos;
    parts[part] = input.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (end == std::string::npos) {
      start = input.size();
    } else {
      start = end + 5;
    }
  }
  const fs::path &dir = folder();
  std::ofstream(dir / "aggregated_dataset_gtxtitanx.csv", std::ios::trunc) << parts[0];
  std::ofstream(dir / "A" / "outputSequence_kernel_depend_0.csv", std::ios::trunc) << parts[1];
  std::ofstream(dir / "B" / "outputSequence_kernel_depend_0.csv", std::ios::trunc) << parts[2];
  auto dataset = ptxdvfs::embeddings::importDataset(dir.string());
  if (!dataset && dataset.diagnostics().empty())
    __builtin_trap(); // a refusal must say why
  return 0;
}
