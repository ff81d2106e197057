// GlobalSetUpTest.cpp - a global that one set-up function gives its value
// (`rows = atoi(argv[1]);` in `init`), read by the other functions.
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

/// `@` marks where `rows` is read, in `run`, after `setUp`, the body of
/// `init` (called from main), and `main`'s `extra`.
std::string rowsAfter(const std::string &setUp, const std::string &extra = "",
                      const std::string &declaration = "int rows;") {
  return folded(declaration + "\nvoid init(int argc) {\n" + setUp + "\n}\nvoid run() { @ }\n" +
                    "int main(int argc, char **argv) {\n  init(argc);\n  run();\n" + extra + "\n}\n",
                "rows");
}

TEST(GlobalSetUpTest, TheAssignmentOfItsOneSetUpFunction) {
  EXPECT_EQ(rowsAfter("rows = 64;"), "64,1,1");
  EXPECT_EQ(rowsAfter("rows = 1 << 6;", "", "int rows = 8;"), "64,1,1"); // its declared value is replaced
  // The branch the run takes (argc is 1).
  EXPECT_EQ(rowsAfter("if (argc == 2) {\n  rows = 32;\n} else {\n  rows = 64;\n}"), "64,1,1");
  EXPECT_EQ(rowsAfter("if (argc == 1)\n  rows = 64;"), "64,1,1");
  // Declared in a list, after a directive line (`int cols = 3, rows;` read as an expression before).
  EXPECT_EQ(rowsAfter("rows = 64;", "", "#include <cstdio>\nint cols = 3, rows;"), "64,1,1");
  EXPECT_EQ(rowsAfter("rows = 64;", "", "int cols = 3, rows = 8;"), "64,1,1"); // `rows = 8` is no change
  EXPECT_EQ(rowsAfter("rows = 64;", "", "#define N 4\nint cols[N], rows = 8;"), "64,1,1");
  // Of those that run, the last written.
  EXPECT_EQ(rowsAfter("if (argc == 1)\n  rows = 64;\nelse\n  rows = 32;\nrows = 16;"), "16,1,1");
  // A `return` that runs before the change leaves the declared value (argc is 1).
  EXPECT_EQ(rowsAfter("if (argc < 2)\n  return;\nrows = 64;", "", "int rows = 8;"), "8,1,1");
  EXPECT_EQ(rowsAfter("if (argc > 2)\n  return;\nrows = 64;", "", "int rows = 8;"), "64,1,1");
  // No change runs: the value it is declared with.
  EXPECT_EQ(rowsAfter("if (argc == 2)\n  rows = 64;", "", "int rows = 8;"), "8,1,1");
  EXPECT_EQ(rowsAfter("if (argc == 2)\n  rows = 64;"), "none"); // declared without one
  // Set in main, read in a function it calls.
  EXPECT_EQ(folded("int rows;\nvoid run() { @ }\nint main() {\n  rows = 128;\n  run();\n}\n", "rows"), "128,1,1");
}

TEST(GlobalSetUpTest, AGlobalMainSetsIsReadAsEachCallSeesIt) {
  // A helper called before `main` changes the global reads its declared value; one called after, the change.
  const std::string scaled = "int scale = 1;\nint sized(int n) {\n  int m = n * scale;\n  return m;\n}\n";
  EXPECT_EQ(launchedWith(scaled + "int main() {\n  float *x;\n  int a = sized(1024);\n  k<<<a / 256, 256>>>(x);\n"
                                  "  scale = 4;\n}\n"),
            "4,1,1 x 256,1,1");
  EXPECT_EQ(launchedWith(scaled + "int main() {\n  float *x;\n  scale = 4;\n  int b = sized(1024);\n"
                                  "  k<<<b / 256, 256>>>(x);\n}\n"),
            "16,1,1 x 256,1,1");
  // One call before and one after, read together (a body of one `return`, its calls not told apart), or a
  // call in a loop that also changes it: open.
  EXPECT_EQ(folded("int scale = 1;\nint sized() { return 1024 * scale; }\nvoid run() { @ }\n"
                   "int main() {\n  sized();\n  scale = 4;\n  sized();\n  run();\n}\n",
                   "sized()"),
            "none");
  EXPECT_EQ(folded("int scale = 1;\nvoid run() { @ }\nint main() {\n  for (int i = 0; i < 2; i++) {\n    run();\n"
                   "    scale = 4;\n  }\n}\n",
                   "scale * 64"),
            "none");
}

TEST(GlobalSetUpTest, AGlobalMainSetsAndReadsKeepsItsDeclaredValueWhereNoChangeRuns) {
  const std::string global = "int n = 1 << 16;\n";
  const std::string overridden = "if (argc > 1)\n  n = atoi(argv[1]);\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({}, overridden, nullptr, global), "256,1,1 x 256,1,1, 1"); // run bare
  EXPECT_EQ(runWith({"4096"}, overridden, nullptr, global), "16,1,1 x 256,1,1, 1");
  // Changed after the launch: later. In a loop around the launch: a later pass sees it.
  EXPECT_EQ(runWith({}, "k<<<n / 256, 256>>>(x);\nn = 1024;", nullptr, global), "256,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({}, "for (int i = 0; i < 2; i++) {\n  k<<<n / 256, 256>>>(x);\n  n = 1024;\n}", nullptr, global),
            "none x 256,1,1, 2");
}

TEST(GlobalSetUpTest, AnOptionLoopOfTheSetUpGivesWhatItsRunSets) {
  const std::string parse = "int rows = 1 << 16;\nvoid parse(int argc, char **argv) {\n"
                            "  for (int i = 1; i < argc; ++i)\n"
                            "    if (!strcmp(argv[i], \"-n\") && i + 1 < argc) rows = atoi(argv[++i]);\n}\n";
  const std::string launch = "parse(argc, argv);\nk<<<rows / 256, 256>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"-v", "-n", "4096"}, launch, &how, parse), "16,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("global `rows` set at t.cu:4 in `parse`"), std::string::npos) << how;
  EXPECT_EQ(runWith({"-v"}, launch, nullptr, parse), "256,1,1 x 256,1,1, 1"); // no pass sets it
  EXPECT_EQ(runWith({}, launch, nullptr, parse), "256,1,1 x 256,1,1, 1");
  // Open: an option the loop stops at, or a plain change besides the loop's.
  const std::string stops =
      "int rows = 1 << 16;\nvoid parse(int argc, char **argv) {\n"
      "  for (int i = 1; i < argc; ++i)\n    if (!strcmp(argv[i], \"-n\")) rows = atoi(argv[++i]);\n"
      "    else return;\n}\n";
  EXPECT_EQ(runWith({"-v", "-n", "4096"}, launch, nullptr, stops), "none x 256,1,1, 1");
  // Set before the loop too: the loop's pass comes later.
  const std::string first =
      "int rows;\nvoid parse(int argc, char **argv) {\n  rows = 1 << 16;\n"
      "  for (int i = 1; i < argc; ++i)\n    if (!strcmp(argv[i], \"-n\")) rows = atoi(argv[++i]);\n}\n";
  EXPECT_EQ(runWith({"-n", "4096"}, launch, nullptr, first), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({}, launch, nullptr, first), "256,1,1 x 256,1,1, 1");
}

TEST(GlobalSetUpTest, OpenWhereTheSetUpIsNotOneValue) {
  EXPECT_EQ(rowsAfter("if (rand())\n  rows = 64;"), "none"); // may not run
  EXPECT_EQ(rowsAfter("for (int i = 0; i < 4; i++)\n  rows = i;"), "none");
  EXPECT_EQ(rowsAfter("rows = 64;\nrows *= 2;"), "none"); // reads itself
  EXPECT_EQ(rowsAfter("rows = 64;", "rows = 32;"), "none"); // two functions change it
  EXPECT_EQ(rowsAfter("rows = 64;", "scanf(\"%d\", &rows);"), "none");
  EXPECT_EQ(rowsAfter("rows = rand();"), "none");
  // A set-up nothing calls, and a read in the set-up before it sets it.
  EXPECT_EQ(folded("int rows;\nvoid init() { rows = 64; }\nvoid run() { @ }\n", "rows"), "none");
  EXPECT_EQ(folded("int rows;\nvoid init() {\n  @\n  rows = 64;\n}\nint main() { init(); }\n", "rows"), "none");
  // A global's initializer runs before any function.
  EXPECT_EQ(folded("int rows;\nvoid init() { rows = 64; }\nint main() { init(); }\nint total = @;\n", "rows"), "none");
}

} // namespace
} // namespace ptxdvfs::tools
