// HostBranchCountsTest.cpp - a launch under a branch that reads a host
// loop's counter runs in the iterations that take the branch: `if (t % 10
// == 0)` in a loop of 200 launches 20 times, not 200.
#include "CudaCode.h"
#include "CudaLaunches.h"
#include "CudaStatements.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

TEST(HostBranchCountsTest, ABranchOnTheCounterRunsInTheIterationsThatTakeIt) {
  EXPECT_EQ(launchesIn("for (int a = 0; a < 4; a++) { if (a % 2) { k<<<1, 32>>>(x); } else { } }"), 2u);
  EXPECT_EQ(launchesIn("for (int a = 0; a < 4; a++) if (a % 2) k<<<1, 32>>>(x);"), 2u); // no braces
  EXPECT_EQ(launchesIn("for (int a = 0; a < 4; a++) { if (a) { } else { k<<<1, 32>>>(x); } }"), 1u);
  EXPECT_EQ(launchesIn("for (int i = 0; i < 11; i++) { if (i > 0) k<<<1, 32>>>(x); }"), 10u); // a warm-up skipped
  // A scaling counter takes its values in turn: 64, 128, ..., 1024.
  EXPECT_EQ(launchesIn("for (int n = 1; n <= 1024; n *= 2) if (n >= 64) k<<<1, 32>>>(x);"), 5u);
  // The sizes still read the counter's middle once the iterations are counted.
  const ptx::analysis::SourceLaunch sized =
      launchOfK(inMain("for (int t = 1; t <= 8; t++) if (t % 2 == 0) k<<<t, 32>>>(x);"));
  EXPECT_EQ(sized.launches, 4u);
  EXPECT_EQ(shown(sized.grid), "4,1,1"); // the middle of 1..8
  // Through a variable set from the counter in the loop's body.
  EXPECT_EQ(launchesIn("for (int t = 0; t < 10; t++) {\n  int phase = t % 3;\n  if (phase == 0) k<<<1, 32>>>(x);\n}"),
            4u);
}

TEST(HostBranchCountsTest, TheReasonSaysWhichBranchDecides) {
  const ptx::analysis::SourceLaunch launch = launchOfK(inMain("for (int t = 0; t < 200; ++t) {\n"
                                                              "  if (t % 10 == 0)\n"
                                                              "    k<<<1, 32>>>(x);\n"
                                                              "}"));
  EXPECT_EQ(launch.launches, 20u);
  EXPECT_EQ(launch.launchesWhy, "launched 20 times: 20 at t.cu:5, in `for (int t = 0; t < 200; ++t)` at t.cu:3 (200 "
                                "times; it runs in 20 of them, as `if (t % 10 == 0)` at t.cu:4 decides)");
}

TEST(HostBranchCountsTest, PingPongLaunchesAddUpToTheLoopsCount) {
  // Swapping buffers by the counter's parity: each site runs in half the iterations.
  EXPECT_EQ(launchesIn("float *y;\nfor (int t = 0; t < 100; t++) {\n"
                       "  if (t % 2 == 0) k<<<1, 32>>>(x, y);\n  else k<<<1, 32>>>(y, x);\n}"),
            100u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 6; t++) {\n  switch (t % 3) {\n  case 0: k<<<1, 32>>>(x); break;\n"
                       "  case 1: break;\n  default: k<<<1, 32>>>(x); break;\n  }\n}"),
            4u);
}

TEST(HostBranchCountsTest, NestedLoopsAndCallsCountTheirOwnCounters) {
  // The branch reads the outer counter: every inner iteration of the 2 outer ones that take it.
  EXPECT_EQ(launchesIn("for (int t = 0; t < 10; t++)\n  for (int p = 0; p < 4; p++)\n    if (t % 5 == 0) k<<<1, 32>>>(x);"),
            8u);
  // A call under the branch runs its function's launches as often.
  const std::string source = "void report(float *x) { k<<<1, 32>>>(x); }\n" +
                             inMain("for (int t = 0; t < 30; t++) {\n  if (t % 10 == 9) report(x);\n}");
  EXPECT_EQ(launchOfK(source).launches, 3u);
}

TEST(HostBranchCountsTest, ABranchOnAParameterIsDecidedByTheCallersCounter) {
  // A time step that writes its output every 100 steps, called with the loop's counter.
  const std::string advance = "void advance(float *x, int step) {\n  other(x);\n  if (step % 100 == 0)\n"
                              "    k<<<1, 32>>>(x);\n}\n";
  const ptx::analysis::SourceLaunch output =
      launchOfK(advance + inMain("for (int t = 0; t < 1000; ++t)\n  advance(x, t);"));
  EXPECT_EQ(output.launches, 10u);
  EXPECT_EQ(output.launchesWhy, "launched 10 times: 10 at t.cu:4, in `advance`, called 10 times (10 at t.cu:9, in "
                                "`for (int t = 0; t < 1000; ++t)` at t.cu:8 (1000 times; it runs in 10 of them, as "
                                "`if (step % 100 == 0)` at t.cu:3 decides))");
  // Each call with what it passes: once before the loop with 0 (taken) or 5 (not), and the loop's 10.
  EXPECT_EQ(launchOfK(advance + inMain("advance(x, 0);\nfor (int t = 0; t < 1000; ++t)\n  advance(x, t);")).launches,
            11u);
  EXPECT_EQ(launchOfK(advance + inMain("advance(x, 5);\nfor (int t = 0; t < 1000; ++t)\n  advance(x, t);")).launches,
            10u);
  // Through a second function, which passes twice its own parameter: t = 0, 2, 4, 6, 8 of 10.
  const std::string solve = "void solve(float *x, int t) { advance(x, 50 * t); }\n";
  EXPECT_EQ(launchOfK(advance + solve + inMain("for (int t = 0; t < 10; ++t)\n  solve(x, t);")).launches, 5u);
}

TEST(HostBranchCountsTest, AContinueOrBreakOnTheCounterSkipsTheRestOfItsIterations) {
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; ++t) {\n  if (t % 4 != 0) continue;\n  k<<<1, 32>>>(x);\n}"), 25u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; ++t) {\n  k<<<1, 32>>>(x);\n  if (t == 9) break;\n}"), 10u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; ++t) {\n  if (t == 9) { break; }\n  k<<<1, 32>>>(x);\n}"), 9u);
  // Under two branches: both must hold. A warm-up that skips the first 3 of 10, in the outer loop of two.
  EXPECT_EQ(launchesIn("for (int t = 0; t < 10; ++t) {\n  if (t < 5) {\n    if (t % 2 == 0) continue;\n  }\n"
                       "  for (int p = 0; p < 2; ++p) k<<<1, 32>>>(x);\n}"),
            2u * 7);
  // Not this loop's: an inner loop's `continue`, or a `switch`'s `break`.
  EXPECT_EQ(launchesIn("for (int t = 0; t < 10; ++t) {\n  for (int p = 0; p < 2; ++p) if (t > 0) continue;\n"
                       "  k<<<1, 32>>>(x);\n}"),
            10u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 10; ++t) {\n  switch (t) {\n  case 3: break;\n  }\n  k<<<1, 32>>>(x);\n}"),
            10u);
  // After the launch, a `continue` changes nothing.
  EXPECT_EQ(launchesIn("for (int t = 0; t < 10; ++t) {\n  k<<<1, 32>>>(x);\n  if (t % 2) continue;\n}"), 10u);
}

TEST(HostBranchCountsTest, BranchesTheCounterDoesNotDecideRunEveryIteration) {
  EXPECT_EQ(launchesIn("for (int a = 0; a < 4; a++) if (rand() % 2) k<<<1, 32>>>(x);"), 4u);
  EXPECT_EQ(launchesIn("for (int a = 0; a < 4; a++) if (a < x[0]) k<<<1, 32>>>(x);"), 4u); // data
  // Two counters in one condition: neither alone decides it.
  EXPECT_EQ(launchesIn("for (int a = 0; a < 4; a++) for (int b = 0; b < 4; b++) if (a == b) k<<<1, 32>>>(x);"), 16u);
  // Beyond the iterations read one by one, the branch counts at every iteration as before.
  EXPECT_EQ(launchesIn("for (int a = 0; a < 100000; a++) if (a % 2) k<<<1, 32>>>(x);"), 100000u);
}

TEST(HostBranchCountsTest, AStatementHeadedByALoopOrASwitchEndsWithItsBody) {
  // The body of `if (c) switch (x) {...}` is the switch, not the switch and the next statement.
  const auto endOf = [](const std::string &code) {
    const std::size_t end = statementEndFrom(code, 0);
    return end == std::string::npos ? std::string("npos") : code.substr(0, end);
  };
  EXPECT_EQ(endOf("switch (x) { case 1: n = 2; break; } k<<<1, n>>>(p);"), "switch (x) { case 1: n = 2; break; }");
  EXPECT_EQ(endOf("for (i = 0; i < 4; i++) { a(); } b();"), "for (i = 0; i < 4; i++) { a(); }");
  EXPECT_EQ(endOf("while (i < 4) i++; b();"), "while (i < 4) i++;");
  EXPECT_EQ(endOf("if (c) switch (x) { default: n = 1; } else { n = 2; } b();"),
            "if (c) switch (x) { default: n = 1; } else { n = 2; }");
  EXPECT_EQ(endOf("if (c) { a(); } b();"), "if (c) { a(); }");
  EXPECT_EQ(endOf("{ a(); } b();"), "{ a(); }");
  EXPECT_EQ(endOf("do { a(); } while (c); b();"), "do { a(); } while (c);");
  EXPECT_EQ(endOf("n = f(a, {1, 2}); b();"), "n = f(a, {1, 2});");
  EXPECT_EQ(endOf("for (;;) {"), "npos");
  // Hostile nesting is not recursed into past a depth, and still ends where it does.
  std::string deep;
  for (int i = 0; i < 200000; ++i)
    deep += "if (a) ";
  EXPECT_EQ(endOf(deep + "b(); c();"), deep + "b();");
}

} // namespace
} // namespace ptxdvfs::tools
