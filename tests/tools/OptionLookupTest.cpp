// OptionLookupTest.cpp - helpers that look one option up, each call with
// its own flag and default (`int n = getIntArg(argc, argv, "-n", 4096);`):
// a `return` inside an option loop, and a flag passed as a parameter,
// read as the program runs with --program-args.
#include "CudaStringComparisons.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

/// A C helper that returns the number after the first `name`, else `def`.
const std::string kGetIntArg = "static int getIntArg(int argc, char **argv, const char *name, int def) {\n"
                               "  for (int i = 1; i < argc - 1; i++)\n"
                               "    if (!strcmp(argv[i], name))\n"
                               "      return atoi(argv[i + 1]);\n"
                               "  return def;\n"
                               "}\n";
const std::string kTwoLookups = "int n = getIntArg(argc, argv, \"-n\", 1 << 16);\n"
                                "int block = getIntArg(argc, argv, \"-b\", 128);\n"
                                "k<<<n / block, block>>>(x);";

TEST(OptionLookupTest, EachCallReturnsTheNumberAfterItsOwnFlag) {
  std::string how;
  EXPECT_EQ(runWith({"-b", "64", "-n", "4096"}, kTwoLookups, &how, kGetIntArg), "64,1,1 x 64,1,1, 1");
  EXPECT_NE(how.find("the `return` at t.cu:4 runs in the pass of the option loop at t.cu:2 over `argv[3]` = -n"),
            std::string::npos)
      << how;
  EXPECT_EQ(runWith({"-n", "4096"}, kTwoLookups, nullptr, kGetIntArg), "32,1,1 x 128,1,1, 1");
  // The first `-n` returns: the loop never reaches the second.
  EXPECT_EQ(runWith({"-n", "4096", "-n", "8192"}, kTwoLookups, nullptr, kGetIntArg), "32,1,1 x 128,1,1, 1");
  // No flag among them, or none at all: the loop ends, and each call returns its own default.
  EXPECT_EQ(runWith({"-v", "4096"}, kTwoLookups, nullptr, kGetIntArg), "512,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({}, kTwoLookups, nullptr, kGetIntArg), "512,1,1 x 128,1,1, 1");
  // A flag last, with nothing after it: `i < argc - 1` stops before it.
  EXPECT_EQ(runWith({"-n"}, kTwoLookups, nullptr, kGetIntArg), "512,1,1 x 128,1,1, 1");
}

TEST(OptionLookupTest, AFlagWrittenInTheHelperAndAStdStringFlagAreReadToo) {
  const std::string literal = "int sizeArg(int argc, char **argv) {\n"
                              "  for (int i = 1; i + 1 < argc; ++i) {\n"
                              "    if (strcmp(argv[i], \"--size\") == 0) {\n"
                              "      return atoi(argv[i + 1]);\n"
                              "    }\n"
                              "  }\n"
                              "  return 1 << 16;\n"
                              "}\n";
  const std::string launch = "int n = sizeArg(argc, argv);\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"--size", "4096"}, launch, nullptr, literal), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"--verbose"}, launch, nullptr, literal), "256,1,1 x 256,1,1, 1");
  const std::string cpp = "int intOption(int argc, char **argv, const std::string &flag, int fallback) {\n"
                          "  for (int i = 1; i + 1 < argc; ++i)\n"
                          "    if (argv[i] == flag)\n"
                          "      return std::stoi(argv[i + 1]);\n"
                          "  return fallback;\n"
                          "}\n";
  const std::string lookups = "int n = intOption(argc, argv, \"--n\", 4096);\n"
                              "int block = intOption(argc, argv, \"--block\", 256);\nk<<<n / block, block>>>(x);";
  EXPECT_EQ(runWith({"--block", "32", "--n", "1024"}, lookups, nullptr, cpp), "32,1,1 x 32,1,1, 1");
}

TEST(OptionLookupTest, AFlagsPresenceAndACastArgvAreRead) {
  const std::string hasFlag = "static bool hasFlag(int argc, char **argv, const char *flag) {\n"
                              "  for (int i = 1; i < argc; ++i)\n"
                              "    if (strcmp(argv[i], flag) == 0)\n"
                              "      return true;\n"
                              "  return false;\n"
                              "}\n";
  const std::string large = "int n = hasFlag(argc, argv, \"--large\") ? 1 << 24 : 1 << 16;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({}, large, nullptr, hasFlag), "256,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-v", "--large"}, large, nullptr, hasFlag), "65536,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-v"}, large, nullptr, hasFlag), "256,1,1 x 256,1,1, 1");
  // A helper that takes `const char **`, passed `argv` through a cast.
  const std::string constArgv = "static int intArg(int argc, const char **argv, const char *name, int def) {\n"
                                "  for (int i = 1; i + 1 < argc; ++i)\n"
                                "    if (!strcmp(argv[i], name))\n"
                                "      return atoi(argv[i + 1]);\n"
                                "  return def;\n"
                                "}\n";
  for (const std::string cast : {"(const char **)argv", "const_cast<const char **>(argv)"})
    EXPECT_EQ(runWith({"-n", "4096"}, "int n = intArg(argc, " + cast + ", \"-n\", 1 << 16);\nk<<<n / 256, 256>>>(x);",
                      nullptr, constArgv),
              "16,1,1 x 256,1,1, 1")
        << cast;
}

TEST(OptionLookupTest, AnOptionsLetterPassedAsACharacterIsComparedAsItsCode) {
  const std::string letter = "static int optionValue(int argc, char **argv, char letter, int def) {\n"
                             "  for (int i = 1; i + 1 < argc; ++i)\n"
                             "    if (argv[i][0] == '-' && argv[i][1] == letter)\n"
                             "      return atoi(argv[i + 1]);\n"
                             "  return def;\n"
                             "}\n";
  const std::string lookups = "int n = optionValue(argc, argv, 'n', 1 << 16);\n"
                              "int block = optionValue(argc, argv, 'b', 128);\nk<<<n / block, block>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"-b", "64", "-n", "4096"}, lookups, &how, letter), "64,1,1 x 64,1,1, 1");
  // The `if` around the `return`, tried with the loop's middle pass before the loop is run, leaves no trace.
  EXPECT_EQ(how.find("the middle of"), std::string::npos) << how;
  EXPECT_NE(how.find("over `argv[3]` = -n; `argv[4]` = 4096"), std::string::npos) << how;
}

TEST(OptionLookupTest, AVariablePassedAsItsOwnFallbackKeepsItsValue) {
  // `n = getIntArg(..., n);`: the call's argument reads `n` as it was before the assignment it is part of.
  const std::string own = "int n = 1 << 16, block = 128;\nn = getIntArg(argc, argv, \"-n\", n);\n"
                          "block = getIntArg(argc, argv, \"-b\", block);\nk<<<n / block, block>>>(x);";
  EXPECT_EQ(runWith({}, own, nullptr, kGetIntArg), "512,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({"-b", "64"}, own, nullptr, kGetIntArg), "1024,1,1 x 64,1,1, 1");
  // A loop's step is no such assignment: the launch it heads is not part of it.
  EXPECT_EQ(runWith({}, "int n = 8;\nfor (int i = 0; i < 2; i = i + 1) k<<<n, 32>>>(x);"), "8,1,1 x 32,1,1, 2");
}

TEST(OptionLookupTest, TheFirstReturnThatRunsGivesTheValue) {
  const std::string help = "int intArg(int argc, char **argv, const char *name, int def) {\n"
                           "  for (int i = 1; i < argc - 1; i++) {\n"
                           "    if (!strcmp(argv[i], \"--small\"))\n"
                           "      return 2048;\n"
                           "    if (!strcmp(argv[i], name))\n"
                           "      return atoi(argv[i + 1]);\n"
                           "  }\n"
                           "  return def;\n"
                           "}\n";
  const std::string launch = "int n = intArg(argc, argv, \"-n\", 4096);\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"--small", "-n", "1024"}, launch, nullptr, help), "8,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-n", "1024", "--small", "x"}, launch, nullptr, help), "4,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-v", "x"}, launch, nullptr, help), "16,1,1 x 256,1,1, 1");
}

TEST(OptionLookupTest, WhatTheLoopCannotSayStaysOpen) {
  // A flag that the call passes in a variable, not as a literal.
  EXPECT_EQ(runWith({"-n", "1024"},
                    "const char *flag = \"-n\";\nint n = getIntArg(argc, argv, flag, 4096);\n"
                    "k<<<n / 256, 256>>>(x);",
                    nullptr, kGetIntArg),
            "none x 256,1,1, 1");
  // A `return` in a loop that reads no options.
  EXPECT_EQ(runWith({"-n", "1024"}, "int n = firstSquareOver(argc, 4096);\nk<<<n, 256>>>(x);", nullptr,
                    "int firstSquareOver(int argc, int least) {\n  for (int i = argc; i < 100; i++)\n"
                    "    if (i * i > least)\n      return i;\n  return 100;\n}\n"),
            "none x 256,1,1, 1");
}

TEST(OptionLookupTest, ANameAStringLiteralStandsForIsReadAsTheLiteral) {
  const std::map<std::string, std::string> literals{{"name", "-n"}, {"flag", "--size"}};
  const auto read = [&](const std::string &condition) {
    return withStringNamesRead(condition, [&](const std::string &name) -> std::optional<std::string> {
      const auto found = literals.find(name);
      return found == literals.end() ? std::nullopt : std::optional<std::string>(found->second);
    });
  };
  EXPECT_EQ(read("strcmp(argv[i], name) == 0"), "strcmp(argv[i], \"-n\") == 0");
  EXPECT_EQ(read("!strncmp(flag, argv[i], 6) && arg == name"), "!strncmp(\"--size\", argv[i], 6) && arg == \"-n\"");
  // Members, qualified names, calls and literals are not the name.
  EXPECT_EQ(read("o.name == s->name && ns::name == name(1)"), "o.name == s->name && ns::name == name(1)");
  EXPECT_EQ(read("strcmp(argv[i], \"name\") == 0 && names == 1"), "strcmp(argv[i], \"name\") == 0 && names == 1");
}

} // namespace
} // namespace ptxdvfs::tools
