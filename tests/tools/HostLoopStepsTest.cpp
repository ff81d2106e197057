// HostLoopStepsTest.cpp - host loops counted however they step: scaled
// (`size *= 2`, `s >>= 1`), from the counter's value before the loop
// (`for (; log2N > 11; log2N -= 2)`), or beside other variables' steps.
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

TEST(HostLoopStepsTest, AScalingHostLoopCountsItsValuesAndStandsForTheirMean) {
  // A size sweep: 1, 2, 4, ..., 64 are 7 values whose mean, 127 / 7, stands for them all.
  EXPECT_EQ(launchesIn("for (int t = 1; t < 100; t *= 2) k<<<1, 32>>>(x);"), 7u);
  const ptx::analysis::SourceLaunch sweep = launchOfK(inMain("for (int i = 1; i <= 64; i *= 2) k<<<i, 32>>>(x);"));
  EXPECT_EQ(shown(sweep.grid), "18,1,1");
  EXPECT_EQ(sweep.launches, 7u);
  EXPECT_NE(sweep.gridHow.find("`i` = 18, the mean of the 7 values of `for (int i = 1; i <= 64; i *= 2)`"),
            std::string::npos)
      << sweep.gridHow;
  // Shifts scale by powers of 2; a halving loop counts down to its bound.
  EXPECT_EQ(launchesIn("for (int size = 1024; size <= (1 << 20); size <<= 1) k<<<1, 32>>>(x);"), 11u);
  EXPECT_EQ(launchesIn("for (int s = 4096; s > 0; s >>= 1) k<<<1, 32>>>(x);"), 13u);
  EXPECT_EQ(launchesIn("for (int s = 4096; s >= 16; s /= 4) k<<<1, 32>>>(x);"), 5u);
}

TEST(HostLoopStepsTest, ALoopWithoutAStartCountsFromTheCountersValueBeforeIt) {
  // fastWalshTransform's shape: the counter is the helper's parameter, stepped beside two others.
  const std::string fwt = "void run(int M, int log2N) {\n  int N = 1 << log2N;\n"
                          "  for (; log2N > 11; log2N -= 2, N >>= 2, M <<= 2)\n    k<<<M, 256>>>(0);\n}\n"
                          "int main() { run(1, 23); }\n";
  const ptx::analysis::SourceLaunch launch = launchOfK(fwt);
  EXPECT_EQ(launch.launches, 6u); // 23, 21, ..., 13
  EXPECT_EQ(launch.launchesWhy, "launched 6 times: 6 at t.cu:4, in `for (; log2N > 11; log2N -= 2, N >>= ...` at "
                                "t.cu:3 (6 times: `log2N` = 23, as `run`'s call at t.cu:6 passes it)");
  EXPECT_EQ(launchesIn("int n = 10;\nfor (; n > 0; n--) k<<<1, 32>>>(x);"), 10u);
  // A counter stepped twice, or one the source does not fix before the loop, is not counted.
  EXPECT_EQ(launchesIn("int n = 10;\nfor (; n > 0; n--, n--) k<<<1, 32>>>(x);"), 16u);
  EXPECT_EQ(launchesIn("int n = rand();\nfor (; n > 0; n--) k<<<1, 32>>>(x);"), 16u);
}

} // namespace
} // namespace ptxdvfs::tools
