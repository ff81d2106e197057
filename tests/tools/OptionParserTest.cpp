// OptionParserTest.cpp - SHOC's OptionParser: an option's value is the
// default its addOption declaration gives, or what the command line
// (--program-args) gives it.
#include "CudaOptionParser.h"
#include "CudaSource.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

/// A benchmark's options, declared as SHOC's benchmarks declare theirs.
const std::string kDeclared = "void addBenchmarkSpecOptions(OptionParser &op) {\n"
                              "  op.addOption(\"passes\", OPT_INT, \"8\", \"how many times to run\");\n"
                              "  op.addOption(\"n\", OPT_INT, \"4096\", \"elements\", 'n');\n"
                              "  op.addOption(\"verbose\", OPT_BOOL, \"false\", \"print more\", 'v');\n"
                              "  op.addOption(\"scale\", OPT_FLOAT, \"0.5\", \"block scale\");\n"
                              "}\n";

/// Its run: the size and the passes read from the parser.
const std::string kRun = "OptionParser op;\nint n = op.getOptionInt(\"n\");\n"
                         "for (int t = 0; t < op.getOptionInt(\"passes\"); t++) k<<<n / 256, 256>>>(x);";

TEST(OptionParserTest, DeclarationsAreReadWithTheirDefaultsAndLetters) {
  const std::string text = kDeclared + "op.addOption(name, OPT_INT, \"1\");\nop.addOption(\"s\", OPT_INT, \"1\", "
                                       "\"help\", c);\nop.addOption(\"t\", kind, \"1\");\n";
  const std::vector<ParserOption> options = parserOptionsIn(codeOf(text), text);
  ASSERT_EQ(options.size(), 5u); // the name, the letter not plain; `kind` is a type
  EXPECT_EQ(options[0].name, "passes");
  EXPECT_EQ(options[0].fallback, "8");
  EXPECT_EQ(options[0].letter, '\0');
  EXPECT_EQ(options[1].letter, 'n');
  EXPECT_EQ(options[2].type, "OPT_BOOL");
  EXPECT_EQ(options[3].fallback, "0.5");
  EXPECT_EQ(options[4].name, "t");
}

TEST(OptionParserTest, ReadsGiveTheDefaultOrWhatTheArgumentsGive) {
  EXPECT_EQ(runWith({}, kRun, nullptr, kDeclared), "16,1,1 x 256,1,1, 8"); // run bare: the defaults
  EXPECT_EQ(runWith({"--passes", "3", "-n", "8192"}, kRun, nullptr, kDeclared), "32,1,1 x 256,1,1, 3");
  EXPECT_EQ(runWith({"-v", "--n", "1024", "--verbose", "--n", "2048"}, kRun, nullptr, kDeclared),
            "8,1,1 x 256,1,1, 8"); // flags take no value; the last -n counts
  EXPECT_EQ(runWith({"input.dat", "--passes", "2"}, kRun, nullptr, kDeclared), "16,1,1 x 256,1,1, 2");
  // An option not declared: whether it takes the next argument is not known, so nothing is read.
  EXPECT_EQ(runWith({"--device", "1", "--passes", "2"}, kRun, nullptr, kDeclared), "none x 256,1,1, 16");
  EXPECT_EQ(runWith({"--passes"}, kRun, nullptr, kDeclared), "none x 256,1,1, 16"); // its value missing
  // Undeclared where the program is read, the option read is known only where the arguments give it.
  EXPECT_EQ(runWith({}, kRun), "none x 256,1,1, 16");
  EXPECT_EQ(runWith({"--n", "8192"}, kRun), "32,1,1 x 256,1,1, 16");                // `passes` does not know `--n`
  EXPECT_EQ(runWith({"--n", "8192", "--passes", "2"}, kRun), "none x 256,1,1, 16"); // nor `n` `--passes`
}

TEST(OptionParserTest, FloatsAndFlagsConvertAsTheParserDoes) {
  const std::string scaled = "OptionParser *op = parser();\nint b = 512 * op->getOptionFloat(\"scale\");\n"
                             "if (op->getOptionBool(\"verbose\")) b = 64;\nk<<<8, b>>>(x);";
  EXPECT_EQ(runWith({}, scaled, nullptr, kDeclared), "8,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"--scale", "0.25"}, scaled, nullptr, kDeclared), "8,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({"--scale", "2", "-v"}, scaled, nullptr, kDeclared), "8,1,1 x 64,1,1, 1");
  // A read through another member, and an option named by a variable, are not replaced.
  EXPECT_EQ(runWith({}, "int n = this->op.getOptionInt(\"n\");\nk<<<n / 256, 256>>>(x);", nullptr, kDeclared),
            "none x 256,1,1, 1");
  EXPECT_EQ(
      runWith({}, "const char *o = \"n\";\nint n = op.getOptionInt(o);\nk<<<n / 256, 256>>>(x);", nullptr, kDeclared),
      "none x 256,1,1, 1");
}

TEST(OptionParserTest, AFloatStaysAFloat) {
  // 4.0 read as the integer 4 would make 4097 / 4 integer division: 1024, not 1024.25 rounded up.
  const std::string text = "op.addOption(\"d\", OPT_FLOAT, \"4.0\", \"divisor\");\nint g = ceil(4097 / "
                           "op.getOptionFloat(\"d\"));";
  const std::string code = withOptionParserReads(codeOf(text), text, parserOptionsIn(codeOf(text), text), {});
  EXPECT_NE(code.find("4097 / (4.0)"), std::string::npos) << code;
  EXPECT_EQ(code.size(), text.size()); // offsets kept
}

TEST(OptionParserTest, ReadsOfOptionsNoneDeclaresAreListed) {
  // The driver that declares `size` and `passes` is not among the files read: their reads are listed, once
  // each read, unless the arguments give the option (then it is known, if no other undeclared one is given).
  const std::string text = "op.addOption(\"n\", OPT_INT, \"8\", \"elements\");\nint s = op.getOptionInt(\"size\");\n"
                           "int n = op.getOptionInt(\"n\");\nfor (; p < op->getOptionInt(\"passes\");) {}";
  const auto undeclaredWith = [&](const std::vector<std::string> &arguments) {
    std::vector<UndeclaredOptionRead> undeclared;
    withOptionParserReads(codeOf(text), text, parserOptionsIn(codeOf(text), text), arguments, &undeclared);
    std::string listed;
    for (const UndeclaredOptionRead &read : undeclared)
      listed += read.name + "@" + std::to_string(read.offset) + " ";
    return listed;
  };
  const std::size_t size = text.find("getOptionInt(\"size"), passes = text.find("getOptionInt(\"passes");
  EXPECT_EQ(undeclaredWith({}), "size@" + std::to_string(size) + " passes@" + std::to_string(passes) + " ");
  EXPECT_EQ(undeclaredWith({"--size", "2"}), "passes@" + std::to_string(passes) + " ");
  EXPECT_EQ(undeclaredWith({"--n", "4"}), "size@" + std::to_string(size) + " passes@" + std::to_string(passes) + " ");
}

} // namespace
} // namespace ptxdvfs::tools
