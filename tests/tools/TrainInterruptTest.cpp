// TrainInterruptTest.cpp - `ptxdvfs train` killed midway (SIGKILL, no chance to clean up) and
// resumed from its checkpoints ends with the same weights as a run straight through, and the
// kill leaves the previous model folder as it was.
#include "ChildProcess.h"
#include "TestPaths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace ptxdvfs::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> trainCommand(const fs::path &out, const fs::path &checkpoints) {
  return {PTXDVFS_PROGRAM, "train", "--dataset", fixtureDir() + "/toy_dataset", "--out", out.string(),
          "--epochs", "120", "--patience", "0", "--seed", "3", "--ensemble", "1", "--threads", "1",
          "--checkpoint-dir", checkpoints.string()};
}

std::string memberHash(const fs::path &folder) {
  std::ifstream in(folder / "manifest.json");
  return nlohmann::json::parse(in)["files"]["member-0.pt"].get<std::string>();
}

} // namespace

TEST(TrainInterruptTest, KilledMidwayAndResumedEndsWithTheSameWeights) {
  fs::path root = fs::temp_directory_path() / ("ptxdvfs-interrupt-" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root);

  ASSERT_EQ(waitForExit(startProgram(trainCommand(root / "straight", root / "straight-checkpoints"))), 0);
  std::string straight = memberHash(root / "straight");

  // The folder the interrupted run will replace: an earlier, finished model.
  fs::copy(root / "straight", root / "resumed", fs::copy_options::recursive);
  std::ofstream(root / "resumed" / "README.md") << "an earlier model\n";
  pid_t run = startProgram(trainCommand(root / "resumed", root / "checkpoints"));
  fs::path checkpoint = root / "checkpoints" / "member-0" / "checkpoint.pt";
  bool checkpointed = false;
  for (int wait = 0; wait < 6000 && !checkpointed; ++wait) {
    checkpointed = fs::exists(checkpoint);
    if (!checkpointed)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(checkpointed) << "no checkpoint within 30 s";
  std::this_thread::sleep_for(std::chrono::milliseconds(50)); // a few epochs in, mid-write perhaps
  ASSERT_EQ(kill(run, SIGKILL), 0);
  // 120 epochs, each writing a 2 MB checkpoint, outlast the 50 ms by far:
  // a run that ended on its own would test nothing, so it fails the test.
  ASSERT_EQ(waitForExit(run), 128 + SIGKILL) << "training ended before it could be killed";

  // The earlier model is untouched: same weights, its own README.
  EXPECT_EQ(memberHash(root / "resumed"), straight);
  std::ifstream readme(root / "resumed" / "README.md");
  std::string first;
  std::getline(readme, first);
  EXPECT_EQ(first, "an earlier model");

  std::vector<std::string> resume = trainCommand(root / "resumed", root / "checkpoints");
  resume.push_back("--resume");
  ASSERT_EQ(waitForExit(startProgram(resume)), 0);
  EXPECT_EQ(memberHash(root / "resumed"), straight);
  fs::remove_all(root);
}
