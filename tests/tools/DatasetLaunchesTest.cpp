// DatasetLaunchesTest.cpp - a dataset's PTX is read with the launches of the
// CUDA sources beside it, as `predict` reads the same file, and with those
// its launch.json records over them.
#include "DatasetLoading.h"

#include "TestPaths.h"
#include "ToyDataset.h"

#include <gtest/gtest.h>

#include <optional>
#include <regex>
#include <string>

namespace ptxdvfs::tools {
namespace {

/// Where a toy benchmark's CUDA sources are.
enum class Sources {
  None,
  BesideThePtx,
  /// In a folder of their own, which the PTX's `.file` names (a source tree).
  InTheirOwnFolder,
};

/// A one-benchmark toy dataset ("launched") whose PTX is the host-launch
/// fixture. Its `.file` is moved to a folder that does not exist, or to the
/// toy's own source folder, so only the copies written here can be read,
/// wherever the checkout lies. The launch file goes where the sources are
/// (beside the PTX without them).
class LaunchDataset {
public:
  explicit LaunchDataset(Sources sources, const std::string &launchFile = "") {
    toy_.write("data/aggregated_dataset_toy.csv", test::ToyDataset::block("launched"));
    const std::string loops = test::fixtureDir() + "/loops/";
    const std::string folder = sources == Sources::InTheirOwnFolder ? "src/" : "ptx/launched/";
    const std::string declared = sources == Sources::InTheirOwnFolder ? toy_.root() + "/src" : "/nonexistent";
    std::string ptx = test::readFile(loops + "host_launches.ptx");
    ptx = std::regex_replace(ptx, std::regex(R"(\.file\s+1\s+"[^"]*")"),
                             ".file 1 \"" + declared + "/host_launches.cuh\"");
    toy_.write("ptx/launched/host_launches.ptx", ptx);
    if (sources != Sources::None)
      for (const char *source : {"host_launches.cu", "host_launches.cuh"})
        toy_.write(folder + source, test::readFile(loops + source));
    if (!launchFile.empty())
      toy_.write(folder + "launch.json", launchFile);
  }

  ptx::Expected<embeddings::Dataset> load() const {
    DatasetSource source;
    source.dataset = toy_.dir();
    source.ptxDir = toy_.root() + "/ptx";
    source.asExecuted = true;
    return loadDataset(source, embeddings::ImportOptions{}, test::vocabularyDir(), 0);
  }

private:
  test::ToyDataset toy_;
};

/// The first loop of the kernel whose name contains `name`, as "TRIPS ORIGIN".
std::string firstLoop(const embeddings::Dataset &dataset, const std::string &name) {
  for (const embeddings::EncodedKernel &kernel : dataset.benchmarks.at(0).kernels)
    if (kernel.name.find(name) != std::string::npos && !kernel.loops.empty())
      return std::to_string(kernel.loops[0].maxTripCount) + " " +
             std::string(ptx::analysis::originName(kernel.loops[0]));
  return "no loop";
}

TEST(DatasetLaunchesTest, TheLaunchBesideTheDatasetPtxSetsTheCount) {
  auto dataset = LaunchDataset(Sources::BesideThePtx).load();
  ASSERT_TRUE(dataset.hasValue());
  ASSERT_EQ(dataset->benchmarks.size(), 1u);
  EXPECT_EQ(firstLoop(*dataset, "launched_literal"), "32 assumed");      // <<<1, 128>>>: 4096 / 128
  EXPECT_EQ(firstLoop(*dataset, "launched_grid_stride"), "8 assumed");   // 2^20 / (512 * 256)
  EXPECT_EQ(firstLoop(*dataset, "launched_at_run_time"), "16 default");  // a size read at run time
}

TEST(DatasetLaunchesTest, WithoutSourcesTheDefaultsStay) {
  auto dataset = LaunchDataset(Sources::None).load();
  ASSERT_TRUE(dataset.hasValue());
  ASSERT_EQ(dataset->benchmarks.size(), 1u);
  EXPECT_EQ(firstLoop(*dataset, "launched_literal"), "16 default"); // 4096 / 256
  EXPECT_EQ(firstLoop(*dataset, "launched_grid_stride"), "4 default"); // 2^20 / (1024 * 256)
}

/// Every diagnostic of `result`, one per line.
template <typename T> std::string messages(const ptx::Expected<T> &result) {
  std::string text;
  for (const ptx::Diagnostic &diagnostic : result.diagnostics())
    text += diagnostic.format() + "\n";
  return text;
}

TEST(DatasetLaunchesTest, TheLaunchFileWinsOverTheHostCode) {
  auto dataset = LaunchDataset(Sources::BesideThePtx, R"({"format": "ptxdvfs-launch/1", "kernels": {
      "launched_literal": {"block": [512]},
      "_Z32launched_with_run_time_argumentsPfi": {"block": 64, "arguments": {"count": 6400}}}})")
                     .load();
  ASSERT_TRUE(dataset.hasValue()) << messages(dataset);
  ASSERT_EQ(dataset->benchmarks.size(), 1u);
  EXPECT_EQ(firstLoop(*dataset, "launched_literal"), "8 assumed");  // 4096 / 512, not the host code's 128
  EXPECT_EQ(firstLoop(*dataset, "launched_with_run_time_arguments"), "100 assumed"); // 6400 / 64
  EXPECT_EQ(firstLoop(*dataset, "launched_grid_stride"), "8 assumed");  // not in the file: the host code's
}

TEST(DatasetLaunchesTest, TheLaunchFileBesideTheSourcesIsReadToo) {
  // As `predict` finds it for a .cu compiled to a temporary PTX file.
  auto dataset = LaunchDataset(Sources::InTheirOwnFolder, R"({"format": "ptxdvfs-launch/1", "kernels": {
      "launched_literal": {"block": [512]}}})")
                     .load();
  ASSERT_TRUE(dataset.hasValue()) << messages(dataset);
  ASSERT_EQ(dataset->benchmarks.size(), 1u);
  EXPECT_EQ(firstLoop(*dataset, "launched_literal"), "8 assumed");    // 4096 / 512, from the file
  EXPECT_EQ(firstLoop(*dataset, "launched_grid_stride"), "8 assumed"); // the host code's, found there too
}

TEST(DatasetLaunchesTest, TheLaunchFileNeedsNoSources) {
  // Without the host code there are no CUDA names: parameters go by their PTX suffix.
  auto dataset = LaunchDataset(Sources::None, R"({"format": "ptxdvfs-launch/1", "kernels": {
      "launched_grid_stride": {"grid": 16, "block": 128},
      "launched_with_run_time_arguments": {"block": 32, "arguments": {"param_1": 320}}}})")
                     .load();
  ASSERT_TRUE(dataset.hasValue()) << messages(dataset);
  EXPECT_EQ(firstLoop(*dataset, "launched_grid_stride"), "512 assumed"); // 2^20 / (16 * 128)
  EXPECT_EQ(firstLoop(*dataset, "launched_with_run_time_arguments"), "10 assumed");
  EXPECT_EQ(firstLoop(*dataset, "launched_literal"), "16 default");
}

/// The launch the kernel whose name contains `name` was read with.
std::optional<ptx::analysis::LaunchSize> launchOf(const embeddings::Dataset &dataset, const std::string &name) {
  for (const embeddings::EncodedKernel &kernel : dataset.benchmarks.at(0).kernels)
    if (kernel.name.find(name) != std::string::npos)
      return kernel.launch;
  return std::nullopt;
}

TEST(DatasetLaunchesTest, EachKernelKeepsTheLaunchItsMixWeighsBy) {
  // What the model's kernelsRead() weighs a benchmark's kernels by: the
  // launch file's sizes and launches, else the defaults.
  auto dataset = LaunchDataset(Sources::None, R"({"format": "ptxdvfs-launch/1", "kernels": {
      "launched_grid_stride": {"grid": 16, "block": 128, "launches": 10}}})")
                     .load();
  ASSERT_TRUE(dataset.hasValue()) << messages(dataset);
  auto given = launchOf(*dataset, "launched_grid_stride");
  ASSERT_TRUE(given);
  EXPECT_DOUBLE_EQ(given->threads(), 2048);
  EXPECT_EQ(given->launches, 10u);
  EXPECT_EQ(given->origin, ptx::analysis::ValueOrigin::Assumed);
  auto defaulted = launchOf(*dataset, "launched_literal");
  ASSERT_TRUE(defaulted);
  EXPECT_DOUBLE_EQ(defaulted->launchedThreads(), 1024 * 256);
  EXPECT_EQ(defaulted->origin, ptx::analysis::ValueOrigin::Defaulted);
}

TEST(DatasetLaunchesTest, ABadLaunchFileLeavesTheBenchmarkOutAndSaysWhy) {
  struct Case {
    const char *file;
    const char *says;
  } cases[] = {
      {R"({"format": "ptxdvfs-launch/1", "kernels": {"launched_nowhere": {"block": 32}}})",
       "launch.json: no kernel named 'launched_nowhere' in the benchmark's PTX \\(its kernels: _Z16launched_literalPf, "},
      {R"({"format": "ptxdvfs-launch/1", "kernels": {"launched_template": {"block": 32}}})",
       "launch.json: kernel 'launched_template' could be any of _Z17launched_templateIfEvPT_, "
       "_Z17launched_templateIdEvPT_; name one by its PTX name"},
      {R"({"format": "ptxdvfs-launch/1", "kernels": {"launched_literal": {"arguments": {"count": 3}}}})",
       "launch.json: kernel 'launched_literal' has no parameter 'count' \\(its parameters: x\\)"},
      {"{\"format\": \"ptxdvfs-launch/1\",\n \"kernels\": {\"launched_literal\": {\"block\": [32,]}}}",
       "launch.json:2:48: not valid JSON: syntax error"},
      {R"({"format": "ptxdvfs-launch/1", "kernels": {"launched_literal": {"launches": -3}}})",
       "launch.json: launches in kernel 'launched_literal' takes a positive integer: -3"},
  };
  for (const Case &bad : cases) {
    auto dataset = LaunchDataset(Sources::BesideThePtx, bad.file).load(); // its only benchmark is left out
    EXPECT_FALSE(dataset.hasValue() && !dataset->benchmarks.empty()) << bad.file;
    EXPECT_TRUE(std::regex_search(messages(dataset), std::regex(std::string("benchmark 'launched': .*") + bad.says)))
        << messages(dataset);
  }
}

} // namespace
} // namespace ptxdvfs::tools
