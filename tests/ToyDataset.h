// ToyDataset.h - a tiny dataset on disk for import tests: GPU "toy", memory
// clocks 100 and 200 MHz, core clocks 10 and 20 MHz (defaults 200 / 10).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace ptxdvfs::test {

/// The dataset lies in `root()/data`, its clock tables in
/// `root()/gpu_info`; the test writes its benchmarks (and anything else,
/// such as a PTX folder, under root()). Removed with the object.
class ToyDataset {
public:
  // ctest runs tests as parallel processes: the pid keeps their folders apart.
  ToyDataset()
      : root_(std::filesystem::temp_directory_path() /
              ("ptxdvfs_toy_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++))) {
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "data");
    write("gpu_info/clks_mem_toy.txt", "100\n200\n200\n");
    write("gpu_info/clks_core_toy_100.txt", "20\n10\n10\n");
    write("gpu_info/clks_core_toy_200.txt", "20\n10\n10\n");
  }
  ~ToyDataset() { std::filesystem::remove_all(root_); }
  ToyDataset(const ToyDataset &) = delete;
  ToyDataset &operator=(const ToyDataset &) = delete;

  /// Writes `content` to `relative` (to root()), creating its folders.
  void write(const std::string &relative, const std::string &content) const {
    std::filesystem::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative) << content;
  }
  /// A full block: time = scale x core clock, power 10 W, energy = time x power.
  static std::string block(const std::string &name, int scale = 1) {
    std::string text = name + "\n";
    for (int memory : {100, 200})
      for (int core : {10, 20})
        text += std::to_string(memory) + "," + std::to_string(core) + "," + std::to_string(scale * core) + ",10," +
                std::to_string(scale * core * 10) + "\n";
    return text;
  }
  void sequence(const std::string &benchmark, int kernel, const std::string &codes) const {
    write("data/" + benchmark + "/outputSequence_kernel_depend_" + std::to_string(kernel) + ".csv", codes);
  }
  std::string root() const { return root_.string(); }
  std::string dir() const { return (root_ / "data").string(); }
  std::string csv() const { return dir() + "/aggregated_dataset_toy.csv"; }

private:
  static inline int counter_ = 0;
  std::filesystem::path root_;
};

} // namespace ptxdvfs::test
