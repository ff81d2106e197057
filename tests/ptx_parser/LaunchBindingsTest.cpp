// LaunchBindingsTest.cpp - a kernel whose launches differ in an argument
// its loop rests on (`k<<<1, 32>>>(x, 4); k<<<1, 32>>>(x, 16);`): the
// loop is counted launch by launch, where the mean sizes and the open
// argument leave it to the default.
#include "LoopFixtures.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

/// The loop runs `n` passes (`for (i = 0; i < n; ++i)`).
ptx::Module countedByN() { return storePerPassKernel("", "  ld.param.u32 %r1, [n];\n  mov.u32 %r2, 0;", "lt.u32"); }

/// Launches of `store_per_pass` as the host code reads them: `n` differs, so it is open.
LaunchAssumptions launchedWith(const std::vector<SourceLaunch::Binding> &bindings) {
  LaunchAssumptions assumptions;
  SourceLaunch &launch = assumptions.sourceLaunches["store_per_pass"];
  launch.grid = Dim3{1, 1, 1};
  launch.block = Dim3{32, 1, 1};
  launch.arguments = {std::nullopt, std::nullopt};
  launch.argumentsOpen = {"", "its launches differ: 4 at main.cu:5, 16 at main.cu:6"};
  launch.bindings = bindings;
  return assumptions;
}

SourceLaunch::Binding launchOf(std::uint32_t grid, std::optional<AssumedValue> n, std::uint64_t times,
                               const std::string &at) {
  return SourceLaunch::Binding{Dim3{grid, 1, 1}, Dim3{32, 1, 1}, {std::nullopt, n}, times, at};
}

TEST(LaunchBindingsTest, ALoopIsCountedLaunchByLaunchWhereTheLaunchesDiffer) {
  const ptx::Module module = countedByN();
  // One launch of 4 passes, three of 16, each of 32 threads: (4 + 3 x 16) / 4 = 13 passes per thread.
  ExecutedKernel counted = expandNamed(module, "store_per_pass",
                                       launchedWith({launchOf(1, 4, 1, "main.cu:5"), launchOf(1, 16, 3, "main.cu:6")}));
  ASSERT_EQ(counted.loops.size(), 1u);
  EXPECT_EQ(counted.loops[0].maxTripCount, 13u);
  EXPECT_EQ(counted.loops[0].origin, ValueOrigin::Assumed);
  EXPECT_FALSE(counted.loops[0].usedDefault);
  const std::vector<std::string> why{"the mean of its counts over the kernel's launches, by the threads each runs: "
                                     "4 at main.cu:5, 16 at main.cu:6"};
  EXPECT_EQ(counted.loops[0].why, why);
  // Weighted by threads: a launch of 7 blocks of 32 counts 7 times a launch of one.
  EXPECT_EQ(expandNamed(module, "store_per_pass",
                        launchedWith({launchOf(7, 4, 1, "main.cu:5"), launchOf(1, 16, 1, "main.cu:6")}))
                .loops[0]
                .maxTripCount,
            6u); // (7 x 4 + 16) / 8 = 5.5, rounded
  // The same launch written twice is counted once, with its launches added.
  ExecutedKernel merged = expandNamed(
      module, "store_per_pass",
      launchedWith({launchOf(1, 4, 1, "main.cu:5"), launchOf(1, 16, 1, "main.cu:6"), launchOf(1, 16, 2, "main.cu:7")}));
  EXPECT_EQ(merged.loops[0].maxTripCount, 13u);
  EXPECT_EQ(merged.loops[0].why, why);
}

TEST(LaunchBindingsTest, ALaunchThatLeavesTheCountOpenLeavesTheDefault) {
  const ptx::Module module = countedByN();
  ExecutedKernel open =
      expandNamed(module, "store_per_pass",
                  launchedWith({launchOf(1, 4, 1, "main.cu:5"), launchOf(1, std::nullopt, 1, "main.cu:6")}));
  ASSERT_EQ(open.loops.size(), 1u);
  EXPECT_EQ(open.loops[0].maxTripCount, 16u);
  EXPECT_TRUE(open.loops[0].usedDefault);
  EXPECT_EQ(open.loops[0].why, (std::vector<std::string>{"parameter n (no --assume n=VALUE; its launches differ: 4 at "
                                                         "main.cu:5, 16 at main.cu:6)"}));
  // Without the launches one by one, as before.
  EXPECT_EQ(expandNamed(module, "store_per_pass", launchedWith({})).loops[0].maxTripCount, 16u);
  // --assume decides over the launches.
  LaunchAssumptions assumed = launchedWith({launchOf(1, 4, 1, "main.cu:5"), launchOf(1, 16, 1, "main.cu:6")});
  assumed.parameters.insert_or_assign("n", AssumedValue(100));
  EXPECT_EQ(expandNamed(module, "store_per_pass", assumed).loops[0].maxTripCount, 100u);
}

} // namespace
} // namespace ptxdvfs::test
