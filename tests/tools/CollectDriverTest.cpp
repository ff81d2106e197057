// CollectDriverTest.cpp - `ptxdvfs collect` as a whole program, through its real CUDA and NVML code
// (NvidiaDevice: dlopen, dlsym, each call's arguments), on the stand-in driver of fake-driver/.
// What a real GPU adds (JIT of the PTX, real timings) is cli.collect_on_gpu_at_current_clocks.
#include "ChildProcess.h"
#include "TestPaths.h"
#include "ptx_parser/ParseHelpers.h"

#include "collect/ProgressLog.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

using namespace ptxdvfs;
using namespace ptxdvfs::tools::collect;

namespace {

std::vector<std::string> linesOf(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

class CollectDriverTest : public ::testing::Test {
protected:
  void SetUp() override { dir = test::freshScratchDir("ptxdvfs_driver_"); }
  void TearDown() override { std::filesystem::remove_all(dir); }

  using Environment = std::vector<std::pair<std::string, std::string>>;

  /// Starts collect with the fake driver in `driverDir`, `arguments` added
  /// and `environment` set; its output goes to output.txt, the driver's
  /// calls to calls.log.
  pid_t startCollect(const std::vector<std::string> &arguments, Environment environment = {},
                     const std::string &driverDir = PTXDVFS_FAKE_DRIVER_DIR "/both") {
    std::vector<std::string> command{PTXDVFS_PROGRAM, "collect", "--suite", suite, "-o", dir + "/data",
                                     "--seconds-per-run", "0.01", "--runs", "3"};
    command.insert(command.end(), arguments.begin(), arguments.end());
    environment.emplace_back("LD_LIBRARY_PATH", driverDir);
    environment.emplace_back("FAKE_DRIVER_LOG", dir + "/calls.log");
    return test::startProgram(command, environment, dir + "/output.txt");
  }

  /// Runs collect to its end: its exit status, with `output` and `calls` read.
  int collect(const std::vector<std::string> &arguments, Environment environment = {},
              const std::string &driverDir = PTXDVFS_FAKE_DRIVER_DIR "/both") {
    int status = test::waitForExit(startCollect(arguments, std::move(environment), driverDir));
    readResults();
    return status;
  }

  void readResults() {
    output = test::readFile(dir + "/output.txt");
    calls = linesOf(test::readFile(dir + "/calls.log"));
  }

  std::vector<MeasuredPoint> measured() {
    auto log = ProgressLog::read(dir + "/data/collect_progress.csv");
    EXPECT_TRUE(log.hasValue()) << test::describe(log.diagnostics());
    return log ? log->rows() : std::vector<MeasuredPoint>{};
  }

  /// The calls that lock or reset clocks, in order.
  std::vector<std::string> clockCalls() const {
    std::vector<std::string> clock;
    for (const std::string &call : calls)
      if (call.rfind("lock ", 0) == 0 || call.rfind("reset ", 0) == 0 || call.rfind("application ", 0) == 0)
        clock.push_back(call);
    return clock;
  }

  std::size_t countCalls(const std::string &prefix) const {
    std::size_t count = 0;
    for (const std::string &call : calls)
      count += call.rfind(prefix, 0) == 0;
    return count;
  }

  const MeasuredPoint *find(const std::vector<MeasuredPoint> &rows, const std::string &benchmark,
                            unsigned memoryMHz, unsigned coreMHz) {
    for (const MeasuredPoint &row : rows)
      if (row.benchmark == benchmark && row.point.memoryMHz == memoryMHz && row.point.coreMHz == coreMHz)
        return &row;
    ADD_FAILURE() << benchmark << " not measured at " << memoryMHz << "/" << coreMHz;
    return nullptr;
  }

  std::string dir, output, suite = test::fixtureDir() + "/collect/suite.ptx"; // for sm_80
  std::vector<std::string> calls;
};

} // namespace

TEST_F(CollectDriverTest, LocksEveryPointMeasuresThereAndResetsAtTheEnd) {
  ASSERT_EQ(collect({"--max-core-clocks", "2", "--gpu", "fake"}), 0) << output;
  // 2 core clocks at each of 2 memory clocks, plus the default 3000/1200.
  std::vector<MeasuredPoint> rows = measured();
  EXPECT_EQ(rows.size(), 5u * 3u) << output;
  // The fake's compute kernel runs 5x longer at 300 than at 1500 MHz core,
  // its memory kernel 3x longer at 1000 than at 3000 MHz memory: each row
  // was measured at the clocks it names, with the same work (repeats).
  const MeasuredPoint *fast = find(rows, "mb_compute", 3000, 1500), *slow = find(rows, "mb_compute", 3000, 300);
  const MeasuredPoint *wide = find(rows, "mb_memory", 3000, 1500), *narrow = find(rows, "mb_memory", 1000, 900);
  ASSERT_TRUE(fast && slow && wide && narrow);
  EXPECT_EQ(fast->repeats, slow->repeats);
  EXPECT_NEAR(slow->milliseconds / fast->milliseconds, 5.0, 0.01);
  EXPECT_NEAR(narrow->milliseconds / wide->milliseconds, 3.0, 0.01);
  // Power from the energy counter: 50 W + core/10.
  EXPECT_NEAR(fast->watts, 200.0, 1.0);
  EXPECT_NEAR(slow->watts, 80.0, 1.0);
  EXPECT_GE(fast->milliseconds, 10.0) << "calibrated to --seconds-per-run";

  // Launches: a grid of 8 blocks per multiprocessor (the fake has 4), 256 threads.
    for (const std::string &call : calls) {
    if (call.rfind("launch ", 0) == 0) {
      EXPECT_NE(call.find(" grid=32 block=256 "), std::string::npos) << call;
    }
  }
  EXPECT_EQ(countCalls("lock memory "), 5u);
  EXPECT_EQ(countCalls("lock core "), 5u);
  std::vector<std::string> clock = clockCalls();
  ASSERT_GE(clock.size(), 2u);
  EXPECT_EQ(clock[clock.size() - 2], "reset core");
  EXPECT_EQ(clock.back(), "reset memory");
  // What it created, it gave back.
  EXPECT_EQ(countCalls("unload module"), 1u);
  EXPECT_EQ(countCalls("destroy event"), 2u);
  EXPECT_TRUE(std::filesystem::exists(dir + "/data/aggregated_dataset_fake.csv"));
  // How each benchmark ran is recorded beside its PTX, so that training counts its loops so.
  const std::string launch = test::readFile(dir + "/data/mb_compute/launch.json");
  for (const std::string &part : {std::string(R"("mb_compute":\s*\{)"), std::string(R"("grid":\s*\[\s*32\s*\])"),
                                  std::string(R"("block":\s*\[\s*256\s*\])"), std::string(R"("bytes":\s*268435456\b)"),
                                  R"("repeats":\s*)" + std::to_string(fast->repeats) + "\\b"})
    EXPECT_TRUE(std::regex_search(launch, std::regex(part))) << part << " not in\n" << launch;
}

TEST_F(CollectDriverTest, CurrentClocksNeverTouchesTheClocks) {
  ASSERT_EQ(collect({"--current-clocks"}), 0) << output;
  std::vector<MeasuredPoint> rows = measured();
  ASSERT_EQ(rows.size(), 3u);
  for (const MeasuredPoint &row : rows) {
    EXPECT_EQ(row.point.memoryMHz, 3000u);
    EXPECT_EQ(row.point.coreMHz, 1500u);
  }
  EXPECT_GT(countCalls("launch "), 0u);
  EXPECT_EQ(clockCalls(), std::vector<std::string>{}) << "clock calls under --current-clocks";
  // The GPU's name, made a file name, names the dataset.
  EXPECT_TRUE(std::filesystem::exists(dir + "/data/aggregated_dataset_fakegpu4sm.csv")) << output;
}

TEST_F(CollectDriverTest, ApplicationClocksWhereLockedClocksAreNotSupported) {
  ASSERT_EQ(collect({"--max-core-clocks", "2"}, {{"FAKE_DRIVER_NO_LOCKED_CLOCKS", "1"}}), 0) << output;
  EXPECT_EQ(measured().size(), 15u);
  EXPECT_EQ(countCalls("lock "), 0u);
  EXPECT_EQ(countCalls("application clocks "), 5u);
  EXPECT_EQ(countCalls("reset core"), 0u);
  EXPECT_EQ(clockCalls().back(), "reset application clocks");
}

TEST_F(CollectDriverTest, PowerReadingsWhereThereIsNoEnergyCounter) {
  ASSERT_EQ(collect({"--current-clocks"}, {{"FAKE_DRIVER_NO_ENERGY", "1"}}), 0) << output;
  std::vector<MeasuredPoint> rows = measured();
  ASSERT_EQ(rows.size(), 3u);
  for (const MeasuredPoint &row : rows)
    EXPECT_NEAR(row.watts, 200.0, 1.0) << row.benchmark; // the fake reads 50 W + core/10
}

TEST_F(CollectDriverTest, ADriverErrorNamesTheCallAndResetsTheClocks) {
  EXPECT_EQ(collect({"--max-core-clocks", "2"}, {{"FAKE_DRIVER_FAIL", "cuLaunchKernel"}}), 1);
  EXPECT_NE(output.find("cuLaunchKernel: fake CUDA error 719"), std::string::npos) << output;
  EXPECT_NE(output.find("clocks were reset; run the same command to resume"), std::string::npos) << output;
  EXPECT_EQ(clockCalls(), (std::vector<std::string>{"lock memory 3000", "lock core 1500", "reset core",
                                                     "reset memory"}));
  EXPECT_TRUE(measured().empty());
}

TEST_F(CollectDriverTest, AnUnusableDeviceIsReportedBeforeAnythingIsWritten) {
  EXPECT_EQ(collect({"--current-clocks"}, {{"FAKE_DRIVER_FAIL", "cuInit"}}), 1);
  EXPECT_NE(output.find("cuInit: fake CUDA error 100"), std::string::npos) << output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/data")) << "nothing written when the device cannot open";
}

TEST_F(CollectDriverTest, AMissingNvmlIsOneClearError) {
  EXPECT_EQ(collect({"--current-clocks"}, {}, PTXDVFS_FAKE_DRIVER_DIR "/cuda-only"), 1);
  EXPECT_NE(output.find("cannot open libnvidia-ml.so.1 (NVML, part of the NVIDIA driver)"), std::string::npos)
      << output;
  EXPECT_TRUE(calls.empty());
}

TEST_F(CollectDriverTest, CtrlCStopsAfterTheCurrentRunResetsTheClocksAndResumes) {
  // Each launch takes 20 ms of real time, so the collection is still running when interrupted.
  pid_t run = startCollect({"--max-core-clocks", "2"}, {{"FAKE_DRIVER_LAUNCH_MS", "20"}});
  bool launched = false;
  for (int wait = 0; wait < 6000 && !launched; ++wait) {
    readResults();
    launched = countCalls("launch ") > 0; // the signal handlers are set before the first launch
    if (!launched)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(launched) << "no launch within 30 s";
  ASSERT_EQ(kill(run, SIGINT), 0);
  ASSERT_EQ(test::waitForExit(run), 1) << "a Ctrl-C that kills collect leaves the clocks locked";
  readResults();
  EXPECT_NE(output.find("stopped; clocks were reset; run the same command to resume"), std::string::npos) << output;
  EXPECT_EQ(clockCalls().back(), "reset memory");
  std::size_t before = measured().size();
  EXPECT_LT(before, 15u) << "collect ended before the Ctrl-C: this test tested nothing";

  ASSERT_EQ(collect({"--max-core-clocks", "2"}), 0) << output;
  EXPECT_NE(output.find(std::to_string(before) + " already done"), std::string::npos) << output;
  EXPECT_EQ(measured().size(), 15u);
}

TEST_F(CollectDriverTest, ASuiteForANewerGpuIsRefusedBeforeAnythingRuns) {
  std::string text = test::readFile(suite);
  std::size_t at = text.find(".target sm_80");
  ASSERT_NE(at, std::string::npos);
  suite = dir + "/suite_sm90.ptx";
  std::ofstream(suite) << text.replace(at, 13, ".target sm_90");
  EXPECT_EQ(collect({"--current-clocks"}), 1);
  EXPECT_NE(output.find("suite_sm90.ptx: the suite is compiled for sm_90 and this GPU is sm_80"), std::string::npos)
      << output;
  EXPECT_EQ(countCalls("launch "), 0u);
  EXPECT_FALSE(std::filesystem::exists(dir + "/data"));
}
