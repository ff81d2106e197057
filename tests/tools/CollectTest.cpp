// CollectTest.cpp - `ptxdvfs collect` without a GPU: planning, the measuring loop on a simulated
// device, resuming, clock restoration, and a dataset that the importer `train` uses accepts.
#include "TestPaths.h"
#include "ptx_parser/ParseHelpers.h"

#include "collect/Collector.h"
#include "collect/DatasetWriter.h"

#include "ptxdvfs/embeddings/Dataset.h"
#include "ptxdvfs/ptx/Parser.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace ptxdvfs;
using namespace ptxdvfs::tools::collect;
using embeddings::VfPoint;

namespace {

/// A GPU whose kernels take longer at lower clocks and draw more power at
/// higher ones; it can be told to fail after a number of runs.
class SimulatedGpu final : public GpuDevice {
public:
  std::string name() override { return "NVIDIA Simulated 100"; }
  unsigned computeCapability() override { return 80; }
  embeddings::GpuClocks clockTable() override {
    embeddings::GpuClocks clocks;
    clocks.memoryMHz = {800, 1600};
    clocks.coreMHz[800] = {600, 900, 1200};
    clocks.coreMHz[1600] = {600, 900, 1200};
    clocks.defaultPoint = {1600, 900};
    clocks.fmax = {1600, 1200};
    return clocks;
  }
  VfPoint currentClocks() override { return locked ? *locked : VfPoint{1600, 900}; }
  void lockClocks(VfPoint point) override {
    ++locks;
    locked = point;
  }
  void resetClocks() noexcept override {
    ++resets;
    locked.reset();
  }
  void loadModule(const std::string &) override {}
  LaunchShape launchShape() override { return {64, 256}; }
  KernelRun run(const std::string &kernel, unsigned long long, int repeats) override {
    if (failAfterRuns >= 0 && runs >= failAfterRuns)
      throw DeviceError("cuLaunchKernel: simulated failure");
    ++runs;
    VfPoint at = currentClocks();
    double work = kernel.find("memory") != std::string::npos ? 2000.0 / at.memoryMHz : 1000.0 / at.coreMHz;
    double milliseconds = repeats * work;
    double watts = 40.0 + at.coreMHz / 20.0 + at.memoryMHz / 100.0;
    return {milliseconds, watts * milliseconds / 1000.0};
  }

  std::optional<VfPoint> locked;
  int locks = 0, resets = 0, runs = 0, failAfterRuns = -1;
};


class CollectTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = test::freshScratchDir("ptxdvfs_collect_");
    std::filesystem::create_directories(dir + "/data");
    // Three kernels with the suite's signature and a device function.
    suite = test::fixtureDir() + "/collect/suite.ptx";
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  CollectPlan planFor(GpuDevice &device) {
    CollectPlan plan;
    auto read = readSuite(suite);
    EXPECT_TRUE(read.hasValue()) << test::describe(read.diagnostics());
    plan.benchmarks = read->benchmarks;
    plan.gpu = fileNameOfGpu(device.name());
    plan.clocks = device.clockTable();
    plan.clocks.gpu = plan.gpu;
    plan.points = plan.clocks.grid();
    std::reverse(plan.points.begin(), plan.points.end());
    plan.settings.secondsPerRun = 0.01;
    plan.settings.runs = 3;
    return plan;
  }

  ProgressLog readLog() {
    auto log = ProgressLog::read(dir + "/data/collect_progress.csv");
    EXPECT_TRUE(log.hasValue()) << test::describe(log.diagnostics());
    return std::move(*log);
  }

  std::string dir, suite;
  std::atomic<bool> stop{false};
};

} // namespace

TEST_F(CollectTest, EachBenchmarkKeepsItsKernelAndTheSharedParts) {
  auto read = readSuite(suite);
  ASSERT_TRUE(read.hasValue()) << test::describe(read.diagnostics());
  EXPECT_EQ(read->target, "sm_80");
  ASSERT_EQ(read->benchmarks.size(), 3u);
  for (const PlannedBenchmark &benchmark : read->benchmarks) {
    ptx::Module module = test::parseOk(benchmark.ptx, benchmark.name + ".ptx");
    ASSERT_EQ(module.kernels().size(), 1u) << benchmark.name;
    EXPECT_EQ(module.kernels()[0]->name, benchmark.name);
    EXPECT_EQ(module.functions.size(), 2u) << "the device function stays";
  }
}

TEST_F(CollectTest, ThinsCoreClocksKeepingEndsAndDefault) {
  SimulatedGpu gpu;
  embeddings::GpuClocks all = gpu.clockTable();
  all.coreMHz[1600] = {300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200};
  all.defaultPoint = {1600, 700};
  embeddings::GpuClocks thinned = thinClocks(all, 4);
  const auto &cores = thinned.coreMHz.at(1600);
  EXPECT_EQ(cores.size(), 4u);
  EXPECT_EQ(cores.front(), 300u);
  EXPECT_EQ(cores.back(), 1200u);
  EXPECT_NE(std::find(cores.begin(), cores.end(), 700u), cores.end());
  EXPECT_EQ(thinned.coreMHz.at(800), all.coreMHz.at(800)); // already few enough
  EXPECT_EQ(fileNameOfGpu("NVIDIA H100 80GB HBM3"), "h10080gbhbm3");
}

TEST_F(CollectTest, ASuiteRunsOnItsTargetAndNewerGpusOnly) {
  EXPECT_EQ(targetMismatch("sm_80", 80), "");
  EXPECT_EQ(targetMismatch("sm_75", 90), "");
  EXPECT_EQ(targetMismatch("sm_90a", 90), "");
  EXPECT_EQ(targetMismatch("", 75), "") << "no target named: the driver judges";
  EXPECT_EQ(targetMismatch("sm_90", 80),
            "the suite is compiled for sm_90 and this GPU is sm_80: PTX runs only on its target architecture or "
            "newer; use build/microbenchmarks/suite_sm80.ptx (build it with -DPTXDVFS_MICROBENCHMARK_ARCHS=80)");
  EXPECT_NE(targetMismatch("sm_90a", 100), "") << "an arch-specific target runs on its own GPU only";
  EXPECT_NE(targetMismatch("sm_120", 90), "");
}

TEST_F(CollectTest, WritesADatasetThatTrainingReads) {
  SimulatedGpu gpu;
  CollectPlan plan = planFor(gpu);
  ProgressLog log = readLog();
  CollectOutcome outcome = runCollection(gpu, plan, log, true, stop);
  ASSERT_TRUE(outcome.error.empty()) << outcome.error;
  EXPECT_EQ(outcome.measured, 18u);
  EXPECT_EQ(gpu.resets, 1);
  EXPECT_FALSE(gpu.locked.has_value()) << "clocks left locked";
  std::size_t complete = 0;
  ASSERT_EQ(writeDataset(dir + "/data", plan, log, complete), "");
  EXPECT_EQ(complete, 3u);

  auto vocabulary = embeddings::loadVocabulary(test::vocabularyDir());
  ASSERT_TRUE(vocabulary.hasValue());
  auto scheme = embeddings::makeScheme(embeddings::kGpuPtxModelV1, std::move(*vocabulary));
  ASSERT_TRUE(scheme.hasValue());
  embeddings::ImportOptions options;
  options.ptxScheme = scheme->get();
  options.strict = true;
  auto dataset = embeddings::importDataset(dir + "/data", options);
  ASSERT_TRUE(dataset.hasValue()) << test::describe(dataset.diagnostics());
  EXPECT_EQ(dataset->clocks.gpu, "simulated100");
  EXPECT_EQ(dataset->clocks.defaultPoint, (VfPoint{1600, 900}));
  ASSERT_EQ(dataset->benchmarks.size(), 3u);
  for (const auto &benchmark : dataset->benchmarks) {
    ASSERT_EQ(benchmark.measurements.size(), 6u);
    ASSERT_EQ(benchmark.kernels.size(), 1u);
    EXPECT_FALSE(benchmark.kernels[0].instructions.empty());
  }
  // The simulated compute kernel runs 2x as long at 600 as at 1200 MHz.
  const auto &compute = dataset->benchmarks[0];
  ASSERT_EQ(compute.name, "mb_compute");
  EXPECT_NEAR(compute.measurements[0].time / compute.measurements[2].time, 2.0, 1e-6);

  // Read without a PTX scheme (a forgotten --ptx): each benchmark says how to read it.
  auto withoutPtx = embeddings::importDataset(dir + "/data", embeddings::ImportOptions{});
  ASSERT_TRUE(withoutPtx.hasValue());
  EXPECT_TRUE(withoutPtx->benchmarks.empty());
  ASSERT_EQ(withoutPtx.diagnostics().size(), 3u);
  EXPECT_NE(withoutPtx.diagnostics()[0].message.find("(it holds PTX: read it with --ptx DIR)"), std::string::npos)
      << withoutPtx.diagnostics()[0].message;
}

TEST_F(CollectTest, ResumesAfterAFailureAndResetsTheClocks) {
  SimulatedGpu failing;
  failing.failAfterRuns = 20; // mid-way through the third pair
  CollectPlan plan = planFor(failing);
  {
    ProgressLog log = readLog();
    CollectOutcome outcome = runCollection(failing, plan, log, true, stop);
    EXPECT_NE(outcome.error.find("simulated failure"), std::string::npos);
    EXPECT_GT(outcome.measured, 0u);
    EXPECT_LT(outcome.measured, 18u);
    EXPECT_EQ(failing.resets, 1);
    EXPECT_FALSE(failing.locked.has_value()) << "clocks left locked after an error";
  }
  ProgressLog resumed = readLog();
  std::size_t before = resumed.rows().size();
  SimulatedGpu gpu;
  CollectOutcome outcome = runCollection(gpu, plan, resumed, true, stop);
  ASSERT_TRUE(outcome.error.empty()) << outcome.error;
  EXPECT_EQ(outcome.alreadyDone, before);
  EXPECT_EQ(outcome.measured, 18u - before);
  // Every point of a benchmark ran the same work.
  ProgressLog finished = readLog();
  for (const MeasuredPoint &row : finished.rows())
    EXPECT_EQ(row.repeats, resumed.repeatsOf(row.benchmark)) << row.benchmark;
  EXPECT_EQ(finished.rows().size(), 18u);
}

TEST_F(CollectTest, StopsWhenAskedAndResetsTheClocks) {
  SimulatedGpu gpu;
  CollectPlan plan = planFor(gpu);
  ProgressLog log = readLog();
  CollectOutcome outcome = runCollection(gpu, plan, log, true, stop,
                                         [&](const MeasuredPoint &, std::size_t) { stop = true; });
  EXPECT_TRUE(outcome.stopped);
  EXPECT_EQ(outcome.measured, 1u);
  EXPECT_EQ(gpu.resets, 1);
  EXPECT_FALSE(gpu.locked.has_value());
}

TEST_F(CollectTest, CurrentClocksNeverChangesThem) {
  SimulatedGpu gpu;
  CollectPlan plan = planFor(gpu);
  plan.clocks = currentClocksOnly(gpu.currentClocks(), plan.gpu);
  plan.points = plan.clocks.grid();
  ProgressLog log = readLog();
  CollectOutcome outcome = runCollection(gpu, plan, log, false, stop);
  ASSERT_TRUE(outcome.error.empty()) << outcome.error;
  EXPECT_EQ(outcome.measured, 3u);
  EXPECT_EQ(gpu.locks, 0);
  EXPECT_EQ(gpu.resets, 0);
}

TEST_F(CollectTest, ALastLineCutShortIsMeasuredAgain) {
  SimulatedGpu gpu;
  CollectPlan plan = planFor(gpu);
  {
    ProgressLog log = readLog();
    runCollection(gpu, plan, log, true, stop, [&](const MeasuredPoint &, std::size_t) { stop = true; });
  }
  std::string path = dir + "/data/collect_progress.csv";
  std::ofstream(path, std::ios::app) << "mb_memory,1600,12"; // the process died while writing
  auto log = ProgressLog::read(path);
  ASSERT_TRUE(log.hasValue()) << test::describe(log.diagnostics());
  ASSERT_EQ(log.diagnostics().size(), 1u);
  EXPECT_NE(log.diagnostics()[0].message.find("cut short"), std::string::npos);
  EXPECT_EQ(log->rows().size(), 1u);
  stop = false;
  CollectOutcome outcome = runCollection(gpu, plan, *log, true, stop);
  ASSERT_TRUE(outcome.error.empty()) << outcome.error;
  auto reread = ProgressLog::read(path);
  ASSERT_TRUE(reread.hasValue()) << test::describe(reread.diagnostics());
  EXPECT_TRUE(reread.diagnostics().empty());
  EXPECT_EQ(reread->rows().size(), 18u);
}

TEST_F(CollectTest, AMalformedRowIsAnErrorNamingItsLine) {
  std::filesystem::create_directories(dir + "/data");
  std::ofstream(dir + "/data/collect_progress.csv")
      << "benchmark,fmem_mhz,fcore_mhz,time_ms,power_w,energy_mj,time_spread,power_spread,repeats,runs\n"
      << "mb_compute,1600,1200,1.5,100,150,0.01,0.02,10,3\n"
      << "mb_compute,1600,900,-1,100,150,0.01,0.02,10,3\n";
  auto log = ProgressLog::read(dir + "/data/collect_progress.csv");
  ASSERT_FALSE(log.hasValue());
  EXPECT_EQ(log.diagnostics()[0].location.line, 3u);
}

TEST_F(CollectTest, ItsDatasetTrainsAModel) {
  SimulatedGpu gpu;
  CollectPlan plan = planFor(gpu);
  ProgressLog log = readLog();
  ASSERT_TRUE(runCollection(gpu, plan, log, true, stop).error.empty());
  std::size_t complete = 0;
  // Each benchmark's launch.json, as collect writes it: train reads it, and refuses a wrong one.
  auto launchFile = [](const PlannedBenchmark &benchmark, int repeats) {
    return R"({"format": "ptxdvfs-launch/1", "kernels": {")" + benchmark.name +
           R"(": {"grid": 64, "block": 256, "arguments": {")" + benchmark.parameters.at(3) +
           "\": " + std::to_string(repeats) + "}}}}";
  };
  ASSERT_EQ(writeDataset(dir + "/data", plan, log, complete, launchFile), "");
  EXPECT_NE(test::readFile(dir + "/data/mb_memory/launch.json").find(R"({"repeats": )"), std::string::npos);
  // What docs/retraining.md tells a lab to run, on one tiny epoch.
  std::string command = std::string(PTXDVFS_PROGRAM) + " train -q --dataset " + dir + "/data --ptx " + dir +
                         "/data --config " + PTXDVFS_ONE_EPOCH_CONFIG + " --out " + dir + "/model > " + dir +
                         "/train.log 2>&1";
  int status = std::system(command.c_str());
  EXPECT_EQ(status, 0) << test::readFile(dir + "/train.log");
  EXPECT_TRUE(std::filesystem::exists(dir + "/model/manifest.json")) << test::readFile(dir + "/train.log");
}
