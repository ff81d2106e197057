// HostLoopStepsTest.cpp - host loops counted however they step: scaled
// (`size *= 2`, `s >>= 1`), from the counter's value before the loop
// (`for (; log2N > 11; log2N -= 2)`), or beside other variables' steps,
// or a `while` that steps its counter in its body; and a size a loop
// steps, alone or beside others, followed to the loop's end.
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

TEST(HostLoopStepsTest, ALoopThatStepsASizeIsFollowedToItsEnd) {
  // The next power of two, braced or not, and a halving down to a limit.
  EXPECT_EQ(gridAfter("int n = 1;\nwhile (n < 300000) n *= 2;"), "2048,1,1");
  EXPECT_EQ(gridAfter("const int limit = 1000;\nint threads = 32;\nwhile (threads < limit) {\n  threads <<= 1;\n}\n"
                      "int n = threads * 256;"),
            "1024,1,1");
  EXPECT_EQ(gridAfter("int n = 1 << 26;\nwhile (n / 256 > 65535)\n  n = n / 2;"), "32768,1,1");
  const ptx::analysis::SourceLaunch stepped = launchOfK(inMain("int n = 256;\nwhile (n < 4096) n += n;\n"
                                                               "k<<<n / 256, 256>>>(x);"));
  EXPECT_EQ(stepped.gridHow, "`n` = 4096 after `while (n < 4096)` at t.cu:4 (4 steps)");
  // A counted `for` of another counter steps it as many times as it counts (before 2026-11-28: open).
  EXPECT_EQ(gridAfter("int n = 4096;\nfor (int t = 0; t < 4; t++)\n  n = 512;"), "2,1,1");
  EXPECT_EQ(gridAfter("int n = 1 << 20;\nfor (int level = 0; level < 4; ++level) n /= 2;"), "256,1,1");
  EXPECT_EQ(gridAfter("int n = 256;\nconst int doublings = 3;\nfor (int i = doublings; i > 0; i--) {\n  n *= 2;\n}"),
            "8,1,1");
  // Not followed: another statement in its body, a condition that changes it or is open, no end in sight
  // (or an overflow), a loop that may not run.
  for (const char *loop : {"int n = 1;\nwhile (n < 4096) { n *= 2; report(n); }",
                           "int n = 1;\nwhile ((n *= 2) < 4096) n += 0;",
                           "int n = 1;\nwhile (n < rand()) n *= 2;",
                           "int n = 1;\nwhile (n > 0) n += 1;",
                           "long n = 1;\nwhile (n > 0) n += n;",
                           "int n = 1;\nif (rand())\n  while (n < 4096) n *= 2;",
                           "int n = 256;\nfor (int i = 0; i < 3; i++) n += i;",
                           "int n = 256;\nfor (int i = 0; i < 100; i++) n += 256;"})
    EXPECT_EQ(gridAfter(loop), "none") << loop;
}

TEST(HostLoopStepsTest, ALoopOfSeveralAssignmentsStepsThemTogether) {
  // The blocks-and-threads balance of a reduction: halve the blocks, double the threads, until few enough blocks.
  const std::string balance = "int threads = 128, blocks = 32768;\nwhile (blocks > 64) {\n  blocks /= 2;\n"
                              "  threads *= 2;\n}\n";
  EXPECT_EQ(gridAfter(balance + "int n = blocks * 256;"), "64,1,1");
  EXPECT_EQ(gridAfter(balance + "int n = threads * 256;"), "65536,1,1"); // 128 doubled 9 times
  const ptx::analysis::SourceLaunch threads = launchOfK(inMain(balance + "k<<<threads, 256>>>(x);"));
  EXPECT_EQ(threads.gridHow, "`threads` = 65536 after `while (blocks > 64)` at t.cu:4 (9 steps)");
  // A counted `for` steps them as often as it counts, each statement reading what those before it left.
  EXPECT_EQ(gridAfter("int n = 1 << 20, m = 1;\nfor (int l = 0; l < 3; ++l) {\n  n /= 2;\n  m *= 2;\n}"), "512,1,1");
  EXPECT_EQ(gridAfter("int a = 1, b = 1;\nfor (int i = 0; i < 5; i++) {\n  a = a + b;\n  b = a - b;\n}\n"
                      "int n = a * b * 256;"),
            "104,1,1"); // (a, b): (2, 1), (3, 2), (5, 3), (8, 5), (13, 8)
  // A variable the size does not depend on may be open.
  EXPECT_EQ(gridAfter("int n = 1 << 20, log = rand();\nwhile (n > 4096) {\n  n /= 2;\n  log++;\n}"), "16,1,1");
  // Not followed: a statement that is no plain assignment, one whose value changes another name, a size
  // that rests on an open one.
  for (const char *loop : {"int n = 1, m = 1;\nwhile (n < 4096) {\n  n *= 2;\n  report(m);\n}",
                           "int n = 1;\nwhile (n < 4096) {\n  int t = n;\n  n = t * 2;\n}",
                           "int n = 1, m = 1;\nwhile (n < 4096) {\n  n = (m += 1) * n;\n  m = 1;\n}",
                           "int n = 1, m = rand();\nwhile (n < 4096) {\n  n += m;\n  m *= 2;\n}",
                           "int n = 1, m = 1;\nwhile (n < 4096) {\n  n *= 2;\n  { m = 2; }\n}"})
    EXPECT_EQ(gridAfter(loop), "none") << loop;
}

TEST(HostLoopStepsTest, AValueTheLoopChangesAfterItsUseIsOpen) {
  // Each iteration reads what the one before left: 64, 128, 256, 512 blocks, not 64 four times.
  const ptx::analysis::SourceLaunch doubled =
      launchOfK(inMain("int n = 64;\nfor (int t = 0; t < 4; ++t) {\n  k<<<n, 256>>>(x);\n  n *= 2;\n}"));
  EXPECT_EQ(shown(doubled.grid), "none");
  EXPECT_EQ(doubled.gridOpen, "the launch at t.cu:5 passes `n`, which the source does not fix: `n` changes in the "
                              "body of `for (int t = 0; t < 4; ++t)` at t.cu:4, so each iteration reads what the one "
                              "before left");
  // Set in the body before the use, or not changed in it: what it is.
  EXPECT_EQ(shown(launchOfK(inMain("for (int t = 0; t < 4; ++t) {\n  int n = 64;\n  k<<<n, 256>>>(x);\n  n *= 2;\n}"))
                      .grid),
            "64,1,1");
  EXPECT_EQ(shown(launchOfK(inMain("int n = 64;\nfor (int t = 0; t < 4; ++t) {\n  k<<<n, 256>>>(x);\n}")).grid),
            "64,1,1");
}

TEST(HostLoopStepsTest, AWhileThatStepsItsCounterCountsAsAFor) {
  EXPECT_EQ(launchesIn("int iter = 0;\nwhile (iter < 100) {\n  k<<<1, 32>>>(x);\n  ++iter;\n}"), 100u);
  EXPECT_EQ(launchesIn("int left = 64;\nwhile (left > 0) {\n  left -= 8;\n  k<<<1, 32>>>(x);\n}"), 8u);
  // Its counter read in the body: the middle of its values, and each value for a branch on it.
  const ptx::analysis::SourceLaunch levels =
      launchOfK(inMain("int level = 0;\nwhile (level < 5) {\n  k<<<1 << level, 256>>>(x);\n  ++level;\n}"));
  EXPECT_EQ(shown(levels.grid), "4,1,1");
  EXPECT_EQ(levels.gridHow, "`level` = 2, the middle of `while (level < 5)` at t.cu:4");
  EXPECT_EQ(launchesIn("int i = 0;\nwhile (i < 100) {\n  if (i % 10 == 0) k<<<1, 32>>>(x);\n  i++;\n}"), 10u);
  // In a loop of its own: 3 x 100.
  EXPECT_EQ(launchesIn("for (int p = 0; p < 3; ++p) {\n  int i = 0;\n  while (i < 100) {\n    k<<<1, 32>>>(x);\n"
                       "    i += 1;\n  }\n}"),
            300u);
  // Not counted: a step under a branch, two steps, a step in the condition, a `continue`, no braces.
  for (const char *loop : {"int i = 0;\nwhile (i < 100) {\n  k<<<1, 32>>>(x);\n  if (x[0] > 0) i++;\n}",
                           "int i = 0;\nwhile (i < 100) {\n  k<<<1, 32>>>(x);\n  i++;\n  i++;\n}",
                           "int i = 0;\nwhile (i++ < 100) {\n  k<<<1, 32>>>(x);\n}",
                           "int i = 0;\nwhile (i < 100) {\n  if (x[0] > 0) continue;\n  k<<<1, 32>>>(x);\n  i++;\n}",
                           "int i = 0;\nwhile (i < 100) k<<<1, 32>>>(x), i++;"})
    EXPECT_EQ(launchesIn(loop), 16u) << loop;
}

} // namespace
} // namespace ptxdvfs::tools
