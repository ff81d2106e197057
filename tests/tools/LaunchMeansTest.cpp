// LaunchMeansTest.cpp - a kernel launched with different grids or blocks
// takes their mean, weighted by how often each launch runs, so that its
// threads add up as its launches' do.
#include "CudaLaunches.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

TEST(LaunchMeansTest, SizesThatDifferAreWeightedByTheirRuns) {
  // Once over the whole array, then 3 times per stream: (64 + 3 x 16) / 4 blocks.
  const ptx::analysis::SourceLaunch streams =
      launchOfK(inMain("k<<<64, 256>>>(x);\nfor (int s = 0; s < 3; ++s)\n  k<<<16, 256>>>(x);"));
  EXPECT_EQ(streams.launches, 4u);
  EXPECT_EQ(shown(streams.grid), "28,1,1");
  EXPECT_TRUE(streams.gridIsMean);
  EXPECT_EQ(streams.gridHow,
            "the mean of its launches, by how often each runs: 64 at t.cu:3 (1 time), 16 at t.cu:5 (3 times)");
  EXPECT_EQ(shown(streams.block), "256,1,1"); // they agree on it
  EXPECT_FALSE(streams.blockIsMean);
  // Each dimension on its own, rounded: a reduction's first pass and its single-block second.
  EXPECT_EQ(shown(launchOfK(inMain("k<<<dim3(1000, 2), 128>>>(x);\nk<<<1, 128>>>(x);")).grid), "501,2,1");
}

TEST(LaunchMeansTest, AHelperCalledWithDifferentSizesLaunchesOncePerCall) {
  const std::string run = "void run(float *x, int n) { k<<<n / 256, 256>>>(x); }\n";
  const ptx::analysis::SourceLaunch calls =
      launchOfK(run + inMain("run(x, 4096);\nfor (int i = 0; i < 3; ++i)\n  run(x, 8192);"));
  EXPECT_EQ(calls.launches, 4u);
  EXPECT_EQ(shown(calls.grid), "28,1,1"); // (16 + 3 x 32) / 4
  EXPECT_EQ(calls.gridHow, "the mean of its launches, by how often each runs: 16 at t.cu:1 (`run`'s call at t.cu:4) "
                           "(1 time), 32 at t.cu:1 (`run`'s call at t.cu:6) (3 times)");
  EXPECT_EQ(calls.gridOpen, "");
  EXPECT_NE(calls.launchesWhy.find("3 at t.cu:1 (through `run`'s call at t.cu:6)"), std::string::npos)
      << calls.launchesWhy;
  // Through a second helper whose own calls differ: 8 and 16 blocks.
  EXPECT_EQ(shown(launchOfK(run + "void twice(float *x, int m) { run(x, 2 * m); }\n" +
                            inMain("twice(x, 1024);\ntwice(x, 2048);"))
                      .grid),
            "12,1,1");
  // One call the source does not fix leaves it open, as before.
  EXPECT_EQ(shown(launchOfK(run + inMain("run(x, 4096);\nrun(x, atoi(argv[1]));")).grid), "none");
}

TEST(LaunchMeansTest, AMeanThatIsNoBlockOrAnOpenLaunchLeavesTheSizeOpen) {
  // 1024 x 1 and 32 x 32 average to 528 x 17 (rounded up from 16.5): more threads than a block holds.
  const ptx::analysis::SourceLaunch wide =
      launchOfK(inMain("k<<<1, dim3(1024, 1)>>>(x);\nk<<<1, dim3(32, 32)>>>(x);"));
  EXPECT_EQ(shown(wide.block), "none");
  EXPECT_EQ(wide.blockOpen, "its launches differ (1024 at t.cu:3 (1 time), 32,32 at t.cu:4 (1 time)), and "
                            "their mean is no block");
  // One launch the source does not fix leaves the mean open too.
  const ptx::analysis::SourceLaunch open = launchOfK(inMain("k<<<64, 256>>>(x);\nk<<<atoi(argv[1]), 256>>>(x);"));
  EXPECT_EQ(shown(open.grid), "none");
  EXPECT_FALSE(open.gridIsMean);
  // Past 1024 launches of different sizes (each folded, at a cost that may grow with the launches before it).
  std::string many;
  for (int i = 1; i <= 1100; ++i)
    many += "k<<<" + std::to_string(i) + ", 256>>>(x);\n";
  const ptx::analysis::SourceLaunch tooMany = launchOfK(inMain(many));
  EXPECT_EQ(shown(tooMany.grid), "none");
  EXPECT_EQ(tooMany.gridOpen, "its launches differ, at more than 1024 places");
  EXPECT_EQ(tooMany.launches, 1100u);
  // Arguments that differ stay open: a mean of flags or offsets means nothing.
  const ptx::analysis::SourceLaunch flags = launchOfK(inMain("k<<<1, 32>>>(0);\nk<<<1, 32>>>(1);"));
  ASSERT_EQ(flags.arguments.size(), 1u);
  EXPECT_FALSE(flags.arguments[0]);
  EXPECT_EQ(flags.argumentsOpen[0], "its launches differ: 0 at t.cu:3, 1 at t.cu:4");
}

} // namespace
} // namespace ptxdvfs::tools
