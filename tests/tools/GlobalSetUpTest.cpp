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
  // Set in main, read in a function it calls.
  EXPECT_EQ(folded("int rows;\nvoid run() { @ }\nint main() {\n  rows = 128;\n  run();\n}\n", "rows"), "128,1,1");
}

TEST(GlobalSetUpTest, OpenWhereTheSetUpIsNotOneValue) {
  EXPECT_EQ(rowsAfter("if (argc == 1)\n  rows = 64;\nelse\n  rows = 32;\nrows = 16;"), "none"); // two run
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
