// ShiftingOptionLoopTest.cpp - option loops that move `argv` itself on
// (`argc--; argv++;`, K&R's `while (--argc > 0 && (*++argv)[0] == '-')`),
// and loops whose condition steps their counter, read as the program runs
// with --program-args.
#include "CudaOptionLoops.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

/// The old C way: look at `argv[1]`, then move `argv` past what was read.
const std::string kShiftingLoop = "int n = 4096, b = 256;\n"
                                  "while (argc > 1) {\n"
                                  "  if (!strcmp(argv[1], \"-n\")) { n = atoi(argv[2]); argc--; argv++; }\n"
                                  "  else if (!strcmp(argv[1], \"-b\")) { b = atoi(argv[2]); argc--; argv++; }\n"
                                  "  argc--; argv++;\n"
                                  "}\n"
                                  "k<<<n / b, b>>>(x);";

/// Kernighan and Ritchie's: the condition moves `argv` to the next option.
const std::string kKernighanRitchieLoop = "int n = 4096, b = 256;\n"
                                          "while (--argc > 0 && (*++argv)[0] == '-')\n"
                                          "  switch ((*argv)[1]) {\n"
                                          "  case 'n': n = atoi(*++argv); --argc; break;\n"
                                          "  case 'b': b = atoi(*++argv); --argc; break;\n"
                                          "  }\n"
                                          "k<<<n / b, b>>>(x);";

TEST(ShiftingOptionLoopTest, ALoopThatMovesArgvOnReadsWhereItMovedIt) {
  std::string how;
  EXPECT_EQ(runWith({"-n", "8192"}, kShiftingLoop, &how), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(how, "`argc` = 3, the program run with the arguments `-n 8192`; `n` set at t.cu:5 in the pass of the "
                 "option loop at t.cu:4 over `argv[1]` = -n, `argv` moved on by 0; `argv[2]` = 8192");
  EXPECT_EQ(runWith({"-v", "-b", "128", "-n", "1024"}, kShiftingLoop, &how), "8,1,1 x 128,1,1, 1");
  EXPECT_NE(how.find("over `argv[1]` = -n, `argv` moved on by 3; `argv[5]` = 1024"), std::string::npos) << how;
  EXPECT_EQ(runWith({"-n", "1024", "-n", "2048"}, kShiftingLoop), "8,1,1 x 256,1,1, 1"); // the last one
  EXPECT_EQ(runWith({"-b", "-n", "8192"}, kShiftingLoop), "none x none, 1");             // b is atoi("-n"), 0
  EXPECT_EQ(runWith({}, kShiftingLoop), "16,1,1 x 256,1,1, 1");                          // the loop runs no pass
}

TEST(ShiftingOptionLoopTest, AConditionThatMovesArgvIsTestedBeforeEachPass) {
  std::string how;
  EXPECT_EQ(runWith({"-n", "8192"}, kKernighanRitchieLoop, &how), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(how, "`argc` = 3, the program run with the arguments `-n 8192`; `n` set at t.cu:6 in the pass of the "
                 "option loop at t.cu:4 over `argv[0]` = -n, `argv` moved on by 1; `argv[2]` = 8192");
  EXPECT_EQ(runWith({"-b", "128", "-n", "1024", "input.txt"}, kKernighanRitchieLoop), "8,1,1 x 128,1,1, 1");
  // The first argument that is no option ends the loop: the `-n` after it is an operand.
  EXPECT_EQ(runWith({"input.txt", "-n", "1024"}, kKernighanRitchieLoop, &how), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(how, "`argc` = 4, the program run with the arguments `input.txt -n 1024`; `while (--argc > 0 && "
                 "(*++argv)[0] == ...` at t.cu:4 is false on entry");
  EXPECT_EQ(runWith({}, kKernighanRitchieLoop, &how), "16,1,1 x 256,1,1, 1"); // `--argc > 0` fails at once
  EXPECT_NE(how.find("`while (--argc > 0 && (*++argv)[0] == ...` at t.cu:4 is false on entry"), std::string::npos)
      << how;
  // `-n` last: `*++argv` is past the arguments, so what `n` is given is not read.
  EXPECT_EQ(runWith({"-b", "128", "-n"}, kKernighanRitchieLoop), "none x 128,1,1, 1");
}

TEST(ShiftingOptionLoopTest, ArgvMovedElsewhereOrReadAfterTheLoopStaysOpen) {
  // Moved under a branch before the loop: where the loop starts from is not read.
  EXPECT_EQ(runWith({"-n", "8192"}, "if (argc > 2) { argv++; argc--; }\n" + kShiftingLoop), "none x none, 1");
  // Read after the loop, where the loop has moved it to.
  EXPECT_EQ(runWith({"-b", "128", "8192"}, "int n = 4096, b = 256;\n"
                                           "while (--argc > 0 && (*++argv)[0] == '-')\n"
                                           "  if ((*argv)[1] == 'b') { b = atoi(*++argv); --argc; }\n"
                                           "if (argc > 0) n = atoi(*argv);\n"
                                           "k<<<n / b, b>>>(x);"),
            "none x 128,1,1, 1");
  // Inside another loop, which runs it again from where it moved `argv` to: `-n 1024` the second time.
  EXPECT_EQ(runWith({"-n", "8192", "-n", "1024"},
                    "int n = 4096;\n"
                    "for (int r = 0; r < 2; ++r) {\n"
                    "  argc = 3;\n"
                    "  while (argc > 1) {\n"
                    "    if (!strcmp(argv[1], \"-n\")) { n = atoi(argv[2]); argc--; argv++; }\n"
                    "    argc--; argv++;\n"
                    "  }\n"
                    "}\n"
                    "k<<<n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
  // Passed on whole: what the callee reads is not known.
  EXPECT_EQ(runWith({"-n", "8192"}, "int n = 4096;\n"
                                    "while (argc > 1) {\n"
                                    "  if (!strcmp(argv[1], \"-n\")) { n = parse(argv); argc--; argv++; }\n"
                                    "  argc--; argv++;\n"
                                    "}\n"
                                    "k<<<n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
}

TEST(ShiftingOptionLoopTest, StatementsBeforeTheLoopThatMoveArgvAreCounted) {
  // Past the program's name first: the loop reads `argv[1]` from the argument after the first.
  const std::string skipped = "argc--; argv++;\n" + kShiftingLoop;
  EXPECT_EQ(runWith({"-n", "8192"}, skipped), "16,1,1 x 256,1,1, 1"); // `8192` is argv[1] once moved on
  std::string how;
  EXPECT_EQ(runWith({"input", "-n", "8192"}, skipped, &how), "32,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("over `argv[1]` = -n, `argv` moved on by 1; `argv[3]` = 8192"), std::string::npos) << how;
  // `argv` and `argc` past the program's name, then options read from `argv[0]`.
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, "int n = 4096;\n"
                                          "argc--; argv++;\n"
                                          "while (argc > 0) {\n"
                                          "  if (!strcmp(argv[0], \"-n\")) { n = atoi(argv[1]); argc--; argv++; }\n"
                                          "  argc--; argv++;\n"
                                          "}\n"
                                          "k<<<n / 256, 256>>>(x);"),
            "32,1,1 x 256,1,1, 1");
}

TEST(ShiftingOptionLoopTest, AForThatMovesArgvInItsHeadTakesItsStepsAfterEachPass) {
  const std::string stepped = "int n = 4096;\n"
                              "for (; argc > 1; argc--, argv++)\n"
                              "  if (!strcmp(argv[1], \"-n\")) n = atoi(argv[2]);\n"
                              "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, stepped), "32,1,1 x 256,1,1, 1");
  // Past the program's name in the first part, then options read from `argv[0]`.
  const std::string skipped = "int n = 4096;\n"
                              "for (argc--, argv++; argc > 0; argc--, argv++) {\n"
                              "  if (!strcmp(argv[0], \"-n\")) { n = atoi(argv[1]); argc--; argv++; }\n"
                              "}\n"
                              "k<<<n / 256, 256>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, skipped, &how), "32,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("over `argv[0]` = -n, `argv` moved on by 2,"), std::string::npos) << how;
  EXPECT_NE(how.find("`argv[3]` = 8192"), std::string::npos) << how;
  EXPECT_EQ(runWith({}, skipped), "16,1,1 x 256,1,1, 1");
  // A first part that sets the counter is not a step.
  EXPECT_EQ(runWith({"-n", "8192"}, "int n = 4096;\n"
                                    "for (argc = 2; argc > 1; argc--, argv++)\n"
                                    "  if (!strcmp(argv[1], \"-n\")) n = atoi(argv[2]);\n"
                                    "k<<<n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
}

TEST(ShiftingOptionLoopTest, AConditionThatStepsTheCounterIsTestedBeforeEachPass) {
  const std::string loop = "int n = 4096, i = 0;\n"
                           "while (++i < argc)\n"
                           "  if (!strcmp(argv[i], \"-n\")) n = atoi(argv[++i]);\n"
                           "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, loop), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({}, loop), "16,1,1 x 256,1,1, 1");
}

TEST(ShiftingOptionLoopTest, AConditionOnWhatTheBodyStepsIsTestedBeforeEachPass) {
  // Options first, up to the first argument without a dash; `argc` and `argv` stepped in the body.
  const std::string shifting = "int n = 4096;\n"
                               "while (argc > 1 && argv[1][0] == '-') {\n"
                               "  switch (argv[1][1]) { case 'n': n = atoi(argv[2]); argv++; argc--; break; }\n"
                               "  argv++; argc--;\n"
                               "}\n"
                               "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-v", "-n", "8192", "data.bin"}, shifting), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"data.bin", "-n", "8192"}, shifting), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({}, shifting), "16,1,1 x 256,1,1, 1");
  // The same with a counter.
  const std::string counted = "int n = 4096, i = 1;\n"
                              "while (i < argc && argv[i][0] == '-') {\n"
                              "  if (argv[i][1] == 'n') n = atoi(argv[++i]);\n"
                              "  i++;\n"
                              "}\n"
                              "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-v", "-n", "8192", "data.bin"}, counted), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"data.bin", "-n", "8192"}, counted), "16,1,1 x 256,1,1, 1");
}

TEST(ShiftingOptionLoopTest, AConditionsPartsJoinedByAndAreTestedUpToTheFirstThatFails) {
  // `-n` last: `i + 1 < argc` fails, so `argv[i + 1]`, past the arguments, is never compared.
  const std::string loop = "int n = 4096;\n"
                           "for (int i = 1; i < argc; ++i)\n"
                           "  if (!strcmp(argv[i], \"-n\") && i + 1 < argc && argv[i + 1][0] != '-')\n"
                           "    n = atoi(argv[++i]);\n"
                           "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-v", "-n"}, loop), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-n", "-v"}, loop), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-n", "8192"}, loop), "32,1,1 x 256,1,1, 1");
}

TEST(ShiftingOptionLoopTest, AnIndexPastAnyNumberLeavesTheLoopOpen) {
  EXPECT_EQ(runWith({"-n", "8192"}, "int n = 4096;\n"
                                    "while (argc > 1) {\n"
                                    "  if (!strcmp(argv[99999999999999999999], \"-n\")) n = 1;\n"
                                    "  argc--; argv++;\n"
                                    "}\n"
                                    "k<<<n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
}

TEST(ShiftingOptionLoopTest, ShiftedReadsAreTheArrayAsItWasBeforeTheLoop) {
  const auto shifted = [](const std::string &code, std::int64_t shift) {
    const std::optional<std::string> read = withShiftedRead(code, "argv", shift);
    return read ? *read + " @" + std::to_string(shift) : "none";
  };
  EXPECT_EQ(shifted("atoi(argv[1])", 2), "atoi(argv[(2) + 1]) @2");
  EXPECT_EQ(shifted("(*argv)[1] == 'n'", 2), "(argv[(2)])[1] == 'n' @2");
  EXPECT_EQ(shifted("atoi(*++argv)", 2), "atoi(argv[(3)]) @3");
  EXPECT_EQ(shifted("atoi(* argv ++) + atoi(*argv)", 0), "atoi(argv[(0)]) + atoi(argv[(1)]) @1");
  EXPECT_EQ(shifted("n * argv[1][0]", 1), "n * argv[(1) + 1][0] @1");   // a product, not a pointer's element
  EXPECT_EQ(shifted("*argv[1] == '-'", 1), "*argv[(1) + 1] == '-' @1"); // the first character of `argv[1]`
  EXPECT_EQ(shifted("++argv[1]", 1), "none");
  EXPECT_EQ(shifted("parse(argv)", 0), "none");
  EXPECT_EQ(shifted("strcmp(*argv, \"*argv\")", 0), "strcmp(argv[(0)], \"*argv\") @0"); // not in a literal
  EXPECT_EQ(shifted("atoi(argv + 1)", 0), "none");
  EXPECT_EQ(shifted("argc > 1", 0), "argc > 1 @0");
}

} // namespace
} // namespace ptxdvfs::tools
