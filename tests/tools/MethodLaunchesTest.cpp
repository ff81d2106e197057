// MethodLaunchesTest.cpp - a launch in a class's member function runs as
// often as the function is called, through an object (`solver.step(x)`,
// `s->step(x)`) or from another member function, and its parameters are
// what those calls pass; a method that returns arithmetic of its object's
// members (`g.cells()`) folds as those members do.
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

TEST(MethodLaunchesTest, SpecifiersAfterTheParametersStillMakeAMethod) {
  // `const volatile noexcept` between `)` and `{`, in any number: a method called 7 times, one that folds.
  EXPECT_EQ(launchOfK("struct Solver {\n  void step(float *x) const volatile noexcept { k<<<4, 256>>>(x); }\n};\n" +
                      inMain("Solver s;\nfor (int t = 0; t < 7; ++t) s.step(x);"))
                .launches,
            7u);
  EXPECT_EQ(shown(launchOfK("struct Grid {\n  int nx = 512;\n  int cells() const volatile { return nx * 2; }\n};\n" +
                            inMain("Grid g;\nk<<<g.cells() / 256, 256>>>(x);"))
                      .grid),
            "4,1,1");
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

TEST(MethodLaunchesTest, AMethodThatReturnsItsObjectsMembersFolds) {
  const std::string grid = "struct Grid {\n  int nx = 512, ny = 256;\n  int cells() const { return nx * ny; }\n"
                           "  int blocks(int per) const { return (cells() + per - 1) / per; }\n};\n";
  EXPECT_EQ(shown(launchOfK(grid + inMain("Grid g;\nk<<<g.cells() / 256, 256>>>(x);")).grid), "512,1,1");
  EXPECT_EQ(shown(launchOfK(grid + inMain("Grid g;\ng.nx = 1024;\nk<<<g.blocks(256), 256>>>(x);")).grid),
            "1024,1,1");
  EXPECT_EQ(shown(launchOfK(grid + inMain("Grid g{64, 64};\nconst int n = g.cells();\nk<<<n / 16, 16>>>(x);")).grid),
            "256,1,1");
  // Open: a member the object does not fix, a method of several statements, a free function's name.
  EXPECT_EQ(shown(launchOfK(grid + inMain("Grid g;\ng.nx = rand();\nk<<<g.cells() / 256, 256>>>(x);")).grid),
            "none");
  EXPECT_EQ(shown(launchOfK("struct S { int n = 4; int twice() { n *= 2; return n; } };\n" +
                            inMain("S s;\nk<<<s.twice(), 256>>>(x);"))
                      .grid),
            "none");
  EXPECT_EQ(shown(launchOfK("int cells() { return 64; }\n" + inMain("k<<<rng.cells(), 256>>>(x);")).grid), "none");
}

TEST(MethodLaunchesTest, AMethodThatIsNotConstMayChangeItsObject) {
  // `p.setLarge()` may set `p.n`; `p.get()`, a const method, reads it.
  const std::string params = "struct Params {\n  int n = 16;\n  void setLarge() { n = 1 << 20; }\n"
                             "  int get() const { return n; }\n};\n";
  EXPECT_EQ(shown(launchOfK(params + inMain("Params p;\np.setLarge();\nk<<<p.n, 256>>>(x);")).grid), "none");
  EXPECT_EQ(shown(launchOfK(params + inMain("Params p;\np.setLarge();\nk<<<p.get(), 256>>>(x);")).grid), "none");
  EXPECT_EQ(shown(launchOfK(params + inMain("Params p;\nint m = p.get();\nk<<<p.n + m, 256>>>(x);")).grid),
            "32,1,1");
  // A method the files do not define (a library's) may change it too.
  EXPECT_EQ(shown(launchOfK(params + inMain("Params p;\np.load(argv);\nk<<<p.n, 256>>>(x);")).grid), "none");
}

} // namespace
} // namespace ptxdvfs::tools
