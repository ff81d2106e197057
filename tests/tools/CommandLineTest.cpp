// CommandLineTest.cpp - the host program read as run with the arguments
// --program-args gives: argc, `atoi(argv[1])` and its kin, and the
// option parsers they leave to run time.
#include "CudaCommandLine.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

std::string split(const std::string &text) {
  std::string error;
  const auto arguments = splitProgramArguments(text, error);
  if (!arguments)
    return "error: " + error;
  std::string shown;
  for (const std::string &argument : *arguments)
    shown += "[" + argument + "]";
  return shown;
}

std::string converted(const char *function, const std::string &text, int base = 10) {
  const auto number = convertedArgument(function, text, base);
  return !number ? "none" : number->real ? std::to_string(number->value) : std::to_string(number->whole);
}

TEST(CommandLineTest, ArgumentsAreSplitAsAShellSplitsThem) {
  EXPECT_EQ(split("4096  10"), "[4096][10]");
  EXPECT_EQ(split(""), "");
  EXPECT_EQ(split("  -n=4096\t'a b' \"c \\\"d\\\"\" e\\ f ''"), "[-n=4096][a b][c \"d\"][e f][]");
  EXPECT_EQ(split("'open"), "error: the quote ' at column 1 is never closed");
  EXPECT_EQ(split("4096 \\"), "error: a '\\' ends the arguments, escaping nothing");
  EXPECT_EQ(shownArguments({"4096", "a b", "it's"}), "4096 'a b' 'it'\\''s'");
}

TEST(CommandLineTest, ConversionsFollowTheLibrary) {
  EXPECT_EQ(converted("atoi", "64k"), "64"); // C reads the digits a text starts with
  EXPECT_EQ(converted("atoi", "k"), "0");
  EXPECT_EQ(converted("stoi", "k"), "none"); // C++ throws
  EXPECT_EQ(converted("atoi", "3000000000"), "none"); // past int: undefined
  EXPECT_EQ(converted("atol", "3000000000"), "3000000000");
  EXPECT_EQ(converted("strtol", "0x1000", 0), "4096");
  EXPECT_EQ(converted("strtol", "ff", 16), "255");
  EXPECT_EQ(converted("strtoul", "-1"), "none"); // wraps past any size
  EXPECT_EQ(converted("atoi", " -12"), "-12");
  EXPECT_EQ(converted("atof", "2.5e-3"), "0.002500");
  EXPECT_EQ(converted("stod", "inf"), "none");
  EXPECT_EQ(converted("printf", "1"), "none");
}

TEST(CommandLineTest, ArgcCountsTheArgumentsAndArgvGivesThem) {
  std::string how;
  EXPECT_EQ(runWith({"4096"}, "int n = atoi(argv[1]);\nk<<<n / 256, 256>>>(x);", &how), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(how, "`argv[1]` = 4096, the program run with the arguments `4096`");
  EXPECT_EQ(runWith({}, "int n = atoi(argv[1]);\nk<<<n / 256, 256>>>(x);", &how), "none x 256,1,1, 1");
  EXPECT_NE(how.find("`argv[...]` is read from the command line (--program-args)"), std::string::npos) << how;
  EXPECT_EQ(runWith({"8192"}, "int n = argc > 1 ? atoi(argv[1]) : 1024;\nk<<<n / 256, 256>>>(x);", &how),
            "32,1,1 x 256,1,1, 1");
  // How the program is run is said once, by the first note that rests on it.
  EXPECT_EQ(how, "`argc` = 2, the program run with the arguments `8192`; `argv[1]` = 8192");
  // One argument: argv[2] is not read.
  EXPECT_EQ(runWith({"8192"}, "int n = 2048;\nif (argc > 2) n = atoi(argv[2]);\nk<<<n / 256, 256>>>(x);"),
            "8,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"8192"}, "k<<<atoi(argv[2]) / 256, 256>>>(x);"), "none x 256,1,1, 1");
  EXPECT_EQ(runWith({"4", "0x2000"}, "long n = strtol(argv[argc - 1], NULL, 0);\nk<<<n / 256, 256>>>(x);"),
            "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"1024", "64"}, "int b = std::stoi(std::string(argv[2]));\nk<<<atoi(argv[1]) / b, b>>>(x);"),
            "16,1,1 x 64,1,1, 1");
  EXPECT_EQ(runWith({"512", "0.5"}, "float f = atof(argv[2]);\nk<<<atoi(argv[1]) * f, 32>>>(x);"),
            "256,1,1 x 32,1,1, 1");
}

/// scannedValues() each, spaces between; "none" where the format is not read.
std::string scanned(std::string_view text, std::string_view format) {
  const auto values = scannedValues(text, format);
  if (!values)
    return "none";
  std::string shown;
  for (const expression::Number &value : *values)
    shown += (shown.empty() ? "" : " ") + (value.real ? std::to_string(value.value) : std::to_string(value.whole));
  return shown;
}

TEST(CommandLineTest, SscanfStoresWhatItsFormatReads) {
  EXPECT_EQ(scanned("4096", "%d"), "4096");
  EXPECT_EQ(scanned("1024x768", "%dx%d"), "1024 768");
  EXPECT_EQ(scanned(" 0x10 , 2.5", "%i ,%lf"), "16 2.500000");
  EXPECT_EQ(scanned("64:k", "%u:%d"), "64"); // stops where the text no longer matches
  EXPECT_EQ(scanned("ff", "%x"), "255");
  EXPECT_EQ(scanned("a.txt", "%d"), "");
  EXPECT_EQ(scanned("4096", "%s"), "none");
  EXPECT_EQ(scanned("4096", "%4d"), "none");
  EXPECT_EQ(scanned("4096", "%*d"), "none");
  EXPECT_EQ(scanned("50%", "%d%%"), "50");
  std::string how;
  EXPECT_EQ(runWith({"2048x64"}, "int n, b;\nsscanf(argv[1], \"%dx%d\", &n, &b);\nk<<<n / b, b>>>(x);", &how),
            "32,1,1 x 64,1,1, 1");
  EXPECT_EQ(how, "`argv[1]` = 2048x64, the program run with the arguments `2048x64`");
  EXPECT_EQ(runWith({"2048"}, "int n, b = 64;\nsscanf(argv[1], \"%dx%d\", &n, &b);\nk<<<n / 256, b>>>(x);"),
            "8,1,1 x none, 1"); // b is not stored: the text ends first, and what b held is not read through
  EXPECT_EQ(runWith({"2048,64"}, "int n, b;\nsscanf(argv[1], \"%d,%d\", &n, &b);\nk<<<n / b, b>>>(x);"),
            "32,1,1 x 64,1,1, 1"); // the format's comma is not the call's
  EXPECT_EQ(runWith({}, "int n;\nsscanf(argv[1], \"%d\", &n);\nk<<<n / 256, 256>>>(x);"), "none x 256,1,1, 1");
  EXPECT_EQ(runWith({"2048"}, "int n = 64;\nif (rand()) sscanf(argv[1], \"%d\", &n);\nk<<<n, 32>>>(x);"),
            "none x 32,1,1, 1");
  EXPECT_EQ(runWith({"2048"}, "int n;\nsscanf(line, \"%d\", &n);\nk<<<n, 32>>>(x);"), "none x 32,1,1, 1");
  // In an `if`'s condition in a loop: it runs on each pass, not once with the counter at its middle (which
  // read 2048 here), and not at all where the loop is not entered.
  const std::string loop = "int n = 1 << 16;\nfor (int i = 1; i < argc; i++)\n"
                           "  if (sscanf(argv[i], \"-n=%d\", &n) == 1) continue;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-n=1024", "-n=2048", "-n=4096"}, loop), "none x 256,1,1, 1");
  EXPECT_EQ(runWith({}, loop), "256,1,1 x 256,1,1, 1");
}

TEST(CommandLineTest, AStringStreamOfAnArgumentGivesItsWordsInTurn) {
  std::string how;
  EXPECT_EQ(
      runWith({"2048 64"}, "int n, b;\nstd::istringstream in(argv[1]);\nin >> n >> b;\nk<<<n / b, b>>>(x);", &how),
      "32,1,1 x 64,1,1, 1");
  EXPECT_EQ(how, "`argv[1]` = '2048 64', the program run with the arguments `'2048 64'`");
  EXPECT_EQ(runWith({"8192"}, "int n = 1024;\nif (argc > 1) std::stringstream(argv[1]) >> n;\nk<<<n / 256, 256>>>(x);"),
            "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({}, "int n = 1024;\nif (argc > 1) std::stringstream(argv[1]) >> n;\nk<<<n / 256, 256>>>(x);"),
            "4,1,1 x 256,1,1, 1");
  EXPECT_EQ(
      runWith({"2048"}, "int m, n = 64;\nstd::istringstream in(argv[1]);\nin >> m >> n;\nk<<<n / 256, 256>>>(x);"),
      "none x 256,1,1, 1"); // the text ends before n's word, and what n held is not read through
  // A word that is no whole number, a stream read twice or made of another text, or `std::cin`: open.
  for (const std::string body :
       {"int n;\nstd::istringstream(argv[1]) >> n;", "int n, m;\nstd::istringstream in(argv[1]);\nin >> m;\nin >> n;",
        "int n;\nstd::istringstream in(line);\nin >> n;", "int n;\nstd::cin >> n;"})
    EXPECT_EQ(runWith({"2048.5"}, body + "\nk<<<n / 256, 256>>>(x);"), "none x 256,1,1, 1") << body;
  EXPECT_EQ(runWith({"-4096x"}, "int n;\nstd::istringstream(argv[1]) >> n;\nk<<<-n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
  EXPECT_EQ(runWith({"-4096"}, "int n;\nstd::istringstream(argv[1]) >> n;\nk<<<-n / 256, 256>>>(x);"),
            "16,1,1 x 256,1,1, 1");
}

TEST(CommandLineTest, AHostLoopRunsAsTheArgumentsSay) {
  EXPECT_EQ(runWith({"20"}, "for (int t = 0; t < atoi(argv[1]); t++) k<<<64, 256>>>(x);"), "64,1,1 x 256,1,1, 20");
  EXPECT_EQ(runWith({"20"}, "int steps = atoi(argv[1]);\nfor (int t = 0; t < steps; t++) k<<<64, 256>>>(x);"),
            "64,1,1 x 256,1,1, 20");
}

TEST(CommandLineTest, MainsArgvIsReadThroughTheHelpersItIsPassedTo) {
  const std::string run = "__global__ void k(float *x);\nvoid run(int count, char *args[]) {\n  float *x;\n"
                          "  k<<<atoi(args[count - 1]) / 256, 256>>>(x);\n}\n";
  std::string how;
  EXPECT_EQ(runWith({"4096"}, "run(argc, argv);", &how, run), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(how, "`argc` = 2, the program run with the arguments `4096`; `count` = 2, as `run`'s call at t.cu:8 "
                 "passes it; `args[1]` = 4096");
  // Through two helpers, each called from where `argv` is.
  EXPECT_EQ(runWith({"8192"}, "outer(argc, argv);", nullptr, run + "void outer(int c, char **v) { run(c, v); }\n"),
            "32,1,1 x 256,1,1, 1");
  // A lambda of main's sees its `argv`; one given its own reads what its calls pass.
  const std::string lambda = "auto arg = [&](int i, int d) { return argc > i ? atoi(argv[i]) : d; };\n"
                             "int n = arg(1, 1 << 16);\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"4096"}, lambda), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({}, lambda), "256,1,1 x 256,1,1, 1");
  const std::string own = "auto first = [](char **v) { return atoi(v[1]); };\n";
  EXPECT_EQ(runWith({"4096"}, own + "k<<<first(argv) / 256, 256>>>(x);"), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"4096"}, own + "char *mine[] = {0, 0};\nk<<<first(mine) / 256, 256>>>(x);"), "none x 256,1,1, 1");
  // A constructor's member initializer, given main's `argv` by the object's construction.
  const std::string params = "struct Params {\n  int n;\n"
                             "  Params(int argc, char **argv) : n(argc > 1 ? atoi(argv[1]) : 1 << 16) {}\n};\n";
  EXPECT_EQ(runWith({"4096"}, "Params p(argc, argv);\nk<<<p.n / 256, 256>>>(x);", nullptr, params),
            "16,1,1 x 256,1,1, 1");
}

TEST(CommandLineTest, OnlyMainsUnshiftedArgvIsRead) {
  EXPECT_EQ(runWith({"4096"}, "++argv;\nk<<<atoi(argv[1]) / 256, 256>>>(x);"), "none x 256,1,1, 1");
  const std::string run = "__global__ void k(float *x);\nvoid run(char **argv) {\n  float *x;\n"
                          "  k<<<atoi(argv[1]) / 256, 256>>>(x);\n}\n";
  EXPECT_EQ(runWith({"4096"}, "char *mine[] = {0, 0};\nrun(argv);\nrun(mine);", nullptr, run), "none x 256,1,1, 2");
  EXPECT_EQ(runWith({"4096"}, "run(argv + 1);", nullptr, run), "none x 256,1,1, 1");
  EXPECT_EQ(runWith({"4096"}, "char *args[] = {0, 0};\nk<<<atoi(args[1]) / 256, 256>>>(x);"), "none x 256,1,1, 1");
}

TEST(CommandLineTest, AnOptionLoopFillsAStructOfOptions) {
  const std::string options = "struct Options { int n = 1 << 16; int reps = 10; };\n";
  const std::string loop = "for (int i = 1; i < argc; i++) {\n"
                           "  if (strcmp(argv[i], \"-n\") == 0 && i + 1 < argc) o.n = atoi(argv[++i]);\n"
                           "  else if (strcmp(argv[i], \"-r\") == 0 && i + 1 < argc) o.reps = atoi(argv[++i]);\n}\n";
  const std::string launch = "k<<<o.n / 256, 256>>>(x);";
  // In main, and in a function given the struct by reference.
  EXPECT_EQ(runWith({"-r", "3", "-n", "4096"}, "Options o;\n" + loop + launch, nullptr, options),
            "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-r", "3"}, "Options o;\n" + loop + launch, nullptr, options), "256,1,1 x 256,1,1, 1");
  const std::string parse = options + "void parse(int argc, char **argv, Options &o) {\n" + loop + "}\n";
  std::string how;
  EXPECT_EQ(runWith({"-n", "4096"}, "Options o;\nparse(argc, argv, o);\n" + launch, &how, parse),
            "16,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("`o.n` = 4096, as `parse` at t.cu:"), std::string::npos) << how;
  EXPECT_EQ(runWith({}, "Options o;\nparse(argc, argv, o);\n" + launch, nullptr, parse), "256,1,1 x 256,1,1, 1");
  // C's way: a pointer to it, `o->n`, in a typedef'd struct filled by the function before its loop.
  const std::string c = "typedef struct { int n; int block; } options_t;\n"
                        "void parse(int argc, char **argv, options_t *o) {\n  o->n = 1 << 16;\n  o->block = 256;\n"
                        "  for (int i = 1; i < argc; i++)\n"
                        "    if (!strcmp(argv[i], \"-n\") && i + 1 < argc) o->n = atoi(argv[++i]);\n}\n";
  EXPECT_EQ(
      runWith({"-n", "4096"}, "options_t o;\nparse(argc, argv, &o);\nk<<<o.n / o.block, o.block>>>(x);", nullptr, c),
      "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({}, "options_t o;\nparse(argc, argv, &o);\nk<<<o.n / o.block, o.block>>>(x);", nullptr, c),
            "256,1,1 x 256,1,1, 1");
  // In the constructor's body, given main's arguments by the object's construction.
  const std::string built = "struct Options {\n  int n = 1 << 16;\n  int reps = 10;\n"
                            "  Options(int argc, char **argv) {\n    for (int i = 1; i < argc; i++) {\n"
                            "      if (strcmp(argv[i], \"-n\") == 0 && i + 1 < argc) n = atoi(argv[++i]);\n"
                            "      else if (strcmp(argv[i], \"-r\") == 0 && i + 1 < argc) reps = atoi(argv[++i]);\n"
                            "    }\n  }\n};\n";
  EXPECT_EQ(runWith({"-n", "4096"}, "Options o(argc, argv);\n" + launch, nullptr, built), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-r", "2"}, "Options o(argc, argv);\n" + launch, nullptr, built), "256,1,1 x 256,1,1, 1");
}

TEST(CommandLineTest, AnAssignmentInAConditionGivesItsValue) {
  // Checked as read: `if ((n = atoi(argv[1])) <= 0 || (m = ...) <= 0) usage();`, each reached past the last.
  const std::string checked = "int n, m;\nif ((n = atoi(argv[1])) <= 0 || (m = atoi(argv[2])) <= 0)\n  return 1;\n";
  EXPECT_EQ(runWith({"4096", "64"}, checked + "k<<<n / m, m>>>(x);"), "64,1,1 x 64,1,1, 1");
  EXPECT_EQ(runWith({"0", "64"}, checked + "k<<<2, m>>>(x);"), "2,1,1 x none, 1"); // C stops at the first
  EXPECT_EQ(runWith({}, checked + "k<<<n / m, m>>>(x);"), "none x none, 1");
  EXPECT_EQ(runWith({"64", "32"}, "int n, m;\nif ((n = atoi(argv[1])) > 0 && (m = atoi(argv[2])) > 0) {}\n"
                                  "k<<<n, m>>>(x);"),
            "64,1,1 x 32,1,1, 1");
  EXPECT_EQ(runWith({}, "int n;\nif ((n = 64) > 8) {}\nk<<<n, 32>>>(x);"), "64,1,1 x 32,1,1, 1");
  // Under a branch not taken, it does not run: the value before holds.
  EXPECT_EQ(runWith({}, "int n = 4096;\nif (argc > 1) {\n  if ((n = atoi(argv[1])) <= 0)\n    return 1;\n}\n"
                        "k<<<n / 256, 256>>>(x);"),
            "16,1,1 x 256,1,1, 1");
  // Where C may not evaluate it: past a `?:`, or `&&` and `||` together.
  EXPECT_EQ(runWith({"64"}, "int n;\nif (argc > 1 ? 1 : (n = 8) > 0) {}\nk<<<n, 32>>>(x);"), "none x 32,1,1, 1");
  EXPECT_EQ(runWith({"64"}, "int n;\nif (argc > 1 && argc < 9 || (n = 8) > 0) {}\nk<<<n, 32>>>(x);"),
            "none x 32,1,1, 1");
}

/// `body` of `while ((opt = getopt(argc, argv, "n:b:v")) != -1) switch (opt) {...}` after `int n = 4096, b =
/// 256, v = 0, opt;`, then `k<<<n / b, b>>>(x)`.
std::string getoptRun(const std::vector<std::string> &arguments, const std::string &cases, std::string *how = nullptr) {
  return runWith(arguments,
                 "int n = 4096, b = 256, v = 0, opt;\nwhile ((opt = getopt(argc, argv, \"n:b:v\")) != -1) {\n"
                 "  switch (opt) {\n" + cases + "\n  }\n}\nk<<<n / b, b>>>(x);",
                 how);
}

TEST(CommandLineTest, AGetoptCaseSetsWhatItsOptionGives) {
  const std::string cases = "  case 'n': n = atoi(optarg); break;\n  case 'b':\n    b = strtol(optarg, NULL, 0);\n"
                            "    break;\n  case 'v': v = 1; break;\n  default: return 2;";
  std::string how;
  EXPECT_EQ(getoptRun({"-n", "8192", "-b0x80"}, cases, &how), "64,1,1 x 128,1,1, 1");
  EXPECT_EQ(how, "`argc` = 4, the program run with the arguments `-n 8192 -b0x80`; `n` set at t.cu:6 for the option "
                 "-n 8192 that `getopt` finds; `b` set at t.cu:8 for the option -b 0x80 that `getopt` finds");
  EXPECT_EQ(getoptRun({"-v", "-b", "64"}, cases), "64,1,1 x 64,1,1, 1"); // n keeps its value
  EXPECT_EQ(getoptRun({"-n", "1024", "-vn", "2048", "file"}, cases), "8,1,1 x 256,1,1, 1"); // the last -n
  EXPECT_EQ(getoptRun({}, cases), "16,1,1 x 256,1,1, 1"); // run bare, the loop never runs
  // An option it does not know, or one it knows, that goes to a case ending the program: nothing is read.
  EXPECT_EQ(getoptRun({"-n", "8192", "-x"}, cases, &how), "none x none, 1");
  EXPECT_EQ(how, "the launch at t.cu:14 passes `n / b`, which the source does not fix: `n` is set in the `getopt` "
                 "loop at t.cu:4, where an option it does not know, or one without its argument, goes to a case "
                 "that may end the program, the program run with the arguments `-n 8192 -x`");
  EXPECT_EQ(getoptRun({"-n"}, cases), "none x none, 1"); // its argument missing
  EXPECT_EQ(getoptRun({"-v", "-n", "8192"}, "  case 'n': n = atoi(optarg); break;\n  case 'v': usage(); exit(0);"),
            "none x 256,1,1, 1");
  EXPECT_EQ(getoptRun({"-x", "-n", "8192"}, "  case 'n': n = atoi(optarg); break;\n  default: break;"),
            "32,1,1 x 256,1,1, 1"); // a `default:` that goes on
  // Open where the case does not say one value: two cases change it, it reads itself, `default:` leads there.
  EXPECT_EQ(getoptRun({"-n", "8192"}, "case 'n': n = atoi(optarg); break;\ncase 'v': n = 64; break;"),
            "none x 256,1,1, 1");
  EXPECT_EQ(getoptRun({"-n", "2"}, "case 'n': n *= atoi(optarg); break;"), "none x 256,1,1, 1");
  EXPECT_EQ(getoptRun({"-n", "8192"}, "case 'n':\ndefault: n = atoi(optarg); break;"), "none x 256,1,1, 1");
  EXPECT_EQ(getoptRun({"-n", "8192"}, "case 'n': if (v) break; n = atoi(optarg); break;"), "none x 256,1,1, 1");
  // A loop that reads getopt's result some other way, its option string not a literal.
  EXPECT_EQ(runWith({"-n", "8192"}, "int n = 4096, opt;\nconst char *o = \"n:\";\n"
                                    "while ((opt = getopt(argc, argv, o)) != -1) {\n  switch (opt) {\n"
                                    "  case 'n': n = atoi(optarg); break;\n  }\n}\nk<<<n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
}

TEST(CommandLineTest, AHelperGivenAPartOfArgvReadsItShifted) {
  const std::string helper = "void run(int count, char **args) {\n  float *x;\n  int n = atoi(args[0]);\n"
                             "  int steps = count > 1 ? atoi(args[1]) : 1;\n"
                             "  for (int t = 0; t < steps; t++) k<<<n / 256, 256>>>(x);\n}\n";
  const auto run = [&](const std::vector<std::string> &arguments, const std::string &body) {
    return runWith(arguments, body, nullptr, helper);
  };
  EXPECT_EQ(run({"8192", "3"}, "run(argc - 1, argv + 1);"), "32,1,1 x 256,1,1, 3");
  // An element's address passed on: the element may change.
  EXPECT_EQ(run({"8192", "3"}, "run(argc - 1, &argv[1]);"), "none x 256,1,1, 16");
  // The operands after a `getopt` loop, which GNU's moves past the options: `argv + optind`.
  const std::string options = "int opt, v = 0;\nwhile ((opt = getopt(argc, argv, \"v\")) != -1) {\n"
                              "  switch (opt) {\n  case 'v': v = 1; break;\n  }\n}\n";
  EXPECT_EQ(run({"8192", "-v", "2"}, options + "run(argc - optind, argv + optind);"), "32,1,1 x 256,1,1, 2");
  // Given whole after the loop, `args[2]` is the second argument once the options are moved first.
  EXPECT_EQ(runWith({"4096", "-v", "8192"}, options + "show(argv);", nullptr,
                    "void show(char **args) {\n  float *x;\n  k<<<atoi(args[2]) / 256, 256>>>(x);\n}\n"),
            "16,1,1 x 256,1,1, 1");
  // Calls that pass different parts: which one a read sees is not known.
  EXPECT_EQ(run({"8192", "3"}, "run(argc - 1, argv + 1);\nrun(argc - 2, argv + 2);"), "none x 256,1,1, 32");
  EXPECT_EQ(run({"8192", "3"}, "run(argc, argv + offset());"), "none x 256,1,1, 16"); // a part that does not fold
}

TEST(CommandLineTest, OperandsAfterAGetoptLoopAreReadAtOptind) {
  const std::string operands = "int n, steps = 1, opt;\nwhile ((opt = getopt(argc, argv, \"vs:\")) != -1) {\n"
                               "  switch (opt) {\n  case 's': steps = atoi(optarg); break;\n"
                               "  case 'v': break;\n  }\n}\n"
                               "if (argc - optind < 1) return 1;\nn = atoi(argv[optind]);\n"
                               "for (int t = 0; t < steps; t++) k<<<n / 256, 256>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"-v", "-s", "3", "8192"}, operands, &how), "32,1,1 x 256,1,1, 3");
  EXPECT_NE(how.find("`optind` = 4, the first operand's index once the `getopt` loop ends, the program run with the "
                     "arguments `-v -s 3 8192`"),
            std::string::npos)
      << how;
  // GNU's getopt moves the operands past the options: `argv[optind]` is 8192 wherever it was given.
  EXPECT_EQ(runWith({"8192", "-s", "2", "-v"}, operands), "32,1,1 x 256,1,1, 2");
  EXPECT_EQ(runWith({"-s", "2", "--", "-4096"}, operands), "none x 256,1,1, 2"); // `--` ends the options
  EXPECT_EQ(runWith({"-v"}, operands), "none x 256,1,1, 1"); // no operand: `argv[2]` is not there
  // `argv[1]` after the loop is the first option, not what was given first.
  EXPECT_EQ(runWith({"1024", "-s", "2"},
                    "int opt, steps = 1;\nwhile ((opt = getopt(argc, argv, \"s:\")) != -1) {\n  switch (opt) {\n"
                    "  case 's': steps = atoi(optarg); break;\n  }\n}\nk<<<atoi(argv[1]) / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
  // `optind` set by the program, and a loop whose option string is not a literal, are not read.
  EXPECT_EQ(runWith({"8192"}, "optind = 1;\n" + operands), "none x 256,1,1, 1");
  EXPECT_EQ(runWith({"8192"}, "const char *o = \"vs:\";\nint n, opt;\nwhile ((opt = getopt(argc, argv, o)) != -1) {}\n"
                              "n = atoi(argv[optind]);\nk<<<n / 256, 256>>>(x);"),
            "none x 256,1,1, 1");
}

TEST(CommandLineTest, GetoptLongReadsTheLongOptionsItsTableNames) {
  const std::string table = "static struct option long_options[] = {\n  {\"size\", required_argument, NULL, 's'},\n"
                            "  {\"steps\", required_argument, NULL, 't'},\n  {\"verbose\", no_argument, NULL, 'v'},\n"
                            "  {NULL, 0, NULL, 0}\n};\n";
  const std::string loop = "int n = 4096, steps = 1, opt, index;\n"
                           "while ((opt = getopt_long(argc, argv, \"s:t:v\", long_options, &index)) != -1) {\n"
                           "  switch (opt) {\n  case 's': n = atoi(optarg); break;\n"
                           "  case 't': steps = atoi(optarg); break;\n  case 'v': break;\n  }\n}\n"
                           "for (int t = 0; t < steps; t++) k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"--size", "8192", "--steps=3", "--verbose"}, loop, nullptr, table), "32,1,1 x 256,1,1, 3");
  EXPECT_EQ(runWith({"--si=1024", "-t", "2", "in.dat"}, loop, nullptr, table), "4,1,1 x 256,1,1, 2");
  EXPECT_EQ(runWith({"--ste", "5"}, loop, nullptr, table), "16,1,1 x 256,1,1, 5"); // `--ste` is `--steps` alone
  // A table not read (an entry's value not a number) and a long option given: what the cases set is open.
  const std::string unread =
      "static struct option long_options[] = {{\"size\", 1, NULL, SIZE_OPTION}, {0, 0, 0, 0}};\n";
  EXPECT_EQ(runWith({"--size", "8192"}, loop, nullptr, unread), "none x 256,1,1, 16");
  EXPECT_EQ(runWith({"-s", "8192"}, loop, nullptr, unread), "32,1,1 x 256,1,1, 1"); // short options only
}

TEST(CommandLineTest, OptionParsersFindOnlyTheOptionsGiven) {
  const std::string samples = "int n = 4096;\nif (checkCmdLineFlag(argc, (const char **)argv, \"n\"))\n"
                              "  n = getCmdLineArgumentInt(argc, (const char **)argv, \"n\");\nk<<<n / 256, 256>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"16"}, samples, &how), "16,1,1 x 256,1,1, 1"); // no option among them: no flag found
  EXPECT_NE(how.find("is false, the program run with the arguments `16`"), std::string::npos) << how;
  // The CUDA samples' helpers read their flag: dashes dropped, case ignored, the value after `=`.
  EXPECT_EQ(runWith({"-n=8192"}, samples, &how), "32,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("is true, the program run with the arguments `-n=8192`"), std::string::npos) << how;
  EXPECT_EQ(runWith({"--N=2048", "-v"}, samples), "8,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-nx=8192"}, samples), "16,1,1 x 256,1,1, 1"); // another flag
  EXPECT_EQ(runWith({"-n"}, samples), "none x 256,1,1, 1"); // `-n` alone gives 0: no grid
  const std::string named = "int n = 4096;\nconst char *flag = \"n\";\nif (checkCmdLineFlag(argc, (const char **)argv, "
                            "flag))\n  n = 8192;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-n=8192"}, named), "none x 256,1,1, 1"); // a flag named by a variable is not read
  EXPECT_EQ(runWith({"16"}, named), "16,1,1 x 256,1,1, 1");
  const std::string getopt = "int n = 4096, opt;\nwhile ((opt = getopt(argc, argv, \"n:\")) != -1)\n"
                             "  if (opt == 'n') n = atoi(optarg);\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"input.txt"}, getopt), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-n", "8192"}, getopt), "none x 256,1,1, 1"); // an `if`, not a `switch`, picks the option
}

TEST(CommandLineTest, AComparisonOfAnArgumentPicksTheBranch) {
  const std::string mode = "int n = 4096;\nif (argc > 2 && strcmp(argv[2], \"large\") == 0)\n  n = 1 << 24;\n"
                           "else if (argc > 2 && std::string(argv[2]) == \"small\")\n  n = 1024;\n"
                           "k<<<n / 256, 256>>>(x);";
  std::string how;
  EXPECT_EQ(runWith({"in.dat", "large"}, mode, &how), "65536,1,1 x 256,1,1, 1");
  EXPECT_NE(how.find("`argc` = 3, the program run with the arguments `in.dat large`; `if (argc > 2 && "
                     "strcmp(argv[2], \"larg...` at t.cu:4 is true"),
            std::string::npos)
      << how;
  EXPECT_EQ(runWith({"in.dat", "small"}, mode), "4,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"in.dat", "medium"}, mode), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"in.dat"}, mode), "16,1,1 x 256,1,1, 1"); // `argc > 2` fails first
  EXPECT_EQ(runWith({}, mode), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-v"}, "int n = 4096;\nif (argc > 1 && !strcmp(argv[1], \"-v\")) n = 8192;\nk<<<n / 256, "
                            "256>>>(x);"),
            "32,1,1 x 256,1,1, 1");
}

TEST(CommandLineTest, AnArgumentsCharactersAreReadOutsideOptionLoops) {
  // `if (c) switch (...) {...}` unbraced: the `if` heads the switch's cases too, so run bare n stays 4096.
  const std::string letter = "int n = 4096;\nif (argc > 1 && argv[1][0] == '-')\n  switch (argv[1][1]) {\n"
                             "  case 'l': n = 1 << 24; break;\n  case 's': n = 1024; break;\n  }\n"
                             "k<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({}, letter), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-l"}, letter), "65536,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-s"}, letter), "4,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-x"}, letter), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"s"}, letter), "16,1,1 x 256,1,1, 1"); // no dash: the switch is not reached
  EXPECT_EQ(runWith({"-"}, letter), "16,1,1 x 256,1,1, 1"); // argv[1][1] is the terminating 0
  // Past the terminating 0 is not known; nor is a character not ASCII, whose sign the host's `char` decides.
  const std::string past = "int n = 4096;\nswitch (argv[1][3]) { case 'x': n = 1024; }\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-a"}, past), "none x 256,1,1, 1");
  EXPECT_EQ(runWith({"-abx"}, past), "4,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-abc"}, past), "16,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-ab\xc3\xa9"}, past), "none x 256,1,1, 1");
}

TEST(CommandLineTest, AStdStringsTextIsReadThroughCStrAndSubstr) {
  const std::string read = "int n = std::stoi(std::string(argv[1]).substr(4).c_str());\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"--n=8192"}, read), "32,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"--n"}, read), "none x 256,1,1, 1"); // past its end
  const std::string twice = "int n = atoi(std::string(argv[1] + 1).substr(2).c_str());\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-n=4096"}, twice), "16,1,1 x 256,1,1, 1");
}

TEST(CommandLineTest, CharacterLiteralsAreTheirCodesInExpressions) {
  // A letter kept in a variable, compared by ==, ordered by <, and a digit's value by `- '0'`.
  const std::string kept =
      "int n = 4096;\nchar mode = argv[1][0];\nif (mode == 'l') n = 1 << 24;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"l"}, kept), "65536,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"s"}, kept), "16,1,1 x 256,1,1, 1");
  const std::string chosen = "int n = argv[1][1] == 'l' ? 1 << 24 : 1024;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-l"}, chosen), "65536,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-s"}, chosen), "4,1,1 x 256,1,1, 1");
  const std::string ordered = "int n = 4096;\nif (argv[1][0] < 'a') n = 1024;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"A"}, ordered), "4,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"b"}, ordered), "16,1,1 x 256,1,1, 1");
  const std::string digit = "int n = (argv[1][0] - '0') * 1024;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"4"}, digit), "16,1,1 x 256,1,1, 1");
  const std::string escaped = "int n = argv[1][1] == '\\0' ? 2048 : 4096;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"-"}, escaped), "8,1,1 x 256,1,1, 1");
  EXPECT_EQ(runWith({"-v"}, escaped), "16,1,1 x 256,1,1, 1");
  // A wide literal's code is the host's wchar_t's: open.
  const std::string wide = "int n = argv[1][0] == L'a' ? 2048 : 4096;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({"a"}, wide), "none x 256,1,1, 1");
  // A literal without a code leaves its expression open; one written by its code folds.
  const std::string several = "int n = ('ab' + 1) * 4096;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({}, several), "none x 256,1,1, 1");
  const std::string coded = "int n = ('\\x10' + 1) * 4096;\nk<<<n / 256, 256>>>(x);";
  EXPECT_EQ(runWith({}, coded), "272,1,1 x 256,1,1, 1");
}

TEST(CommandLineTest, CodeOfWritesACharacterLiteralsCodeInItsPlace) {
  EXPECT_EQ(codeOf("c == 'l' && d == '-'"), "c == 108 && d == 45 ");
  EXPECT_EQ(codeOf("'\\n' '\\0' '\\'' '\\\\'"), "10   0    39   92  ");
  // A code written in octal or hexadecimal is that code.
  EXPECT_EQ(codeOf("'\\x41' '\\101' '\\7'"), "65     65     7   ");
  // Several characters, a prefix or a byte over 127: a name nothing defines, which no expression folds; a string
  // is blank.
  EXPECT_EQ(codeOf("'ab' L'a' '\xe9' '\\x80' \"a\""), "____ L___ ___ ______    ");
  EXPECT_EQ(codeOf("1'000'000"), "1'000'000"); // C++14's digit separators are no literals
  EXPECT_EQ(characterCode("'a'"), 97);
  EXPECT_EQ(characterCode("'\\t'"), 9);
  EXPECT_EQ(characterCode("'\\x7f'"), 127);
  EXPECT_EQ(characterCode("'\\0'"), 0);
  EXPECT_FALSE(characterCode("'\\q'"));
  EXPECT_FALSE(characterCode("'\\8'"));
  EXPECT_FALSE(characterCode("'\\1010'"));
  EXPECT_FALSE(characterCode("'\\x'"));
  EXPECT_FALSE(characterCode("\"a\""));
}

} // namespace
} // namespace ptxdvfs::tools
