// CudaHostLoopsTest.cpp - how many times the host code launches a kernel:
// its launch sites, each times the host loops around it.
#include "CudaHostLoops.h"
#include "CudaLaunches.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

using ptx::analysis::ValueOrigin;

TEST(CudaHostLoopsTest, ACountedForLaunchesOncePerIteration) {
  EXPECT_EQ(launchesIn("k<<<1, 32>>>(x);"), 1u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; ++t) { k<<<1, 32>>>(x); }"), 100u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; ++t)\n  k<<<1, 32>>>(x);"), 100u); // no braces
  EXPECT_EQ(launchesIn("for (int t = 0; t <= 100; t++) k<<<1, 32>>>(x);"), 101u);
  EXPECT_EQ(launchesIn("for (int t = 10; t > 0; t--) k<<<1, 32>>>(x);"), 10u);
  EXPECT_EQ(launchesIn("for (int t = 10; t >= 0; --t) k<<<1, 32>>>(x);"), 11u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; t += 8) k<<<1, 32>>>(x);"), 13u);
  EXPECT_EQ(launchesIn("for (int t = 100; t > 0; t -= 25) k<<<1, 32>>>(x);"), 4u);
  EXPECT_EQ(launchesIn("for (int t = 0; t != 12; t = t + 3) k<<<1, 32>>>(x);"), 4u);
  EXPECT_EQ(launchesIn("for (int t = 0; 8 > t; t++) k<<<1, 32>>>(x);"), 8u); // the bound written first
  EXPECT_EQ(launchesIn("for (size_t u = 7, t = 2; t < 6; t++) k<<<1, 32>>>(x);"), 4u);
  EXPECT_EQ(launchesIn("int t;\nfor (t = 2; t < 6; t++) k<<<1, 32>>>(x);"), 4u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < (1 << 3); t++) k<<<1, 32>>>(x);"), 8u); // a shift is no comparison
  // A sum beside the counter moves to the bound; one with what binds more loosely (`&`) is not read.
  EXPECT_EQ(launchesIn("for (int t = 0; t + 1 < 100; ++t) k<<<1, 32>>>(x);"), 99u);
  EXPECT_EQ(launchesIn("for (int t = 0; 100 > t - 2 * 3 + 1; t++) k<<<1, 32>>>(x);"), 105u);
  // The side the loop steps holds the counter, whichever side a name stands alone on.
  EXPECT_EQ(launchesIn("const int n = 10;\nfor (int t = 0; n > t; t++) k<<<1, 32>>>(x);"), 10u);
  EXPECT_EQ(launchesIn("const int n = 10;\nfor (int t = 0; t + 2 < n; t++) k<<<1, 32>>>(x);"), 8u);
  EXPECT_EQ(launchesIn("const int n = 10;\nfor (int t = 0; n - 1 > t; t++) k<<<1, 32>>>(x);"), 9u);
  EXPECT_EQ(launchesIn("for (int t = 0; t + 1 & 3 < 100; t++) k<<<1, 32>>>(x);"), kDefaultHostLoopCount);
  EXPECT_EQ(launchesIn("for (int t = 0; t * 2 < 100; t++) k<<<1, 32>>>(x);"), kDefaultHostLoopCount);
  EXPECT_EQ(launchesIn("for (int t = 0; t + t < 100; t++) k<<<1, 32>>>(x);"), kDefaultHostLoopCount);
}

TEST(CudaHostLoopsTest, BoundsFoldAsLaunchSizesDo) {
  const std::string source = "#define STEPS 50\nconst int kPasses = 3;\n" +
                             inMain("int half = STEPS / 2;\n"
                                    "for (int s = 0; s < half; s++)\n"
                                    "  for (int p = 0; p < kPasses * 2; p++)\n"
                                    "    k<<<1, 32>>>(x);");
  const ptx::analysis::SourceLaunch launch = launchOfK(source);
  EXPECT_EQ(launch.launches, 150u);
  EXPECT_EQ(launch.launchesOrigin, ValueOrigin::Assumed);
  EXPECT_EQ(launch.launchesWhy, "launched 150 times: 150 at t.cu:8, in `for (int p = 0; p < kPasses * 2; p++)` at "
                                "t.cu:7 (6 times), in `for (int s = 0; s < half; s++)` at t.cu:6 (25 times)");
}

TEST(CudaHostLoopsTest, NestedLoopsMultiplyAndLaunchSitesAdd) {
  EXPECT_EQ(launchesIn("for (int a = 0; a < 4; a++) {\n"
                       "  for (int b = 0; b < 5; b++) {\n"
                       "    k<<<1, 32>>>(x);\n"
                       "  }\n"
                       "  k<<<1, 32>>>(x);\n"
                       "}\n"
                       "k<<<1, 32>>>(x);"),
            4u * 5 + 4 + 1);
  // A branch on a loop's counter: HostBranchCountsTest.
  // Through the API too.
  EXPECT_EQ(launchesIn("void *args[] = {&x};\n"
                       "for (int a = 0; a < 3; a++) cudaLaunchKernel((void *)k, dim3(2), dim3(96), args, 0, 0);"),
            3u);
}

TEST(CudaHostLoopsTest, LoopsTheSourceDoesNotCountRunTheDefault) {
  const ptx::analysis::SourceLaunch launch = launchOfK(inMain("for (int r = 0; r < rand(); r++) k<<<1, 32>>>(x);"));
  EXPECT_EQ(launch.launches, kDefaultHostLoopCount);
  EXPECT_EQ(launch.launchesOrigin, ValueOrigin::Defaulted);
  EXPECT_EQ(launch.launchesWhy, "launched 16 times: 16 at t.cu:3, in `for (int r = 0; r < rand(); r++)` at t.cu:3 "
                                "(16 times: a default, the source does not fix its count)");
  EXPECT_EQ(launchesIn("int done = 0;\nwhile (!done) { k<<<1, 32>>>(x); done = 1; }"), 16u);
  EXPECT_EQ(launchesIn("do {\n  k<<<1, 32>>>(x);\n} while (argc--);"), 16u);
  EXPECT_EQ(launchesIn("int v[3];\nfor (int e : v) k<<<1, 32>>>(x);"), 16u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; t *= 2) k<<<1, 32>>>(x);"), 16u); // scaling 0 never ends it
  EXPECT_EQ(launchesIn("for (int t = 1; t < 100; t = t * 2 + 1) k<<<1, 32>>>(x);"), 16u); // a step not read
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100 && argc; t++) k<<<1, 32>>>(x);"), 16u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; t--) k<<<1, 32>>>(x);"), 16u); // never reaches its bound
  EXPECT_EQ(launchesIn("for (int t = 0; t != 7; t += 2) k<<<1, 32>>>(x);"), 16u);
  // A counted loop around one the source does not count: both multiply.
  const ptx::analysis::SourceLaunch nested =
      launchOfK(inMain("for (int s = 0; s < 10; s++) {\n  while (argc) { k<<<1, 32>>>(x); }\n}"));
  EXPECT_EQ(nested.launches, 160u);
  EXPECT_EQ(nested.launchesOrigin, ValueOrigin::Defaulted);
}

TEST(CudaHostLoopsTest, WhatIsNotALoopAroundTheLaunchCountsOnce) {
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; t++) { }\nk<<<1, 32>>>(x);"), 1u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 100; t++) x[0] = t;\nk<<<1, 32>>>(x);"), 1u);
  EXPECT_EQ(launchesIn("do { x[0] = 1; } while (argc--);\nk<<<1, 32>>>(x);"), 1u);
  EXPECT_EQ(launchesIn("switch (argc) { case 1: k<<<1, 32>>>(x); }"), 1u);
  // A loop that runs no time launches nothing from there; the kernel still counts once, and says why.
  const ptx::analysis::SourceLaunch none = launchOfK(inMain("for (int t = 0; t < 0; t++) k<<<1, 32>>>(x);"));
  EXPECT_EQ(none.launches, 1u);
  EXPECT_EQ(none.launchesWhy, "never launched by the program run without arguments, counted once: 0 at t.cu:3, "
                              "never: `for (int t = 0; t < 0; t++)` at t.cu:3 is false on entry");
  EXPECT_EQ(launchesIn("for (int t = 0; t < 0; t++) k<<<1, 32>>>(x);\nk<<<1, 32>>>(x);\nk<<<1, 32>>>(x);"), 2u);
  // A helper called nowhere by its name (a callback), or only as another object's method, runs once.
  EXPECT_EQ(launchOfK("void run(float *x) { k<<<1, 32>>>(x); }\n" +
                      inMain("void (*f)(float *) = run;\nfor (int t = 0; t < 100; t++) { f(x); solver.run(x); }"))
                .launches,
            1u);
}

TEST(CudaHostLoopsTest, ALaunchInAHelperRunsAsOftenAsItsCalls) {
  const std::string source = "static void step(float *x) {\n  k<<<1, 32>>>(x);\n}\n"
                             "static void solve(float *x) {\n  for (int j = 0; j < 3; j++)\n    step(x);\n}\n" +
                             inMain("for (int t = 0; t < 10; t++) { solve(x); }\nstep(x);");
  const ptx::analysis::SourceLaunch launch = launchOfK(source);
  EXPECT_EQ(launch.launches, 3u * 10 + 1);
  EXPECT_EQ(launch.launchesOrigin, ValueOrigin::Assumed);
  EXPECT_EQ(launch.launchesWhy,
            "launched 31 times: 31 at t.cu:2, in `step`, called 31 times (30 at t.cu:6, in `for (int j = 0; j < 3; "
            "j++)` at t.cu:5 (3 times), in `solve`, called 10 times (10 at t.cu:10, in `for (int t = 0; t < 10; "
            "t++)` at t.cu:10 (10 times)); 1 at t.cu:11)");
  // A caller's loop the source does not count makes the launches a default.
  const ptx::analysis::SourceLaunch looped =
      launchOfK("void step(float *x) { k<<<1, 32>>>(x); }\n" + inMain("while (argc--) step(x);"));
  EXPECT_EQ(looped.launches, 16u);
  EXPECT_EQ(looped.launchesOrigin, ValueOrigin::Defaulted);
  // Recursion and cycles end: a function's calls from itself, or from a caller it calls, add nothing.
  EXPECT_EQ(launchOfK("void walk(float *x, int n) {\n  k<<<1, 32>>>(x);\n  if (n) walk(x, n - 1);\n}\n" +
                      inMain("walk(x, 5);"))
                .launches,
            1u);
  EXPECT_EQ(launchOfK("void b(float *x);\nvoid a(float *x) { k<<<1, 32>>>(x); for (int i = 0; i < 2; i++) b(x); }\n"
                      "void b(float *x) { for (int i = 0; i < 3; i++) a(x); }\n" +
                      inMain("a(x);"))
                .launches,
            1u + 6);
}

/// A launch's sizes as `x,y,z`, or "none" where the source leaves them open.
std::string shown(const std::optional<ptx::analysis::Dim3> &dims) {
  return dims ? std::to_string(dims->x) + "," + std::to_string(dims->y) + "," + std::to_string(dims->z) : "none";
}

/// What `k` gets when `helper`, file-scope code that launches it, is
/// called as `calls` from main.
ptx::analysis::SourceLaunch launchThroughHelper(const std::string &helper, const std::string &calls) {
  return launchOfK(helper + "\n" + inMain(calls));
}

TEST(CudaHostLoopsTest, AHelpersParameterIsWhatItsCallsPass) {
  const std::string run = "static void run(float *x, int n) { k<<<(n + 255) / 256, 256>>>(x); }";
  EXPECT_EQ(shown(launchThroughHelper(run, "run(x, 1 << 20);").grid), "4096,1,1");
  // Calls that write it differently and agree; calls that differ launch once each (LaunchMeansTest).
  EXPECT_EQ(shown(launchThroughHelper("const int N = 4096;\n" + run, "run(x, N);\nrun(x, 4096);").grid), "16,1,1");
  EXPECT_EQ(launchThroughHelper(run, "run(x, 1 << 20);").gridHow, "`n` = 1048576, as `run`'s call at t.cu:4 passes it");
  const ptx::analysis::SourceLaunch differ = launchThroughHelper(run, "run(x, 4096);\nrun(x, 8192);");
  EXPECT_EQ(shown(differ.grid), "24,1,1"); // 16 and 32
  EXPECT_EQ(shown(differ.block), "256,1,1");
  // Through a caller's own parameter, folded where each call is written.
  const ptx::analysis::SourceLaunch twice = launchThroughHelper(
      run + "\nvoid twice(float *x, int m) { const int doubled = 2 * m; run(x, doubled); }", "twice(x, 512);");
  EXPECT_EQ(shown(twice.grid), "4,1,1");
  EXPECT_EQ(twice.gridHow, "`m` = 512, as `twice`'s call at t.cu:5 passes it; `n` = 1024, as `run`'s call at t.cu:2 "
                           "passes it");
  // `dim3` parameters, and a default argument where a call leaves it out.
  const ptx::analysis::SourceLaunch dims = launchThroughHelper(
      "void run(float *x, dim3 grid, dim3 block = dim3(16, 16)) { k<<<grid, block>>>(x); }",
      "dim3 tiles(8, 4);\nrun(x, tiles);\nrun(x, dim3(8, 4), dim3(16, 16));");
  EXPECT_EQ(shown(dims.grid), "8,4,1");
  EXPECT_EQ(shown(dims.block), "16,16,1");
  // A reference reads as the value it refers to.
  const ptx::analysis::SourceLaunch referred = launchThroughHelper(
      "void run(float *x, const dim3 &grid, const int &n) { k<<<grid, n>>>(x); }", "dim3 g(8, 2);\nrun(x, g, 64);");
  EXPECT_EQ(shown(referred.grid), "8,2,1");
  EXPECT_EQ(shown(referred.block), "64,1,1");
  // A template's calls, with their template arguments; a launch of a template kernel is no call.
  const ptx::analysis::SourceLaunch templated = launchThroughHelper(
      "template <typename T, int B> void run(T *x, int n) { k<<<n / 256, 256>>>(x); }",
      "for (int t = 0; t < 3; t++) run<float, (64 > 32 ? 128 : 64)>(x, 4096);\nrun<float, 128>(x, 4096);");
  EXPECT_EQ(templated.launches, 4u);
  EXPECT_EQ(templated.launchesWhy, "launched 4 times: 4 at t.cu:1, in `run`, called 4 times (3 at t.cu:4, in `for "
                                   "(int t = 0; t < 3; t++)` at t.cu:4 (3 times); 1 at t.cu:5)");
  EXPECT_EQ(shown(templated.grid), "16,1,1");
  // As C passes it: converted to the parameter's type.
  EXPECT_EQ(shown(launchThroughHelper("void run(float *x, int n) { k<<<1, n>>>(x); }", "run(x, 96.9);").block),
            "96,1,1");
  // The kernel's arguments and the host loops' bounds fold the same way.
  const ptx::analysis::SourceLaunch stepped = launchThroughHelper(
      "void solve(float *x, int steps) { for (int t = 0; t < steps; t++) k<<<1, 32>>>(x); }", "solve(x, 40);");
  EXPECT_EQ(stepped.launches, 40u);
  EXPECT_EQ(stepped.launchesOrigin, ValueOrigin::Assumed);
  EXPECT_EQ(stepped.launchesWhy, "launched 40 times: 40 at t.cu:1, in `for (int t = 0; t < steps; t++)` at t.cu:1 (40 "
                                 "times: `steps` = 40, as `solve`'s call at t.cu:4 passes it)");
}

TEST(CudaHostLoopsTest, AParameterTheCallsDoNotFixStaysOpen) {
  // Changed in the helper before the launch, where the change may or may not run; a change that runs is read.
  EXPECT_EQ(shown(launchThroughHelper("void run(float *x, int n) { if (rand()) n *= 2; k<<<1, n>>>(x); }", "run(x, 32);")
                      .block),
            "none");
  EXPECT_EQ(shown(launchThroughHelper("void run(float *x, int n) { n *= 2; k<<<1, n>>>(x); }", "run(x, 32);").block),
            "64,1,1");
  // Read at run time by a caller.
  const ptx::analysis::SourceLaunch fromUser =
      launchThroughHelper("void run(float *x, int n) { k<<<1, n>>>(x); }", "run(x, rand());");
  EXPECT_EQ(shown(fromUser.block), "none");
  EXPECT_EQ(fromUser.blockOpen, "the launch at t.cu:1 passes `n`, which the source does not fix: `run`'s call at "
                                "t.cu:4 passes `rand()` for `n`, which the source does not fix");
  // Never called by name (a callback), or called with a different number of arguments (an overload).
  const ptx::analysis::SourceLaunch uncalled =
      launchThroughHelper("void run(float *x, int n) { k<<<1, n>>>(x); }", "");
  EXPECT_EQ(shown(uncalled.block), "none");
  EXPECT_EQ(uncalled.blockOpen,
            "the launch at t.cu:1 passes `n`, which the source does not fix: `run` is called nowhere by its name "
            "in the files read (a caller in another folder is read with --host-source)");
  const ptx::analysis::SourceLaunch overload =
      launchThroughHelper("void run(float *x, int n) { k<<<1, n>>>(x); }", "run(x, 32, 1);");
  EXPECT_EQ(shown(overload.block), "none");
  EXPECT_NE(overload.blockOpen.find("`run`'s call at t.cu:4 does not pass its parameters as declared"),
            std::string::npos)
      << overload.blockOpen;
  // A recursive call passes another value; functions that pass it round in a cycle never end it.
  EXPECT_EQ(shown(launchThroughHelper("void walk(float *x, int n) { k<<<1, n>>>(x); if (n > 32) walk(x, n / 2); }",
                                      "walk(x, 64);")
                      .block),
            "none");
  EXPECT_EQ(shown(launchThroughHelper("void b(float *x, int n);\n"
                                      "void a(float *x, int n) { k<<<1, n>>>(x); b(x, n); }\n"
                                      "void b(float *x, int n) { a(x, n); }",
                                      "a(x, 64);")
                      .block),
            "none");
  // Another function's parameter of the same name hides no constant.
  EXPECT_EQ(shown(launchThroughHelper("const int n = 128;\nvoid other(int n) {}\n"
                                      "void run(float *x) { k<<<1, n>>>(x); }",
                                      "run(x);")
                      .block),
            "128,1,1");
}

TEST(CudaHostLoopsTest, AHostLoopsCounterIsTheMiddleOfItsValues) {
  // Rodinia's nw launches `dim3 dimGrid(i)` for i = 1..64: 32 blocks on average.
  EXPECT_EQ(shown(launchOfK(inMain("for (int i = 1; i <= 64; i++) {\n  dim3 grid(i);\n  k<<<grid, 32>>>(x);\n}")).grid),
            "32,1,1");
  const ptx::analysis::SourceLaunch down = launchOfK(inMain("for (int i = 10; i > 0; --i) k<<<i, 32>>>(x);"));
  EXPECT_EQ(shown(down.grid), "6,1,1");
  EXPECT_EQ(down.gridHow, "`i` = 6, the middle of `for (int i = 10; i > 0; --i)` at t.cu:3");
  EXPECT_EQ(shown(launchOfK(inMain("#define N 4096\nfor (int i = 0; i < N; i += 256) k<<<(N - i) / 256, 32>>>(x);"))
                      .grid),
            "9,1,1"); // i = 1792, the 8th of 16 values
  // An inner loop bounded by the outer counter counts from its middle: 10 * (10 - 4), where the sum is 55.
  EXPECT_EQ(launchesIn("for (int r = 0; r < 10; r++)\n  for (int c = r; c < 10; c++)\n    k<<<1, 32>>>(x);"), 60u);
  // Not a counter there: changed in the body, read after the loop, or a loop the source does not count.
  EXPECT_EQ(shown(launchOfK(inMain("for (int i = 1; i <= 64; i++) {\n  k<<<i, 32>>>(x);\n  if (argc) i++;\n}")).grid),
            "none");
  EXPECT_EQ(shown(launchOfK(inMain("int i;\nfor (i = 1; i <= 64; i++) {}\nk<<<i, 32>>>(x);")).grid), "none");
  EXPECT_EQ(shown(launchOfK(inMain("for (int i = 1; i <= rand(); i++) k<<<i, 32>>>(x);")).grid), "none");
}

TEST(CudaHostLoopsTest, TheProgramIsReadAsRunWithoutArguments) {
  // `argc` is 1, whatever main calls it, and C evaluates only the side of `?:`, `&&` and `||` it takes.
  const ptx::analysis::SourceLaunch chosen =
      launchOfK(inMain("int n = argc > 1 ? atoi(argv[1]) : 1024;\nk<<<n / 256, 256>>>(x);"));
  EXPECT_EQ(shown(chosen.grid), "4,1,1");
  EXPECT_EQ(chosen.gridHow, "`argc` = 1, the program run without arguments");
  EXPECT_EQ(shown(launchOfK("int main(int count, char **words) { float *x; k<<<1, count * 32>>>(x); }").block),
            "32,1,1");
  EXPECT_EQ(shown(launchOfK(inMain("k<<<argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 64, 32>>>(x);")).grid),
            "64,1,1");
  EXPECT_EQ(shown(launchOfK(inMain("k<<<argc < 2 || atoi(argv[1]) < 8 ? 8 : atoi(argv[1]), 32>>>(x);")).grid),
            "8,1,1");
  // A size changed only where the command line asks keeps its value: the CUDA samples' flags.
  const ptx::analysis::SourceLaunch flagged = launchOfK(inMain(
      "int n = 4096;\nif (checkCmdLineFlag(argc, (const char **)argv, \"n\")) {\n"
      "  n = getCmdLineArgumentInt(argc, (const char **)argv, \"n\");\n}\nif (argc > 2)\n  n = atoi(argv[2]);\n"
      "k<<<n / 256, 256>>>(x);"));
  EXPECT_EQ(shown(flagged.grid), "16,1,1");
  EXPECT_EQ(flagged.gridHow, "`argc` = 1, the program run without arguments; `if (argc > 2)` at t.cu:7 is false; "
                             "`if (checkCmdLineFlag(argc, (const cha...` at t.cu:4 is false without command-line "
                             "arguments");
  // A change where the condition holds is the value; where it may hold, the value is open.
  const ptx::analysis::SourceLaunch unflagged =
      launchOfK(inMain("int n = 4096;\nif (!checkCmdLineFlag(argc, (const char **)argv, \"n\"))\n"
                       "  n = 512;\nk<<<n / 256, 256>>>(x);"));
  EXPECT_EQ(shown(unflagged.grid), "2,1,1");
  EXPECT_EQ(unflagged.gridHow, "`if (!checkCmdLineFlag(argc, (const ch...` at t.cu:4 is true without command-line "
                               "arguments");
  EXPECT_EQ(gridAfter("int n;\nif (argc > 1) n = atoi(argv[1]);\nelse n = 2048;"), "8,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nif (rand())\n  n = 512;"), "none");
  // A change inside the statement the branch holds (read from input, through its address) goes with it.
  EXPECT_EQ(gridAfter("int n = 4096;\nif (argc > 1)\n  std::cin >> n;"), "16,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nif (argc > 1)\n  check(sscanf(argv[1], \"%d\", &n));"), "16,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nif (rand())\n  std::cin >> n;"), "none");
  // POSIX's getopt finds no option: an option loop never runs, and the size keeps its default.
  const ptx::analysis::SourceLaunch options = launchOfK(inMain(
      "int dim = 64, opt, index;\nwhile ((opt = getopt_long(argc, argv, \"s:\", long_options, &index)) != -1) {\n"
      "  switch (opt) { case 's': dim = atoi(optarg); break; }\n}\nk<<<dim / 16, 16>>>(x);"));
  EXPECT_EQ(shown(options.grid), "4,1,1");
  EXPECT_EQ(options.gridHow, "`while ((opt = getopt_long(argc, argv,...` at t.cu:4 is false on entry without "
                             "command-line arguments");
  EXPECT_EQ(launchesIn("while (getopt(argc, argv, \"v\") != -1)\n  k<<<1, 32>>>(x);\nk<<<1, 32>>>(x);"), 1u);
  EXPECT_EQ(launchesIn("int more = 1;\nwhile (more) { k<<<1, 32>>>(x); }"), 16u); // entered: the loops' default
  // Any `while` false on entry, an assignment in its condition read as its value.
  EXPECT_EQ(launchesIn("int t = 5;\nwhile ((t = t - 5) > 0) k<<<1, 32>>>(x);\nk<<<1, 32>>>(x);"), 1u);
  EXPECT_EQ(launchOfK(inMain("int n = 64; int t = 5;\nwhile ((t = t - 5) > 0) n = 512;\nk<<<n / 16, 16>>>(x);")).gridHow,
            "`while ((t = t - 5) > 0)` at t.cu:4 is false on entry");
  // A `for` over the arguments runs no time: its counter as the `for` declares it, `argc` 1.
  const ptx::analysis::SourceLaunch arguments = launchOfK(inMain(
      "int n = 4096;\nfor (int i = 1; i < argc; ++i)\n  if (!strcmp(argv[i], \"-n\")) n = atoi(argv[++i]);\n"
      "k<<<n / 256, 256>>>(x);"));
  EXPECT_EQ(shown(arguments.grid), "16,1,1");
  EXPECT_EQ(arguments.gridHow, "`argc` = 1, the program run without arguments; `for (int i = 1; i < argc; ++i)` at "
                               "t.cu:4 is false on entry");
  EXPECT_EQ(gridAfter("int n = 4096;\nint i = 1;\nfor (; i < argc; ++i) n = atoi(argv[i]);"), "16,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nfor (int i = 0; i < argc; ++i) n = atoi(argv[i]);"), "none"); // entered
  // A launch under the same condition as the change sees it (and, never launched, still gives its sizes).
  EXPECT_EQ(shown(launchOfK(inMain("int n = 4096;\nif (argc > 1) {\n  n = 512;\n  k<<<n / 256, 256>>>(x);\n}")).grid),
            "2,1,1");
}

TEST(CudaHostLoopsTest, AStatementThatAssignsASizeBeforeTheLaunchGivesIt) {
  EXPECT_EQ(gridAfter("int n = 4096;\nn = 8192;"), "32,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nn = n * 2;"), "32,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nn *= 2;"), "32,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nn <<= 1 + 1;"), "64,1,1"); // `n << (1 + 1)`, as C reads it
  EXPECT_EQ(gridAfter("int n = 4095;\nn++;"), "16,1,1");
  EXPECT_EQ(gridAfter("int n;\n{\n  n = 1024;\n}"), "4,1,1"); // a plain block runs
  EXPECT_EQ(shown(launchOfK(inMain("dim3 b(16);\nb = dim3(32, 8);\nk<<<1, b>>>(x);")).block), "32,8,1");
  EXPECT_EQ(shown(launchOfK(inMain("int n = 4096;\nfor (int t = 0; t < 4; t++) { n = 512; k<<<n / 256, 256>>>(x); }"))
                      .grid),
            "2,1,1");
  // What may run any number of times, or not at all, leaves the value open.
  EXPECT_EQ(gridAfter("int n = 4096;\nfor (int t = 0; t < rand(); t++)\n  n = 512;"), "none");
  EXPECT_EQ(gridAfter("int n = 4096;\nwhile (rand()) { n = 512; }"), "none");
  EXPECT_EQ(gridAfter("int n = 4096;\nswitch (rand()) { case 0: n = 512; break; }"), "none");
  EXPECT_EQ(gridAfter("int n = 4096;\nswitch (rand()) { case 0: { n = 512; } }"), "none");
  EXPECT_EQ(shown(launchOfK(inMain("int n = 256;\nfor (int t = 0; t < 4; t++) { n *= 2; k<<<n / 256, 256>>>(x); }"))
                      .grid),
            "none");
  EXPECT_EQ(gridAfter("int n = 4096;\nauto f = [&]() { n = 512; };"), "none");
  EXPECT_EQ(gridAfter("int n = 4096;\nrun(n = 512);"), "none");
  EXPECT_EQ(gridAfter("int n = 4096;\nn += rand();"), "none");
  EXPECT_EQ(gridAfter("int n = 4096;\n#ifdef _OPENMP\nn = 512;\n#endif"), "none"); // the build may leave it out
  EXPECT_EQ(gridAfter("int n = 4096;\n#if _OPENMP\n#endif\n#ifdef _OPENMP\nn = 512;\n#else\nn = 1024;\n#endif"),
            "none");
  EXPECT_EQ(gridAfter("int n = 4096;\n#ifdef _OPENMP\n#endif\nn = 512;"), "2,1,1");
  EXPECT_EQ(
      shown(launchOfK(inMain("int n = 4096;\n#ifdef _OPENMP\nn = 512;\nk<<<n / 256, 256>>>(x);\n#endif")).grid),
      "2,1,1");
  // A knob that no file defines is off in the build without -D flags: what it guards does not happen.
  EXPECT_EQ(gridAfter("int n = 4096;\n#ifdef SMALL\nn = 512;\n#endif"), "16,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\n#ifndef SMALL\nn = 512;\n#endif"), "2,1,1");
}

TEST(CudaHostLoopsTest, WhatTheBuildWithoutDashDFlagsLeavesOutIsNotRead) {
  // An `#if 0` branch launches nothing and sets nothing; `#if 1` keeps its branch as plain code.
  EXPECT_EQ(launchesIn("#if 0\nk<<<1, 32>>>(x);\n#endif\nk<<<1, 32>>>(x);"), 1u);
  EXPECT_EQ(launchesIn("#if 1\nk<<<1, 32>>>(x);\n#else\nk<<<1, 32>>>(x);\n#endif"), 1u);
  EXPECT_EQ(launchesIn("#if 0\n#ifdef BIG\nk<<<1, 32>>>(x);\n#else\nk<<<1, 32>>>(x);\n#endif\n#elif 1\n"
                       "k<<<1, 32>>>(x);\n#endif"),
            1u);
  EXPECT_EQ(gridAfter("int n = 4096;\n#if 0\nn = 512;\n#endif"), "16,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\n#if 1\nn = 512;\n#else\nn = 1024;\n#endif"), "2,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\n#if 0\n#elif 1\nn = 512;\n#endif"), "2,1,1");
  // A condition on a knob no file defines reads as the build without -D flags reads it; one on what
  // headers may define stays conditional, and so does what follows it.
  EXPECT_EQ(launchesIn("#if SMALL\nk<<<1, 32>>>(x);\n#else\nk<<<1, 32>>>(x);\n#endif"), 1u);
  EXPECT_EQ(launchesIn("#if CUDART_VERSION > 9000\nk<<<1, 32>>>(x);\n#else\nk<<<1, 32>>>(x);\n#endif"), 2u);
  EXPECT_EQ(gridAfter("int n = 4096;\n#if 0\n#elif SMALL\nn = 512;\n#else\nn = 1024;\n#endif"), "4,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\n#if 0\n#elif __SSE__\nn = 512;\n#else\nn = 1024;\n#endif"), "none");
}

TEST(CudaHostLoopsTest, EveryNameOfADeclarationListIsDeclared) {
  EXPECT_EQ(gridAfter("int rows = 256, n = rows * 8;"), "8,1,1");
  EXPECT_EQ(gridAfter("const int w[2] = {1, 2};\nint n = 512, *p = &n, m = 4096;\nn = m;"), "16,1,1");
  EXPECT_EQ(shown(launchOfK(inMain("dim3 grid(4, 2), block(8, 8);\nk<<<grid, block>>>(x);")).block), "8,8,1");
  EXPECT_EQ(gridAfter("int n = 4096, m;\nm = 2, n = 512;"), "none"); // a comma expression changes it
}

TEST(CudaHostLoopsTest, ALaunchUnderABranchNotTakenRunsNever) {
  const std::string run = "void run(float *x, int block) {\n"
                          "  if (block == 16) {\n"
                          "    k<<<64, 16>>>(x);\n"
                          "  } else {\n"
                          "    k<<<32, 32>>>(x);\n"
                          "  }\n"
                          "}\n";
  const ptx::analysis::SourceLaunch chosen = launchOfK(run + inMain("for (int j = 0; j < 10; j++) run(x, 32);"));
  EXPECT_EQ(chosen.launches, 10u);
  EXPECT_EQ(shown(chosen.grid), "32,1,1"); // the launch not taken gives no size
  EXPECT_EQ(shown(chosen.block), "32,1,1");
  EXPECT_EQ(chosen.at, "t.cu:5");
  EXPECT_EQ(chosen.launchesWhy,
            "launched 10 times: 0 at t.cu:3, never: `block` = 32, as `run`'s call at t.cu:10 passes it; `if (block "
            "== 16)` at t.cu:2 is false; 10 at t.cu:5, in `run`, called 10 times (10 at t.cu:10, in `for (int j = 0; "
            "j < 10; j++)` at t.cu:10 (10 times))");
  // A range `for` over an empty container runs nothing.
  EXPECT_EQ(gridAfter("int n = 4096;\nstd::vector<int> sizes;\nfor (int s : sizes) n = 512;"), "16,1,1");
  EXPECT_EQ(launchesIn("std::vector<int> sizes;\nfor (int s : sizes) k<<<1, 32>>>(x);\nk<<<1, 32>>>(x);"), 1u);
  // A call in a branch not taken passes nothing.
  EXPECT_EQ(shown(launchOfK("void go(float *x, int n) { k<<<1, n>>>(x); }\n" +
                            inMain("const int tile = 32;\nif (tile == 16) { go(x, 16); } else { go(x, 32); }"))
                      .block),
            "32,1,1");
  // The other way round, the `else` is the branch not taken; an `if` branch of one statement has its `else` too.
  EXPECT_EQ(shown(launchOfK(run + inMain("run(x, 16);")).block), "16,1,1");
  EXPECT_EQ(shown(launchOfK(inMain("const int mode = 1;\nif (mode == 0)\n  k<<<2, 32>>>(x);\nelse\n"
                                   "  k<<<4, 64>>>(x);"))
                      .block),
            "64,1,1");
  EXPECT_EQ(shown(launchOfK(inMain("const int mode = 0;\nif (mode == 0) x[f(1)] = g(2); else k<<<4, 64>>>(x);\n"
                                   "k<<<2, 32>>>(x);"))
                      .block),
            "32,1,1");
  // `else if` chains, and conditions the source does not decide, which count as before.
  EXPECT_EQ(launchesIn("const int mode = 1;\n"
                       "for (int t = 0; t < 5; t++) {\n"
                       "  if (mode == 0) { k<<<1, 32>>>(x); } else if (mode == 1) { k<<<1, 32>>>(x); k<<<1, 32>>>(x); }\n"
                       "  else { k<<<1, 32>>>(x); }\n"
                       "}"),
            10u);
  EXPECT_EQ(launchesIn("for (int t = 0; t < 5; t++) { if (rand()) { k<<<1, 32>>>(x); } else { k<<<1, 32>>>(x); } }"),
            10u);
  // One site runs once and another never: the reason says so.
  EXPECT_EQ(launchOfK(inMain("const int mode = 1;\nif (mode == 0) k<<<2, 32>>>(x);\nk<<<2, 32>>>(x);")).launchesWhy,
            "launched once: 0 at t.cu:4, never: `if (mode == 0)` at t.cu:4 is false; 1 at t.cu:5");
  EXPECT_EQ(launchOfK(inMain("k<<<2, 32>>>(x);")).launchesWhy, ""); // one site, once: nothing to explain
  // Every launch in a branch not taken: the kernel still counts once, as one launched nowhere would.
  EXPECT_EQ(launchesIn("if (argc > 1) { k<<<1, 32>>>(x); }"), 1u);
}

TEST(CudaHostLoopsTest, ASwitchRunsOnlyTheCasesItsValueLeadsTo) {
  // A block size chosen by a switch, as template reductions do: only the matching case launches.
  const std::string choose = "const int threads = 256;\n"
                             "for (int t = 0; t < 10; t++) {\n"
                             "  switch (threads) {\n"
                             "  case 512: k<<<1, 512>>>(x); break;\n"
                             "  case 256: k<<<2, 256>>>(x); break;\n"
                             "  default: k<<<4, 128>>>(x); break;\n"
                             "  }\n"
                             "}";
  const ptx::analysis::SourceLaunch chosen = launchOfK(inMain(choose));
  EXPECT_EQ(chosen.launches, 10u);
  EXPECT_EQ(shown(chosen.block), "256,1,1");
  EXPECT_EQ(chosen.launchesWhy.substr(0, 87),
            "launched 10 times: 0 at t.cu:6, never: `switch (threads)` at t.cu:5 goes to `case 256:`");
  // A value no case names goes to `default`, or past every case.
  EXPECT_EQ(shown(launchOfK(inMain("int threads = 64;\n" + choose.substr(choose.find('\n') + 1))).block), "128,1,1");
  EXPECT_EQ(launchesIn("switch (3) { case 1: k<<<1, 32>>>(x); }\nk<<<1, 32>>>(x);"), 1u);
  // Labels fall through to the next statement, and through plain statements.
  EXPECT_EQ(launchesIn("switch (1) { case 1: case 2: k<<<1, 32>>>(x); }"), 1u);
  EXPECT_EQ(launchesIn("switch (1) { case 0: k<<<1, 32>>>(x); break; case 1: x[0] = 2; case 2: k<<<1, 32>>>(x); }\n"
                       "k<<<1, 32>>>(x);"),
            2u);
  // A braced case ending in `break` stops there; one that may leave the switch, or a label
  // that does not fold, leaves the site counted.
  EXPECT_EQ(launchesIn("switch (0) { case 0: { k<<<1, 32>>>(x); break; } case 1: k<<<1, 32>>>(x); }"), 1u);
  EXPECT_EQ(launchesIn("switch (0) { case 0: if (rand()) break; k<<<1, 32>>>(x); }\nk<<<1, 32>>>(x);"), 2u);
  EXPECT_EQ(launchesIn("switch (0) { case WIDE: k<<<1, 32>>>(x); }\nk<<<1, 32>>>(x);"), 2u);
  EXPECT_EQ(launchesIn("switch (rand()) { case 0: k<<<1, 32>>>(x); }\nk<<<1, 32>>>(x);"), 2u);
  // A case the value does not lead to changes nothing; the one it leads to gives the value.
  EXPECT_EQ(gridAfter("const int mode = 0;\nint n = 4096;\nswitch (mode) { case 0: n = 512; break; default: n = 1024; }"),
            "2,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nswitch (2) { case 0: n = 512; break; case 1: { n = 1024; } }"), "16,1,1");
  // A character's label is its code; `default` is found by its word, wherever it stands.
  EXPECT_EQ(gridAfter("int n = 4096;\nswitch (3) { default: break; case 'a': n = 512; }"), "16,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nswitch (97) { default: break; case 'a': n = 512; }"), "2,1,1");
  // A character in a longer label is its code too; one without a code leaves the jump open.
  EXPECT_EQ(gridAfter("int n = 4096;\nswitch (98) { case 'a' + 1: n = 512; }"), "2,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nswitch (97) { case 'a' + 1: n = 512; }"), "16,1,1");
  EXPECT_EQ(gridAfter("int n = 4096;\nswitch (97) { case 'ab': n = 512; }"), "none");
  // Not where the switch may jump past the assignment to the use, or leave before it.
  EXPECT_EQ(gridAfter("int n = 4096;\nswitch (0) { case 0: if (rand()) break; n = 512; }"), "none");
  EXPECT_EQ(shown(launchOfK(inMain("int n = 4096;\nswitch (1) { case 0: n = 512; case 1: k<<<n / 256, 256>>>(x); }"))
                      .grid),
            "none");
}

TEST(CudaHostLoopsTest, ManyLaunchSitesAreSummedAndTheFirstNamed) {
  std::string body;
  for (int site = 0; site < 6; ++site)
    body += "for (int t = 0; t < 2; t++) k<<<1, 32>>>(x);\n";
  const ptx::analysis::SourceLaunch launch = launchOfK(inMain(body));
  EXPECT_EQ(launch.launches, 12u);
  EXPECT_NE(launch.launchesWhy.find("2 at t.cu:6, in `for (int t = 0; t < 2; t++)` at t.cu:6 (2 times); and 2 "
                                    "more launch sites"),
            std::string::npos)
      << launch.launchesWhy;
}

} // namespace
} // namespace ptxdvfs::tools
