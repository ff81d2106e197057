// MethodLaunchesTest.cpp - a launch in a class's member function runs as
// often as the function is called, through an object (`solver.step(x)`,
// `s->step(x)`) or from another member function, and its parameters are
// what those calls pass.
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

const std::string kSolver = "class Solver {\n public:\n  void step(float *x, int n) { k<<<n / 256, 256>>>(x); }\n";
const std::string kRun = "  void run(float *x) { for (int i = 0; i < 4; ++i) step(x, 1 << 16); }\n";

TEST(MethodLaunchesTest, AMethodCalledThroughAnObjectRunsAsOftenAsItsCalls) {
  const ptx::analysis::SourceLaunch launch =
      launchOfK(kSolver + "};\n" + inMain("Solver solver;\nfor (int t = 0; t < 200; ++t)\n  solver.step(x, 1 << 20);"));
  EXPECT_EQ(launch.launches, 200u);
  EXPECT_EQ(launch.launchesWhy, "launched 200 times: 200 at t.cu:3, in `step`, called 200 times (200 at t.cu:9, in "
                                "`for (int t = 0; t < 200; ++t)` at t.cu:8 (200 times))");
  EXPECT_EQ(shown(launch.grid), "4096,1,1");
  // Through a pointer, and from another member function: 3 + 10 * 4 launches, whose sizes differ.
  const ptx::analysis::SourceLaunch both = launchOfK(
      kSolver + kRun + "};\n" + inMain("Solver *s = new Solver;\nfor (int t = 0; t < 3; ++t) s->step(x, 1 << 16);\n"
                       "for (int t = 0; t < 10; ++t) s->run(x);"));
  EXPECT_EQ(both.launches, 43u);
  EXPECT_EQ(shown(both.grid), "256,1,1");
  // Defined outside its class.
  EXPECT_EQ(launchOfK("struct Solver { void step(float *x); };\nvoid Solver::step(float *x) { k<<<4, 256>>>(x); }\n" +
                      inMain("Solver s;\nfor (int t = 0; t < 7; ++t) s.step(x);"))
                .launches,
            7u);
}

TEST(MethodLaunchesTest, ACallInsideAStatementRunsAsTheStatementDoes) {
  // The loop heads the statement, not the call: `for (...)\n  err = step(x);`.
  EXPECT_EQ(launchOfK("int step(float *x) { k<<<4, 256>>>(x); return 0; }\n" +
                      inMain("int err = 0;\nfor (int t = 0; t < 7; ++t)\n  err |= step(x);"))
                .launches,
            7u);
}

TEST(MethodLaunchesTest, AMemberCallOfAFreeFunctionsNameIsAnotherFunction) {
  // `rng.step()` is some class's method; the files' `step` is a free function, called once.
  EXPECT_EQ(launchOfK("void step(float *x) { k<<<4, 256>>>(x); }\n" +
                      inMain("step(x);\nfor (int t = 0; t < 7; ++t) rng.step();"))
                .launches,
            1u);
  // A namespace is no class.
  EXPECT_EQ(launchOfK("namespace app {\nvoid step(float *x) { k<<<4, 256>>>(x); }\n}\n" +
                      inMain("app::step(x);\nfor (int t = 0; t < 7; ++t) rng.step();"))
                .launches,
            1u);
}

} // namespace
} // namespace ptxdvfs::tools
