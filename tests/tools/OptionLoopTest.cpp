// OptionLoopTest.cpp - loops that read a program's options by hand
// (`for (int i = 1; i < argc; ++i) if (!strcmp(argv[i], "-n")) n =
// atoi(argv[++i]);`), read as the program runs with --program-args.
#include "CudaCode.h"
#include "CudaOptionLoops.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

/// A C program's loop: `-n N` and `-b N` separate, `-v` alone, then `k<<<n / b, b>>>`.
const std::string kStrcmpLoop = "int n = 4096, b = 256, v = 0;\n"
                                "for (int i = 1; i < argc; i++) {\n"
                                "  if (strcmp(argv[i], \"-n\") == 0)\n"
                                "    n = atoi(argv[++i]);\n"
                                "  else if (!strcmp(argv[i], \"-b\"))\n"
                                "    b = atoi(argv[++i]);\n"
                                "  else if (strcmp(argv[i], \"-v\") == 0)\n"
                                "    v = 1;\n"
                                "}\n"
                                "k<<<n / b, b>>>(x);";

TEST(OptionLoopTest, EachArgumentTakesTheBranchItsComparisonPicks) {
  std::string how;
  EXPECT_EQ(runWith({"-n", "8192"}, kStrcmpLoop, &how), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(how, "`argc` = 3, the program run with the arguments `-n 8192`; `n` set at t.cu:6 in the pass of the "
                 "option loop at t.cu:4 over `argv[1]` = -n; `argv[2]` = 8192");
  EXPECT_EQ(runWith({"-v", "-b", "128", "-n", "1024"}, kStrcmpLoop), "8,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({"-n", "1024", "-n", "2048"}, kStrcmpLoop), "8,1,1 x 256,1,1, 1"); // the last one
  // `-b` takes `-n` as its argument, so `8192` is no option: b is atoi("-n"), 0, no block.
  EXPECT_EQ(runWith({"-b", "-n", "8192"}, kStrcmpLoop), "none x none, 1");
  EXPECT_EQ(runWith({"input.txt"}, kStrcmpLoop), "16,1,1 x 256,1,1, 1"); // no option: the declared values
  EXPECT_EQ(runWith({}, kStrcmpLoop), "16,1,1 x 256,1,1, 1");            // run bare, the loop runs no pass
}

TEST(OptionLoopTest, NamesAndGuardsOfTheCppShapeAreRead) {
  const std::string loop = "int n = 4096;\nbool verify = false;\n"
                           "for (int i = 1; i < argc; ++i) {\n"
                           "  const std::string arg = argv[i];\n"
                           "  if ((arg == \"-n\" || arg == \"--size\") && i + 1 < argc) {\n"
                           "    n = std::stoi(argv[++i]);\n"
                           "  } else if (arg == \"--verify\") {\n"
                           "    verify = true;\n"
                           "  } else {\n"
                           "    std::cerr << \"unknown option \" << arg << std::endl;\n"
                           "    return 1;\n"
                           "  }\n"
                           "}\n"
                           "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"--size", "8192", "--verify"}, loop), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"--verify"}, loop), "16,1,1 x 256,1,1, 1");
  // An argument that no option names ends the program: what it would launch is not read.
  EXPECT_EQ(runWith({"--size", "8192", "--bogus"}, loop), "none x 256,1,1, 1");
  // `-n` last, its value missing: the guard fails and the unknown-option branch ends the program.
  EXPECT_EQ(runWith({"-n"}, loop), "none x 256,1,1, 1");
}

TEST(OptionLoopTest, ABranchStepsTheCounterWhereItsOwnIfsSay) {
  // A guard inside the branch that returns, then `argv[i + 1]` read and the counter stepped after.
  const std::string loop = "int n = 4096;\nfor (int i = 1; i < argc; i++) {\n"
                           "  if (!strcmp(argv[i], \"-n\")) {\n"
                           "    if (i + 1 >= argc) {\n      usage();\n      return 1;\n    }\n"
                           "    n = atoi(argv[i + 1]);\n    i++;\n"
                           "  } else if (strncmp(argv[i], \"--n=\", 4) == 0) {\n"
                           "    n = atoi(argv[i] + 4);\n"
                           "  }\n}\nk<<<n / 256, 256>>>(x);";
  // Two changes of `n`: the one the last pass that reaches either runs sets it.
  EXPECT_EQ(runWith({"-n", "2048"}, loop), "8,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-n", "2048", "--n=4096"}, loop), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"--n=4096", "-n", "2048"}, loop), "8,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-v"}, loop), "16,1,1 x 256,1,1, 1"); // neither: the declared value
  // In one pass, the later of two chains; a change of another kind (`n *= 2`) leaves it open.
  const std::string both = "int n = 4096;\nfor (int i = 1; i < argc; i++) {\n"
                           "  if (!strcmp(argv[i], \"-q\")) n = 1024;\n"
                           "  if (argv[i][0] == '-') n = 2048;\n}\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-q"}, both), "8,1,1 x 256,1,1, 1");
  std::string doubled = both;
  doubled.replace(doubled.find("n = 2048"), 8, "n *= 2");
  EXPECT_EQ(runWith({"-q"}, doubled), "none x 256,1,1, 1");
  const std::string once = "int n = 4096, b = 256;\nfor (int i = 1; i < argc; i++) {\n"
                           "  if (!strcmp(argv[i], \"-n\")) {\n"
                           "    if (i + 1 >= argc) {\n      usage();\n      return 1;\n    }\n"
                           "    n = atoi(argv[i + 1]);\n    i++;\n"
                           "  } else if (strncmp(argv[i], \"--b=\", 4) == 0) {\n"
                           "    b = atoi(argv[i] + 4);\n"
                           "  }\n}\nk<<<n / b, b>>>(x);";
  EXPECT_EQ(runWith({"-n", "2048", "--b=128"}, once), "16,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({"--b=64", "-n"}, once), "none x none, 1"); // the guard's `return` ends the program
  // A `break` that ends the loop, an option after it unread.
  const std::string stops = "int n = 4096;\nfor (int i = 1; i < argc; i++) {\n"
                            "  if (!strcmp(argv[i], \"--\")) break;\n"
                            "  if (!strcmp(argv[i], \"-n\")) n = atoi(argv[++i]);\n}\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-n", "2048", "--", "-n", "8192"}, stops), "8,1,1 x 256,1,1, 1");
}

TEST(OptionLoopTest, ALongChainIsRunOnce) {
  // 24 options, each its own size: deciding one branch's `if` must not fold the counter through the others.
  std::string loop = "int s0 = 1024";
  for (int option = 1; option < 24; ++option)
    loop += ", s" + std::to_string(option) + " = 1024";
  loop += ";\nfor (int i = 1; i < argc; i++) {\n";
  for (int option = 0; option < 24; ++option)
    loop += std::string(option == 0 ? "  if" : "  else if") + " (strcmp(argv[i], \"-s" + std::to_string(option) +
            "\") == 0) s" + std::to_string(option) + " = atoi(argv[++i]);\n";
  loop += "  else return 1;\n}\nk<<<s23 / 256, s0>>>(x);";
  EXPECT_EQ(runWith({"-s0", "128", "-s23", "8192", "-s5", "1"}, loop), "32,1,1 x 128,1,1, 1");
}

TEST(OptionLoopTest, AVectorOfTheArgumentsReadsAsArgv) {
  const std::string positional = "std::vector<std::string> args(argv, argv + argc);\n"
                                 "const int n = args.size() > 1 ? std::stoi(args[1]) : 4096;\nk<<<n / 256, 256>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"8192"}, positional, &how), "32,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("`args[1]` = 8192"), std::string::npos) << how;
  EXPECT_EQ(runWith({}, positional), "16,1,1 x 256,1,1, 1"); // its size is `argc`, 1
  // From `argv + 1`, the loop over it by index.
  const std::string loop = "int n = 4096;\nstd::vector<std::string> args(argv + 1, argv + argc);\n"
                           "for (size_t i = 0; i < args.size(); ++i) {\n"
                           "  if (args[i] == \"-n\" && i + 1 < args.size()) n = std::stoi(args[++i]);\n}\n"
                           "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-v", "-n", "2048"}, loop, &how), "8,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("in the pass of the option loop at t.cu:5 over `args[1]` = -n"), std::string::npos) << how;
  // A copy that may hold other texts by then, or of other pointers, is not read.
  for (const std::string copy : {"std::vector<std::string> args(argv, argv + argc);\nargs[1] = \"64\";",
                                 "std::vector<std::string> args(argv, argv + argc);\nshift(args);",
                                 "std::vector<std::string> args(argv, argv + argc);\n"
                                 "std::sort(args.begin(), args.end());",
                                 "std::vector<std::string> args(names, names + argc);"})
    EXPECT_EQ(runWith({"8192"}, copy + "\nk<<<std::stoi(args[1]) / 256, 256>>>(x);"), "none x 256,1,1, 1") << copy;
}

TEST(OptionLoopTest, ARangeForOverACopyOfTheArgumentsReadsEachElement) {
  const std::string loop = "int n = 4096;\nstd::vector<std::string> args(argv + 1, argv + argc);\n"
                           "for (const std::string &arg : args) {\n"
                           "  if (arg.rfind(\"--n=\", 0) == 0) n = std::stoi(arg.substr(4));\n"
                           "  else if (arg == \"--large\") n = 1 << 24;\n}\n"
                           "k<<<n / 256, 256>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"-v", "--n=8192"}, loop, &how), "32,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("in the pass of the option loop at t.cu:5 over `args[1]` = --n=8192"), std::string::npos) << how;
  EXPECT_EQ(runWith({"--n=8192", "--large"}, loop), "65536,1,1 x 256,1,1, 1"); // the later option holds
  EXPECT_EQ(runWith({"-v"}, loop), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({}, loop), "16,1,1 x 256,1,1, 1");
  // A range of other values is not the arguments'.
  std::string other = loop;
  other.replace(other.find("args(argv + 1, argv + argc)"), 27, "args(names, names + 2)");
  EXPECT_EQ(runWith({"--n=8192"}, other), "none x 256,1,1, 1");
}

TEST(OptionLoopTest, ALoopOverPairsReadsTheSecondOfEach) {
  const std::string pairs = "int n = 4096;\nfor (int i = 1; i + 1 < argc; i += 2) {\n"
                            "  if (!strcmp(argv[i], \"-n\")) n = atoi(argv[i + 1]);\n}\n"
                            "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-b", "64", "-n", "8192"}, pairs), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-b", "64", "-n"}, pairs), "16,1,1 x 256,1,1, 1"); // the last has no pair: no pass over it
}

TEST(OptionLoopTest, AWhileLoopIsSteppedByItsBranches) {
  const std::string loop = "int n = 4096, b = 256, i = 1;\nwhile (i < argc) {\n"
                           "  if (!strcmp(argv[i], \"-n\")) {\n    n = atoi(argv[i + 1]);\n    i += 2;\n"
                           "  } else if (!strcmp(argv[i], \"-b\")) {\n    b = atoi(argv[i + 1]);\n    i += 2;\n"
                           "  } else {\n    i++;\n  }\n}\nk<<<n / b, b>>>(x);";
  EXPECT_EQ(runWith({"-v", "-b", "128", "-n", "8192"}, loop), "64,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({}, loop), "16,1,1 x 256,1,1, 1");
  // A pass that does not step it would run for ever: open.
  const std::string stuck = "int n = 4096, i = 1;\nwhile (i < argc) {\n"
                            "  if (!strcmp(argv[i], \"-n\")) {\n    n = atoi(argv[i + 1]);\n    i += 2;\n  }\n}\n"
                            "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-n", "8192"}, stuck), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, stuck), "none x 256,1,1, 1");
  // The step after the chain, every pass; one of another name is not followed.
  const std::string stepped = "int n = 4096, i = 1;\nwhile (i < argc) {\n"
                              "  if (!strcmp(argv[i], \"-n\")) n = atoi(argv[++i]);\n  i++;\n}\n"
                              "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, stepped), "32,1,1 x 256,1,1, 1");
  std::string other = stepped;
  other.replace(other.find("  i++;"), 6, "  j++;");
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, other), "none x 256,1,1, 1");
}

TEST(OptionLoopTest, ASwitchOnAnOptionsLetterJumpsToItsCase) {
  const std::string loop = "int n = 4096, b = 256, v = 0;\n"
                           "for (int i = 1; i < argc; i++) {\n"
                           "  if (argv[i][0] == '-') {\n"
                           "    switch (argv[i][1]) {\n"
                           "    case 'n': n = atoi(argv[++i]); break;\n"
                           "    case 'b':\n      i++;\n      b = atoi(argv[i]);\n      break;\n"
                           "    case 'v': v = 1; break;\n"
                           "    default: usage(); return 1;\n"
                           "    }\n"
                           "  }\n"
                           "}\n"
                           "k<<<n / b, b>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"-n", "8192", "-b", "128"}, loop, &how), "64,1,1 x 128,1,1, 1");
  EXPECT_NE(how.find("`n` set at t.cu:7 in the pass of the option loop at t.cu:4 over `argv[1]` = -n"),
            std::string::npos)
      << how;
  EXPECT_EQ(runWith({"-v", "in.txt", "-n", "1024"}, loop), "4,1,1 x 256,1,1, 1"); // not an option: no case
  EXPECT_EQ(runWith({"-bn", "512"}, loop), "8,1,1 x 512,1,1, 1");                // the second letter alone
  EXPECT_EQ(runWith({"-x", "-n", "1024"}, loop), "none x none, 1");             // `default:` ends the program
  EXPECT_EQ(runWith({"-", "-n", "1024"}, loop), "none x none, 1");              // `argv[i][1]` is its NUL
  // A `switch` of its own in the loop's body, which every pass runs.
  const std::string alone = "int n = 4096;\nfor (int i = 1; i < argc; i++) {\n  switch (argv[i][1]) {\n"
                            "  case 'n': n = atoi(argv[++i]); break;\n  case 'v': break;\n  }\n}\n"
                            "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, alone), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-v", "-x", "-n", "8192"}, alone), "32,1,1 x 256,1,1, 1"); // no label: past the switch
  // A label that computes the letter.
  std::string computed = alone;
  computed.replace(computed.find("case 'n':"), 9, "case 'm' + 1:");
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, computed), "32,1,1 x 256,1,1, 1");
  // Rodinia's shape: a `char` set from the letter in the branch, then switched on, the counter stepped alone.
  const std::string flag = "int n = 4096;\nchar flag;\n"
                           "for (int i = 1; i < argc; i++) {\n"
                           "  if (argv[i][0] == '-') {\n"
                           "    flag = argv[i][1];\n"
                           "    switch (flag) {\n"
                           "      case 's':\n        i++;\n        n = atoi(argv[i]);\n        break;\n"
                           "      case 'q': break;\n"
                           "    }\n"
                           "  }\n"
                           "}\n"
                           "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-q", "-s", "65536"}, flag), "256,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-q"}, flag), "16,1,1 x 256,1,1, 1");
  // A guard that ends the program on an operand, then the letter declared from the argument and switched on.
  const std::string guarded = "int n = 4096;\n"
                              "for (int i = 1; i < argc; i++) {\n"
                              "  if (argv[i][0] != '-')\n    return 1;\n"
                              "  char letter = argv[i][1];\n"
                              "  switch (letter) {\n"
                              "  case 'n': n = atoi(argv[++i]); break;\n  case 'v': break;\n"
                              "  default: return 1;\n"
                              "  }\n"
                              "}\n"
                              "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-v", "-n", "8192"}, guarded), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({}, guarded), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"in.txt"}, guarded), "none x 256,1,1, 1"); // the guard ends the program
  // The loop's body an `if` chain without braces.
  const std::string unbraced = "int n = 4096, b = 256;\n"
                               "for (int i = 1; i < argc; i++)\n"
                               "  if (!strcmp(argv[i], \"-n\"))\n    n = atoi(argv[++i]);\n"
                               "  else if (!strcmp(argv[i], \"-b\"))\n    b = atoi(argv[++i]);\n"
                               "k<<<n / b, b>>>(x);";
  EXPECT_EQ(runWith({"-b", "128", "-n", "8192"}, unbraced), "64,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({}, unbraced), "16,1,1 x 256,1,1, 1");
  // A case that may leave the switch midway, and a letter set twice: which case runs is not told.
  std::string maybe = loop;
  maybe.replace(maybe.find("case 'n': n"), 11, "case 'n': if (i + 1 >= argc) break; n");
  EXPECT_EQ(runWith({"-n", "8192"}, maybe), "none x none, 1"); // the counter's step is not told either
  std::string twice = flag;
  twice.replace(twice.find("    switch"), 0, "    if (argc > 9) flag = 'q';\n");
  EXPECT_EQ(runWith({"-s", "65536"}, twice), "none x 256,1,1, 1");
  std::string literal = flag; // a character the code blanks: not read as the letter
  literal.replace(literal.find("argv[i][1];"), 11, "argc > 9 ? 'q' : argv[i][1];");
  EXPECT_EQ(runWith({"-s", "65536"}, literal), "none x 256,1,1, 1");
}

TEST(OptionLoopTest, OtherLoopsAndUsesStayOpen) {
  // A statement other than a name given `argv[i]` or an `if` chain.
  EXPECT_EQ(runWith({"-n", "8192"}, "int n = 4096;\nfor (int i = 1; i < argc; i++) {\n  printf(\"%s\\n\", argv[i]);\n"
                                    "  if (!strcmp(argv[i], \"-n\")) n = atoi(argv[++i]);\n}\nk<<<n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
  // Read inside the loop, and a change that reads itself.
  EXPECT_EQ(runWith({"-n", "8192"}, "int n = 4096;\nfor (int i = 1; i < argc; i++) {\n"
                                    "  if (!strcmp(argv[i], \"-n\")) {\n    n = atoi(argv[++i]);\n"
                                    "    k<<<n / 256, 256>>>(x);\n  }\n}"),
            "none x 256,1,1, 2");
  EXPECT_EQ(runWith({"-n", "2"}, "int n = 4096;\nfor (int i = 1; i < argc; i++) {\n"
                                 "  if (!strcmp(argv[i], \"-n\")) n *= atoi(argv[++i]);\n}\nk<<<n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
  // The counter stepped by a call that takes it by address.
  EXPECT_EQ(runWith({"-n", "8192"}, "int n = 4096;\nfor (int i = 1; i < argc; i++) {\n"
                                    "  if (!strcmp(argv[i], \"-n\")) n = next(argv, &i);\n}\nk<<<n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
}

/// withStringComparisons() of `condition`, the strings' texts from `known`.
std::string compared(const std::string &condition, const std::map<std::string, std::string> &known) {
  const auto replaced = withStringComparisons(condition, [&](std::string_view written) {
    const auto found = known.find(std::string(written));
    return found == known.end() ? std::nullopt : std::optional<std::string>(found->second);
  });
  return replaced ? *replaced : "none";
}

TEST(OptionLoopTest, StringComparisonsAreReplacedByTheirResults) {
  const std::map<std::string, std::string> known{{"argv[i]", "-n"}, {"arg", "--size=4"}};
  EXPECT_EQ(compared("strcmp(argv[i], \"-n\") == 0", known), "(0) == 0");
  EXPECT_EQ(compared("!strcmp(argv[i], \"-m\") || strcmp(\"-a\", argv[i]) > 0", known), "!(1) || (-1) > 0");
  EXPECT_EQ(compared("strncmp(arg, \"--size=\", 7) == 0 && strcasecmp(argv[i], \"-N\") == 0", known),
            "(0) == 0 && (0) == 0");
  EXPECT_EQ(compared("(arg == \"-n\" || \"-n\" == argv[i]) && argv[i] != \"-n\"", known), "((0) || (1)) &&(0)");
  EXPECT_EQ(compared("strcmp(argv[i], \"a,(b\") == 0", known), "(-1) == 0"); // a literal's comma and bracket
  EXPECT_EQ(compared("(\"-n\" == arg)", known), "((0))"); // a bracket, not a call, around it
  EXPECT_EQ(compared("arg == \"-n\\n\"", known), "none");     // an escape
  EXPECT_EQ(compared("other == \"-n\"", known), "none");      // a string not known
  EXPECT_EQ(compared("f(\"-n\") == 0", known), "none");       // a literal in another call
  EXPECT_EQ(compared("argv[i][0] == '-' && '-' != argv[i][1]", known), "(1) && (1)"); // characters
  EXPECT_EQ(compared("*arg == '-' || arg[8] == 'x' || argv[i][2] == 'x'", known), "(1) ||(0) ||(0)");
  EXPECT_EQ(compared("argv[i][3] == 'x'", known), "none");  // past the terminating NUL
  EXPECT_EQ(compared("  '-' == argv[i][0]", known), "  (1)");
  // A literal that is part of an operand, which C adds before it compares.
  EXPECT_EQ(compared("argv[i][1] == 'm' + 1", known), "none");
  EXPECT_EQ(compared("'m' + 1 == argv[i][1]", known), "none");
  EXPECT_EQ(compared("argv[i][0] == '\\n'", known), "none"); // an escape
  EXPECT_EQ(compared("strcmp(argv[i], 'x') == 0", known), "none");
  // A std::string's methods: `find` and `rfind(..., 0)` give the position or -1 for npos, `compare` the sign.
  EXPECT_EQ(compared("arg.rfind(\"--size=\", 0) == 0 || arg.rfind(\"-n\", 0) == 0", known), "(0) == 0 ||(-1) == 0");
  EXPECT_EQ(compared("arg.find(\"=\") == 6 && arg.find(\"x\") != 0", known), "(6) == 6 &&(-1) != 0");
  EXPECT_EQ(compared("arg.compare(0, 7, \"--size=\") == 0 && arg.compare(\"-m\") < 0", known), "(0) == 0 &&(-1) < 0");
  EXPECT_EQ(compared("!arg.starts_with(\"-n\")", known), "!(0)");
  EXPECT_EQ(compared("arg.find(\"=\") != std::string::npos && arg.find(\"x\") == string::npos", known),
            "(6) != (-1) &&(-1) == (-1)");
  EXPECT_EQ(compared("arg.find(\"=\") != ::std::string::npos && arg.find(\"x\") == std::string_view::npos", known),
            "(6) != (-1) &&(-1) == (-1)");
  EXPECT_EQ(compared("arg.rfind(\"-n\") == 0", known), "none");         // from the end: where is not read
  EXPECT_EQ(compared("arg.compare(1, 2, \"-n\") == 0", known), "none"); // not from the start
  EXPECT_EQ(compared("other.find(\"-n\") == 0", known), "none");
}

TEST(OptionLoopTest, AStdStringsPrefixAndItsRestAreRead) {
  // `--n=8192`: the prefix compared by a method, the value past it by `substr`, through the loop's names.
  const std::string loop = "int n = 4096, b = 256;\n"
                           "for (int i = 1; i < argc; i++) {\n"
                           "  const std::string arg = argv[i];\n"
                           "  const char *a = argv[i];\n"
                           "  if (arg.rfind(\"--n=\", 0) == 0) n = std::stoi(arg.substr(4));\n"
                           "  else if (strncmp(a, \"--b=\", 4) == 0) b = atoi(a + 4);\n"
                           "}\n"
                           "k<<<n / b, b>>>(x);";
  EXPECT_EQ(runWith({"--n=8192", "--b=128"}, loop), "64,1,1 x 128,1,1, 1");
  EXPECT_EQ(runWith({"--b=512"}, loop), "8,1,1 x 512,1,1, 1");
  EXPECT_EQ(runWith({}, loop), "16,1,1 x 256,1,1, 1");
}

TEST(OptionLoopTest, CounterReadsFollowTheirSteps) {
  std::int64_t value = 3;
  EXPECT_EQ(withCounterRead("atoi(argv[++i]) + i", "i", value).value_or("none"), "atoi(argv[(4)]) + (4)");
  EXPECT_EQ(value, 4);
  EXPECT_EQ(withCounterRead("argv[i++] + argv[i - 1] + idx", "i", value).value_or("none"),
            "argv[(4)] + argv[(5) - 1] + idx");
  EXPECT_EQ(value, 5);
  EXPECT_FALSE(withCounterRead("i += 2", "i", value));
  EXPECT_FALSE(withCounterRead("f(&i)", "i", value));
  const std::string code = "{ ++i; i--; i += 2; x = i; j++; i -= 10; }";
  const auto steps = counterSteps(code, "i", 0, code.size());
  ASSERT_TRUE(steps);
  std::string shownSteps;
  for (const auto &[at, added] : *steps)
    shownSteps += std::to_string(at) + ":" + std::to_string(added) + " ";
  EXPECT_EQ(shownSteps, "4:1 7:-1 12:2 32:-10 ");
  EXPECT_FALSE(counterSteps("{ i = j; }", "i", 0, 10));
  EXPECT_FALSE(counterSteps("{ i *= 2; }", "i", 0, 11));
}

TEST(OptionLoopTest, TheBodyIsReadAsNamesThenIfChains) {
  const std::string text = "{\n  std::string arg(argv[i]);\n  const char *p = argv[i];\n"
                           "  if (arg == \"-a\") a = 1; else if (arg == \"-b\") { b = 1; } else c = 1;\n"
                           "  if (p[0] == 'x') d = 1;\n}";
  const std::string code = codeOf(text);
  const auto body = optionLoopBody(code, text, 0, "i");
  ASSERT_TRUE(body);
  ASSERT_EQ(body->aliases.size(), 2u);
  EXPECT_EQ(body->aliases[0], (std::pair<std::string, std::string>{"arg", "argv[i]"}));
  EXPECT_EQ(body->aliases[1], (std::pair<std::string, std::string>{"p", "argv[i]"}));
  ASSERT_EQ(body->chains.size(), 2u);
  ASSERT_EQ(body->chains[0].size(), 3u);
  EXPECT_EQ(body->end, text.size()); // past its `}`
  EXPECT_EQ(body->chains[0][1].condition, "arg == \"-b\"");
  EXPECT_EQ(text.substr(body->chains[0][1].start, body->chains[0][1].end - body->chains[0][1].start), "{ b = 1; }");
  EXPECT_EQ(body->chains[0][2].condition, "");
  EXPECT_EQ(text.substr(body->chains[0][2].start, body->chains[0][2].end - body->chains[0][2].start), "c = 1;");
  EXPECT_EQ(body->chains[1][0].condition, "p[0] == 'x'");
  const std::string stepped = "{ if (a) b = 1; i += 2; }";
  const auto steps = optionLoopBody(codeOf(stepped), stepped, 0, "i");
  ASSERT_TRUE(steps);
  ASSERT_EQ(steps->chains.size(), 2u);
  EXPECT_EQ(stepped.substr(steps->chains[1][0].start, steps->chains[1][0].end - steps->chains[1][0].start), "i += 2;");
  const std::string switched = "{ switch (argv[i][1]) { case 'n': n = 1; break; } i++; }";
  const auto cases = optionLoopBody(codeOf(switched), switched, 0, "i");
  ASSERT_TRUE(cases);
  ASSERT_EQ(cases->chains.size(), 2u);
  EXPECT_EQ(switched.substr(cases->chains[0][0].start, cases->chains[0][0].end - cases->chains[0][0].start),
            "switch (argv[i][1]) { case 'n': n = 1; break; }");
  // A body without braces: one `if` chain (to its last `else`), or one `switch`.
  const std::string unbraced =
      "if (!strcmp(argv[i], \"-n\")) n = atoi(argv[++i]); else if (a) b = 1; else c = 1; d = 2;";
  const auto chain = optionLoopBody(codeOf(unbraced), unbraced, 0, "i");
  ASSERT_TRUE(chain);
  ASSERT_EQ(chain->chains.size(), 1u);
  ASSERT_EQ(chain->chains[0].size(), 3u);
  EXPECT_EQ(unbraced.substr(chain->chains[0][2].start, chain->chains[0][2].end - chain->chains[0][2].start), "c = 1;");
  EXPECT_EQ(chain->end, unbraced.find(" d = 2")); // past its one statement
  const std::string switchAlone = "switch (argv[i][1]) { case 'n': n = 1; break; } d = 2;";
  const auto jump = optionLoopBody(codeOf(switchAlone), switchAlone, 0, "i");
  ASSERT_TRUE(jump);
  ASSERT_EQ(jump->chains.size(), 1u);
  EXPECT_EQ(jump->chains[0][0].end, switchAlone.find(" d = 2"));
  const std::string plain = "n = atoi(argv[i]);";
  EXPECT_FALSE(optionLoopBody(codeOf(plain), plain, 0, "i"));
  // A name declared after a guard that leaves the counter as it is: read with the pass's argument.
  const std::string guarded = "{ if (argv[i][0] != '-') return 1; char flag = argv[i][1]; switch (flag) { } }";
  const auto guard = optionLoopBody(codeOf(guarded), guarded, 0, "i");
  ASSERT_TRUE(guard);
  ASSERT_EQ(guard->aliases.size(), 1u);
  EXPECT_EQ(guard->aliases[0], (std::pair<std::string, std::string>{"flag", "argv[i][1]"}));
  EXPECT_EQ(guard->chains.size(), 2u);
  // A name declared after a change of the counter, a branch that is an unbraced loop, a plain statement, an
  // unbraced switch.
  for (const std::string other :
       {"{ if (a) i++; std::string s = argv[i]; }", "{ i++; char c = argv[i][0]; }", "{ if (a) i = 2; int k = 1; }",
        "{ if (a) for (;;) b = 1; }", "{ puts(argv[i]); }", "{ i *= 2; }", "{ switch (c) case 1: n = 2; }"})
    EXPECT_FALSE(optionLoopBody(codeOf(other), other, 0, "i")) << other;
}

} // namespace
} // namespace ptxdvfs::tools
