// OutParametersTest.cpp - a size a host function gives back: set through a
// reference parameter (`void sizes(int n, int &blocks, int &threads)`), as
// the CUDA samples' getNumBlocksAndThreads does, or a pointer, or returned
// at the end of a body of several statements; read at the launch that uses it.
#include "CudaLaunches.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

const std::string kSizes = "void sizes(int n, int maxBlocks, int &blocks, int &threads) {\n"
                           "  threads = n < 512 ? 64 : 256;\n"
                           "  blocks = (n + threads - 1) / threads;\n"
                           "  blocks = std::min(maxBlocks, blocks);\n"
                           "}\n";

/// "GRID x BLOCK" that `main`'s `body` launches kernel `k` with, after `kSizes` and `functions`.
std::string launchedAfter(const std::string &body, const std::string &functions = "") {
  return launchedWith(kSizes + functions + inMain(body));
}

TEST(OutParametersTest, AReferenceParameterGivesTheValueItsFunctionLeaves) {
  EXPECT_EQ(launchedAfter("int blocks = 0, threads = 0;\nsizes(1 << 20, 64, blocks, threads);\n"
                          "k<<<blocks, threads>>>(x);"),
            "64,1,1 x 256,1,1");
  EXPECT_EQ(launchedAfter("int blocks = 0, threads = 0;\nsizes(300, 64, blocks, threads);\n"
                          "k<<<blocks, threads>>>(x);"),
            "5,1,1 x 64,1,1");
  std::string how;
  EXPECT_EQ(launchedWith(kSizes + "int main() { float *x; int b = 0, t = 0;\n  sizes(1 << 20, 64, b, t);\n"
                                  "  k<<<b, t>>>(x); }\n",
                         &how),
            "64,1,1 x 256,1,1");
  EXPECT_NE(how.find("`t` = 256, as `sizes` at t.cu:7 sets it"), std::string::npos) << how;
}

TEST(OutParametersTest, ADim3ReferenceGivesItsSizes) {
  const std::string setup = "void setup(int n, dim3 &grid, dim3 &block) {\n"
                            "  block = dim3(16, 16);\n  grid = dim3(n / block.x, n / block.y);\n}\n";
  const auto launches = launchesOf({"k"}, setup + "int main() { float *x; dim3 g, b;\n  setup(1024, g, b);\n"
                                                  "  k<<<g, b>>>(x); }\n");
  ASSERT_EQ(launches.count("k"), 1u);
  EXPECT_EQ(shown(launches.at("k").grid), "64,64,1");
  EXPECT_EQ(shown(launches.at("k").block), "16,16,1");
}

TEST(OutParametersTest, APointerParameterGivesWhatItsFunctionStoresThere) {
  // C's way: `&blocks` passed for `int *blocks`, set by `*blocks = ...;`.
  const std::string cSizes = "void cSizes(int n, int *blocks, int *threads) {\n"
                             "  *threads = n < 512 ? 64 : 256;\n"
                             "  *blocks = (n + *threads - 1) / *threads;\n"
                             "}\n";
  EXPECT_EQ(launchedAfter("int blocks = 0, threads = 0;\ncSizes(1 << 20, &blocks, &threads);\n"
                          "k<<<blocks, threads>>>(x);",
                          cSizes),
            "4096,1,1 x 256,1,1");
  EXPECT_EQ(launchedAfter("dim3 g;\nsetup(1 << 16, &g);\nk<<<g, 256>>>(x);",
                          "void setup(int n, dim3 *grid) { *grid = dim3(n / 256); }\n"),
            "256,1,1 x 256,1,1");
  // Not read: set in a loop, through `(*p)++`, or passed on.
  EXPECT_EQ(launchedAfter("int t = 32;\ngrow(&t);\nk<<<8, t>>>(x);",
                          "void grow(int *t) { for (int i = 0; i < 3; ++i) *t *= 2; }\n"),
            "8,1,1 x none");
  EXPECT_EQ(launchedAfter("int t = 0;\nbump(&t);\nk<<<8, t>>>(x);", "void bump(int *t) { *t = 32; (*t)++; }\n"),
            "8,1,1 x none");
  EXPECT_EQ(launchedAfter("int t = 64;\npass(&t);\nk<<<8, t>>>(x);",
                          "void fill(int *t);\nvoid pass(int *t) { fill(t); }\n"),
            "8,1,1 x none");
  // Never set there: the caller's value.
  EXPECT_EQ(launchedAfter("int t = 64;\nkeep(&t);\nk<<<8, t>>>(x);", "void keep(int *t) { }\n"), "8,1,1 x 64,1,1");
  // A pointer variable passed for the pointer parameter is not the variable launched with.
  EXPECT_EQ(launchedAfter("int t = 64; int *p = &t;\nodd(p);\nk<<<8, t>>>(x);",
                          "void odd(int *t) { *t = 128; }\n"),
            "8,1,1 x none");
}

TEST(OutParametersTest, ABodyOfSeveralStatementsReturnsWhatItsLastStatementReturns) {
  const std::string blocksFor = "int blocksFor(int n) {\n  int threads = 256;\n  return (n + threads - 1) / threads;\n}\n";
  EXPECT_EQ(launchedAfter("k<<<blocksFor(1 << 20), 256>>>(x);", blocksFor), "4096,1,1 x 256,1,1");
  // Converted to its return type.
  EXPECT_EQ(launchedAfter("k<<<half(129), 32>>>(x);", "int half(float v) {\n  float h = v / 2;\n  return h;\n}\n"),
            "64,1,1 x 32,1,1");
  // Before the value is used again: 64 * 2, where the unconverted 64.5 * 2 would read 129.
  EXPECT_EQ(launchedAfter("k<<<half(129) * 2, 32>>>(x);",
                          "static inline int half(float v) {\n  float h = v / 2;\n  return h;\n}\n"),
            "128,1,1 x 32,1,1");
  // An options struct returned by a parser of the command line, run without arguments.
  EXPECT_EQ(launchedAfter("Options o = parse(argc, argv);\nk<<<o.n / o.block, o.block>>>(x);",
                          "struct Options { int n = 1 << 20; int block = 128; };\n"
                          "Options parse(int argc, char **argv) {\n  Options o;\n"
                          "  for (int i = 1; i < argc; ++i) o.n = atoi(argv[i]);\n  return o;\n}\n"),
            "8192,1,1 x 128,1,1");
  // A helper that returns a dim3 gives a grid.
  EXPECT_EQ(launchedAfter("k<<<gridFor(1 << 20), blockFor()>>>(x);",
                          "dim3 blockFor() { return dim3(16, 16); }\n"
                          "dim3 gridFor(int n) {\n  dim3 g((n + 255) / 256);\n  return g;\n}\n"),
            "4096,1,1 x 16,16,1");
  // Calls that pass different values: each is read for its own.
  EXPECT_EQ(launchedAfter("int small = blocksFor(512);\nk<<<blocksFor(1 << 20), 256>>>(x);", blocksFor),
            "4096,1,1 x 256,1,1");
  // Open: a return before the body's end.
  EXPECT_EQ(launchedAfter("k<<<early(64), 32>>>(x);", "int early(int n) {\n  return n;\n  n = 2;\n}\n"),
            "none x 32,1,1");
}

TEST(OutParametersTest, OfSeveralReturnsTheOneTheBodyReaches) {
  const std::string pick = "int pick(int n) {\n  if (n > 4) return 8;\n  return 4;\n}\n";
  EXPECT_EQ(launchedAfter("k<<<pick(64), 32>>>(x);", pick), "8,1,1 x 32,1,1");
  EXPECT_EQ(launchedAfter("k<<<pick(2), 32>>>(x);", pick), "4,1,1 x 32,1,1"); // past a branch not taken
  EXPECT_EQ(launchedAfter("k<<<pick(2), 32>>>(x);", "int pick(int n) {\n  if (n > 4)\n    return 8;\n  else {\n"
                                                    "    int m = n * 2;\n    return m;\n  }\n}\n"),
            "4,1,1 x 32,1,1");
  // Open: the first one's branch is not known, one is in a loop, or none is reached.
  EXPECT_EQ(launchedAfter("k<<<pick(2), 32>>>(x);", "int pick(int n) {\n  if (rand()) return 8;\n  return 4;\n}\n"),
            "none x 32,1,1");
  EXPECT_EQ(launchedAfter("k<<<pick(2), 32>>>(x);", "int pick(int n) {\n  for (int i = 0; i < n; ++i)\n"
                                                    "    if (i == 1) return i;\n  return 4;\n}\n"),
            "none x 32,1,1");
  EXPECT_EQ(launchedAfter("k<<<pick(2), 32>>>(x);",
                          "int pick(int n) {\n  if (n > 50) return 8;\n  else if (n > 40) return 4;\n}\n"),
            "none x 32,1,1");
  const std::string guarded = "int pick(int n) {\n  if (n > 4) {\n    return 8;\n  }\n}\n";
  EXPECT_EQ(launchedAfter("k<<<pick(64), 32>>>(x);", guarded), "8,1,1 x 32,1,1");
  EXPECT_EQ(launchedAfter("k<<<pick(2), 32>>>(x);", guarded), "none x 32,1,1"); // falls off its end
}

TEST(OutParametersTest, AHelperThatReadsTheCommandLineReturnsWhatTheRunGivesIt) {
  // `argv` does not fold: the helper's parameters are read at its calls, as main passes them.
  const std::string early = "int sizeFrom(int argc, char **argv) {\n  if (argc > 1)\n    return atoi(argv[1]);\n"
                            "  return 1 << 16;\n}\n";
  const std::string launch = "int n = sizeFrom(argc, argv);\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({}, launch, nullptr, early), "256,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"4096"}, launch, nullptr, early), "16,1,1 x 256,1,1, 1");
  const std::string last = "int sizeFrom(int argc, char **argv) {\n  int n = 1 << 16;\n"
                           "  if (argc > 1) n = atoi(argv[1]);\n  return n;\n}\n";
  EXPECT_EQ(runWith({"4096"}, launch, nullptr, last), "16,1,1 x 256,1,1, 1");
  // No arguments at all, `elements()`, whether its body is one `return` or several statements.
  EXPECT_EQ(launchedAfter("k<<<elements() / 256, 256>>>(x);", "int elements() { return 1 << 12; }\n"),
            "16,1,1 x 256,1,1");
  EXPECT_EQ(launchedAfter("k<<<elements() / 256, 256>>>(x);", "int elements() {\n  int n = 1 << 12;\n  return n;\n}\n"),
            "16,1,1 x 256,1,1");
}

TEST(OutParametersTest, EachCallOfAHelperReturnsWhatItsOwnArgumentsMakeIt) {
  // Two calls pass different values: each one's statement reads the body for that call alone.
  const std::string clamp = "int clampTo(int value, int most) {\n  if (value > most)\n    return most;\n"
                            "  return value;\n}\n";
  EXPECT_EQ(launchedAfter("int blocks = clampTo(4096, 1024);\nint threads = clampTo(128, 256);\n"
                          "k<<<blocks, threads>>>(x);",
                          clamp),
            "1024,1,1 x 128,1,1");
  // Reading the command line, run bare: each call returns its own default.
  const std::string lookup = "int intArg(int argc, char **argv, int def) {\n  if (argc > 1)\n"
                             "    return atoi(argv[1]);\n  return def;\n}\n";
  const std::string launch = "int n = intArg(argc, argv, 1 << 16);\nint block = intArg(argc, argv, 128);\n"
                             "k<<<n / block, block>>>(x);";
  EXPECT_EQ(runWith({}, launch, nullptr, lookup), "512,1,1 x 128,1,1, 1");
  // A positional argument's helper, `argv` passed on: each call reads its own index and default.
  const std::string positional = "static int argOr(int argc, char **argv, int index, int def) {\n"
                                 "  return argc > index ? atoi(argv[index]) : def;\n}\n";
  const std::string sizes = "int n = argOr(argc, argv, 1, 1 << 16);\nint block = argOr(argc, argv, 2, 128);\n"
                            "k<<<n / block, block>>>(x);";
  EXPECT_EQ(runWith({}, sizes, nullptr, positional), "512,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({"4096"}, sizes, nullptr, positional), "32,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({"4096", "64"}, sizes, nullptr, positional), "64,1,1 x 64,1,1, 1");
  // A dim3, and a struct's member, each read for its own call.
  EXPECT_EQ(launchedAfter("dim3 small = gridFor(512);\nk<<<gridFor(1 << 20), 256>>>(x);",
                          "dim3 gridFor(int n) {\n  dim3 g((n + 255) / 256);\n  return g;\n}\n"),
            "4096,1,1 x 256,1,1");
  EXPECT_EQ(launchedAfter("Sizes big = sizesFor(1 << 20);\nSizes small = sizesFor(1024);\n"
                          "k<<<big.n / big.block, small.block>>>(x);",
                          "struct Sizes { int n; int block; };\nSizes sizesFor(int n) {\n  Sizes s;\n  s.n = n;\n"
                          "  s.block = n < 4096 ? 64 : 256;\n  return s;\n}\n"),
            "4096,1,1 x 64,1,1");
  // A call whose argument is another call's result: each read for its own, the inner one inside the outer.
  EXPECT_EQ(launchedAfter("int a = clampTo(8192, 4096);\nint b = clampTo(a, 1024);\nk<<<a / b, b>>>(x);", clamp),
            "4,1,1 x 1024,1,1");
  // A function that calls itself is read no deeper than its first call.
  EXPECT_EQ(launchedAfter("int b = fib(10);\nk<<<b, 32>>>(x);",
                          "int fib(int n) {\n  if (n < 2)\n    return n;\n  return fib(n - 1) + fib(n - 2);\n}\n"),
            "none x 32,1,1");
  // Two calls in one statement: which one the fold asks about is not known, and they disagree.
  EXPECT_EQ(launchedAfter("k<<<clampTo(4096, 1024) / clampTo(4, 8), 32>>>(x);", clamp), "none x 32,1,1");
}

TEST(OutParametersTest, TheReasonNamesOnlyTheSideOfAConditionalThatRuns) {
  const std::string sizeOr = "int sizeOr(int argc, char **argv, int d) {\n  return argc > 1 ? atoi(argv[1]) : d;\n}\n";
  const std::string launch = "int n = sizeOr(argc, argv, 1 << 16);\nk<<<n / 256, 256>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"4096"}, launch, &how, sizeOr), "16,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("`argv[1]` = 4096"), std::string::npos) << how;
  EXPECT_EQ(how.find("`d` ="), std::string::npos) << how; // folded for its type only
  EXPECT_EQ(runWith({}, launch, &how, sizeOr), "256,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("`d` = 65536"), std::string::npos) << how;
  // The right of an `&&` the left decides is not evaluated either.
  const std::string third = "int n = 1 << 16;\nif (argc > 3 && atoi(argv[1]) > 0)\n  n = atoi(argv[3]);\n"
                            "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"4096"}, third, &how), "256,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("is false"), std::string::npos) << how;
  EXPECT_EQ(how.find("`argv[1]` ="), std::string::npos) << how;
}

TEST(OutParametersTest, AnEarlyReturnThatRunsLeavesWhatWasSetBeforeIt) {
  // Run bare, `sizes` returns before it sets n (read as set before: 16 blocks).
  const std::string sizes = "void sizes(int argc, int &n) {\n  if (argc < 2)\n    return;\n  n = 4096;\n}\n";
  const std::string launch = "int n = 1 << 16;\nsizes(argc, n);\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({}, launch, nullptr, sizes), "256,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-v"}, launch, nullptr, sizes), "16,1,1 x 256,1,1, 1");
  // A result and an out-parameter: `return false;` before the change, `return true;` after it.
  const std::string parse = "bool parse(int argc, char **argv, int &n) {\n  if (argc < 2) return false;\n"
                            "  n = atoi(argv[1]);\n  return true;\n}\n";
  const std::string parsed = "int n = 1 << 16;\nparse(argc, argv, n);\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({}, parsed, nullptr, parse), "256,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"4096"}, parsed, nullptr, parse), "16,1,1 x 256,1,1, 1");
  // Through a pointer, C's way, the call in an `if`'s condition: run bare, `*n` is never set.
  const std::string pointer = "bool parse(int argc, char **argv, int *n) {\n  if (argc < 2) return false;\n"
                              "  *n = atoi(argv[1]);\n  return *n > 0;\n}\n";
  const std::string checked = "int n = 1 << 16;\nif (!parse(argc, argv, &n))\n  n = 1 << 16;\nk<<<n / 256, 256>>>(x);";
  const std::string unchecked = "int n = 1 << 16;\nparse(argc, argv, &n);\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({}, unchecked, nullptr, pointer), "256,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"4096"}, unchecked, nullptr, pointer), "16,1,1 x 256,1,1, 1");
  // Its result folds too: `return *n > 0;` is true with 4096, so the fallback is not taken.
  EXPECT_EQ(runWith({"4096"}, checked, nullptr, pointer), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"0"}, checked, nullptr, pointer), "256,1,1 x 256,1,1, 1");
  // Open: a return that may or may not run.
  EXPECT_EQ(
      runWith({}, launch, nullptr, "void sizes(int argc, int &n) {\n  if (rand())\n    return;\n  n = 4096;\n}\n"),
      "none x 256,1,1, 1");
}

TEST(OutParametersTest, WhatACallCannotChangeKeepsItsValue) {
  // By value, or by const reference: the caller's variable keeps its value.
  const std::string byValue = "void widen(int threads) { threads = 1024; }\n"
                              "void show(const int &threads) {}\n";
  EXPECT_EQ(launchedAfter(byValue + "int blocks = 8, threads = 32;\nwiden(threads);\nshow(threads);\n"
                                    "k<<<blocks, threads>>>(x);"),
            "8,1,1 x 32,1,1");
  // By address, to a function that takes a pointer to const, in each declaration that fits the call.
  for (const char *declared : {"void show(const int *t) {}\n", "void show(int const *t);\n",
                               "void show(const int *t);\nvoid show(int *t, int n);\n"})
    EXPECT_EQ(launchedAfter("int threads = 32;\nshow(&threads);\nk<<<8, threads>>>(x);", declared), "8,1,1 x 32,1,1")
        << declared;
  // Not where a const pointer may point at what it changes, or an overload of the call's arity may change it.
  for (const char *declared : {"void show(int *const t);\n", "void show(const int *t);\nvoid show(int *t);\n"})
    EXPECT_EQ(launchedAfter("int threads = 32;\nshow(&threads);\nk<<<8, threads>>>(x);", declared), "8,1,1 x none")
        << declared;
  // A call the program run without arguments does not make changes nothing.
  EXPECT_EQ(launchedAfter("int blocks = 8, threads = 32;\nif (argc > 1) sizes(1 << 20, 64, blocks, threads);\n"
                          "k<<<blocks, threads>>>(x);"),
            "8,1,1 x 32,1,1");
  EXPECT_EQ(launchedAfter("int blocks = 8, threads = 32;\nif (argc > 1)\n"
                          "  sizes(1 << 20, 64,\n        blocks, threads);\nk<<<blocks, threads>>>(x);"),
            "8,1,1 x 32,1,1");
  // One it may make leaves the size open.
  EXPECT_EQ(launchedAfter("int blocks = 8, threads = 32;\nif (x)\n  sizes(1 << 20, 64, blocks, threads);\n"
                          "k<<<blocks, threads>>>(x);"),
            "none x none");
}

TEST(OutParametersTest, AFunctionOnlyDeclaredMayChangeWhatItTakesByReference) {
  // Defined in a library or a file not read: its prototype says what it may change, not what it leaves.
  EXPECT_EQ(launchedAfter("int blocks = 8, threads = 32;\nreadSizes(blocks, threads);\nk<<<blocks, threads>>>(x);",
                          "void readSizes(int &, int &threads);\n"),
            "none x none");
  EXPECT_EQ(launchedAfter("int blocks = 8, threads = 32;\nreport(blocks, threads);\nk<<<blocks, threads>>>(x);",
                          "void report(int blocks, const int &threads);\n"),
            "8,1,1 x 32,1,1");
  // The standard library's, whose headers are not read: swapped, exchanged, tied, parsed into.
  for (const char *call : {"std::swap(blocks, threads);", "swap(threads, blocks);", "std::exchange(threads, 64);",
                           "std::tie(blocks, threads) = sizesOf(n);"})
    EXPECT_EQ(launchedAfter(std::string("int n = 4, blocks = 8, threads = 32;\n") + call + "\nk<<<8, threads>>>(x);"),
              "8,1,1 x none")
        << call;
  EXPECT_EQ(launchedAfter("int threads = 32;\nstd::from_chars(s, s + 3, threads);\nk<<<8, threads>>>(x);"),
            "8,1,1 x none");
  // Read, not changed: an argument that is not the one it changes, or not the whole argument.
  EXPECT_EQ(launchedAfter("int threads = 32;\nint old = std::exchange(last, threads);\nk<<<8, threads>>>(x);"),
            "8,1,1 x 32,1,1");
  EXPECT_EQ(launchedAfter("int threads = 32;\nswap(a[threads], b);\nk<<<8, threads>>>(x);"), "8,1,1 x 32,1,1");
  // A global such a function may set is not its initialiser either.
  EXPECT_EQ(launchedAfter("parseOptions(argc, argv, gThreads);\nk<<<8, gThreads>>>(x);",
                          "int gThreads = 64;\nstatic bool parseOptions(int argc, char **argv, int &threads);\n"),
            "8,1,1 x none");
  EXPECT_EQ(launchedAfter("k<<<8, gThreads>>>(x);",
                          "int gThreads = 64;\nstatic bool parseOptions(int argc, char **argv, int &threads);\n"),
            "8,1,1 x 64,1,1");
}

TEST(OutParametersTest, ACallWhoseEffectIsNotReadLeavesTheSizeOpen) {
  // Set in a loop the program may run any number of times, or by one of two overloads that may change it: not
  // known. (A counted loop is followed: 32 doubled 3 times.)
  const std::string looped = "void grow(int &threads) { for (int i = 0; i < rand(); ++i) threads *= 2; }\n"
                             "int main() { float *x; int threads = 32;\n  grow(threads);\n  k<<<8, threads>>>(x); }\n";
  EXPECT_EQ(shown(launchesOf({"k"}, looped).at("k").block), "none");
  const std::string counted = "void grow(int &threads) { for (int i = 0; i < 3; ++i) threads *= 2; }\n"
                              "int main() { float *x; int threads = 32;\n  grow(threads);\n  k<<<8, threads>>>(x); }\n";
  EXPECT_EQ(shown(launchesOf({"k"}, counted).at("k").block), "256,1,1");
  const std::string overloaded = "void pick(int &threads) { threads = 64; }\nvoid pick(float *p) {}\n"
                                 "void pick(long &threads, int extra) { threads = 128; }\n"
                                 "int main() { float *x; int threads = 32;\n  pick(threads);\n  k<<<8, threads>>>(x); }\n";
  EXPECT_EQ(shown(launchesOf({"k"}, overloaded).at("k").block), "64,1,1"); // the one of one argument
  const std::string twoWays = "void pick(int &threads) { threads = 64; }\nvoid pick(long &threads) { threads = 128; }\n"
                              "int main() { float *x; int threads = 32;\n  pick(threads);\n  k<<<8, threads>>>(x); }\n";
  EXPECT_EQ(shown(launchesOf({"k"}, twoWays).at("k").block), "none");
  // Its address in parentheses of no call (the fuzzer's hang: the callee's name was empty).
  EXPECT_EQ(launchedAfter("int threads = 32;\nprint((&threads));\nk<<<8, threads>>>(x);"), "8,1,1 x none");
}

} // namespace
} // namespace ptxdvfs::tools
