// RobustnessTest.cpp - no input crashes or hangs the parser: garbage, truncation, nesting.
#include "ParseHelpers.h"
#include "TestPaths.h"

#include "Lexer.h"

#include <gtest/gtest.h>

#include <random>

using namespace ptxdvfs;

namespace {

/// Every diagnostic names the file, and the error count respects the cap.
void expectWellFormedDiagnostics(const ptx::Diagnostics &diagnostics, std::size_t maxErrors) {
  std::size_t errors = 0;
  for (const auto &d : diagnostics) {
    EXPECT_EQ(d.path, "fuzz.ptx");
    EXPECT_FALSE(d.message.empty());
    errors += d.severity == ptx::Severity::Error;
  }
  EXPECT_LE(errors, maxErrors);
}

} // namespace

TEST(RobustnessTest, RandomBytesNeverCrash) {
  std::mt19937 random(1234);
  ptx::ParseOptions options;
  options.maxErrors = 20;
  for (int round = 0; round < 300; ++round) {
    std::string bytes(random() % 2048, '\0');
    for (char &c : bytes)
      c = static_cast<char>(random() & 0xff);
    ptx::ParseResult result = ptx::parseForDiagnostics(bytes, "fuzz.ptx", options);
    expectWellFormedDiagnostics(result.diagnostics, options.maxErrors);
  }
}

TEST(RobustnessTest, ShuffledPtxTokensNeverCrash) {
  const std::vector<std::string> pieces = {
      ".entry", ".func", "{", "}", "(", ")", "[", "]", ";", ",", "@%p1", "%r1", "ld.global.f32",
      ".reg", ".b32", "%r<4>", "0f3F800000", "-", "+", "|", "!", ".param", "k", ":", "\n",
      ".loc 1 2 3", ".section", ".version 8.0", "\"s\"", "<", ">", "=", "_", "0x1F", "1.5"};
  std::mt19937 random(99);
  ptx::ParseOptions options;
  options.maxErrors = 50;
  for (int round = 0; round < 500; ++round) {
    std::string text;
    for (int n = random() % 200; n > 0; --n)
      text += pieces[random() % pieces.size()] + " ";
    ptx::ParseResult result = ptx::parseForDiagnostics(text, "fuzz.ptx", options);
    expectWellFormedDiagnostics(result.diagnostics, options.maxErrors);
  }
}

TEST(RobustnessTest, TruncatedFixturesFailCleanly) {
  std::string text = test::readFile(test::fixtureDir() +
                                       "/ptx/local_and_calls.nvcc13.0.sm80.ptx");
  ASSERT_FALSE(text.empty());
  std::size_t firstBody = text.find("\n{\n");
  ASSERT_NE(firstBody, std::string::npos);
  for (std::size_t cut = 0; cut < text.size(); cut += 97) {
    ptx::ParseResult result = ptx::parseForDiagnostics(text.substr(0, cut), "fuzz.ptx");
    expectWellFormedDiagnostics(result.diagnostics, 50);
    // Cut inside the first function body: a `}` is missing for sure.
    if (cut > firstBody + 3 && cut < text.find("\n}\n", firstBody)) {
      EXPECT_TRUE(hasErrors(result.diagnostics)) << "cut at " << cut;
    }
  }
}

TEST(RobustnessTest, DeepNestingIsReportedNotOverflowed) {
  std::string text = ".version 8.0\n.entry k()\n" + std::string(1000000, '{');
  ptx::ParseResult result = ptx::parseForDiagnostics(text, "fuzz.ptx");
  ASSERT_TRUE(hasErrors(result.diagnostics));
  EXPECT_NE(result.diagnostics[0].message.find("nested deeper than"), std::string::npos)
      << result.diagnostics[0].format();
  std::string operands = ".version 8.0\n.entry k() { add " + std::string(100000, '[') + " }";
  EXPECT_TRUE(hasErrors(ptx::parseForDiagnostics(operands, "fuzz.ptx").diagnostics));
}

TEST(RobustnessTest, ErrorFloodIsCapped) {
  std::string text;
  for (int i = 0; i < 100000; ++i)
    text += "#@ ;;\n";
  ptx::ParseOptions options;
  options.maxErrors = 10;
  ptx::ParseResult result = ptx::parseForDiagnostics(text, "fuzz.ptx", options);
  expectWellFormedDiagnostics(result.diagnostics, options.maxErrors);
  EXPECT_EQ(result.diagnostics.back().severity, ptx::Severity::Note);
  EXPECT_NE(result.diagnostics.back().message.find("too many errors"), std::string::npos);
}

TEST(RobustnessTest, ThreadedParseMatchesSerialParse) {
  // Enough text for many chunks, so several threads really share the work.
  std::string text;
  for (const std::string &path : test::fixturePtxFiles())
    text += test::readFile(path) + "\n";
  ASSERT_GT(text.size(), 200000u);
  ptx::ParseOptions serial, parallel;
  serial.threads = 1;
  parallel.threads = 4;
  auto one = ptx::parseModule(text, "all.ptx", serial);
  auto many = ptx::parseModule(text, "all.ptx", parallel);
  ASSERT_TRUE(one.hasValue()) << test::describe(one.diagnostics());
  ASSERT_TRUE(many.hasValue()) << test::describe(many.diagnostics());
  ASSERT_EQ(one->functions.size(), many->functions.size());
  for (std::size_t i = 0; i < one->functions.size(); ++i) {
    EXPECT_EQ(one->functions[i].name, many->functions[i].name);
    EXPECT_EQ(one->functions[i].location, many->functions[i].location);
    EXPECT_EQ(one->functions[i].instructionCount(), many->functions[i].instructionCount());
  }
  EXPECT_EQ(one->globals.size(), many->globals.size());
}

namespace {

const char *const kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

std::string kernelWith(const std::string &body) {
  return std::string(kHeader) + ".visible .entry k()\n{\n.reg .b32 %r<4>;\n" + body + "ret;\n}\n";
}

std::string firstError(const ptx::ParseResult &result) {
  for (const auto &d : result.diagnostics)
    if (d.severity == ptx::Severity::Error)
      return d.format();
  return "";
}

} // namespace

TEST(RobustnessTest, BinaryAndUtf16InputGetOneErrorEach) {
  std::string binary = kernelWith("") + std::string("\0\x01\x02", 3);
  ptx::ParseResult one = ptx::parseForDiagnostics(binary, "fuzz.ptx");
  ASSERT_EQ(one.diagnostics.size(), 1u);
  EXPECT_NE(one.diagnostics[0].message.find("binary data (a NUL byte at offset"), std::string::npos);
  std::string utf16 = "\xff\xfe.\0v\0e\0r\0";
  ptx::ParseResult two = ptx::parseForDiagnostics(utf16, "fuzz.ptx");
  ASSERT_EQ(two.diagnostics.size(), 1u);
  EXPECT_NE(two.diagnostics[0].message.find("UTF-16"), std::string::npos);
}

TEST(RobustnessTest, AStatementBeyondTheTokenLimitIsOneErrorAtItsStart) {
  std::string operands;
  for (int i = 0; i < 40000; ++i)
    operands += ", %r1";
  std::string text = kernelWith("add.s32 %r1" + operands + ";\n");
  ptx::ParseResult refused = ptx::parseForDiagnostics(text, "fuzz.ptx");
  EXPECT_NE(firstError(refused).find("fuzz.ptx:7:1: error: a statement of more than 65536 tokens "
                                     "starts here (limit: --max-statement-tokens)"),
            std::string::npos)
      << firstError(refused);
  ptx::ParseOptions raised;
  raised.limits.maxStatementTokens = 100000;
  // Within the limit it reaches the parser, which accepts any operand count.
  EXPECT_FALSE(hasErrors(ptx::parseForDiagnostics(text, "fuzz.ptx", raised).diagnostics));
}

TEST(RobustnessTest, ABodyBeyondTheStatementLimitIsOneError) {
  std::string body;
  for (int i = 0; i < 10; ++i)
    body += "add.s32 %r1, %r1, 1;\n";
  ptx::ParseOptions options;
  options.limits.maxFunctionStatements = 11; // ten adds, the .reg, then ret: 12
  std::string text = kernelWith(body);
  EXPECT_NE(firstError(ptx::parseForDiagnostics(text, "fuzz.ptx", options))
                .find("fuzz.ptx:5:1: error: a body of more than 11 statements"),
            std::string::npos);
  options.limits.maxFunctionStatements = 12;
  EXPECT_FALSE(hasErrors(ptx::parseForDiagnostics(text, "fuzz.ptx", options).diagnostics));
}

TEST(RobustnessTest, SectionsAndInitializersAreNotStatementsForTheLimits) {
  ptx::ParseOptions tight;
  tight.limits.maxStatementTokens = 8;
  tight.limits.maxFunctionStatements = 2;
  std::string section = ".section .debug_info\n{\n";
  for (int i = 0; i < 100; ++i)
    section += ".b8 1\n";
  section += "}\n";
  std::string text = std::string(kHeader) + ".global .b32 table[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};\n" +
                     ".visible .entry k()\n{\nret;\n}\n" + section;
  ptx::ParseResult result = ptx::parseForDiagnostics(text, "fuzz.ptx", tight);
  EXPECT_FALSE(hasErrors(result.diagnostics)) << firstError(result);
}

TEST(RobustnessTest, InputSizeAndNestingLimitsAreOptions) {
  std::string text = kernelWith("{\n{\nadd.s32 %r1, %r1, 1;\n}\n}\n");
  ptx::ParseOptions small;
  small.limits.maxInputBytes = 100;
  EXPECT_NE(firstError(ptx::parseForDiagnostics(text, "fuzz.ptx", small)).find("file too large"),
            std::string::npos);
  ptx::ParseOptions shallow;
  shallow.limits.maxNesting = 2;
  EXPECT_NE(firstError(ptx::parseForDiagnostics(text, "fuzz.ptx", shallow)).find("nested deeper than 2"),
            std::string::npos);
  EXPECT_FALSE(hasErrors(ptx::parseForDiagnostics(text, "fuzz.ptx").diagnostics));
}

TEST(RobustnessTest, CrlfLineEndsParseLikeLf) {
  std::string lf = kernelWith("add.s32 %r1, %r1, 1;\n");
  std::string crlf;
  for (char c : lf)
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  auto one = ptx::parseModule(lf, "fuzz.ptx"), two = ptx::parseModule(crlf, "fuzz.ptx");
  ASSERT_TRUE(one.hasValue());
  ASSERT_TRUE(two.hasValue()) << test::describe(two.diagnostics());
  ASSERT_EQ(two->kernels().size(), 1u);
  EXPECT_EQ(one->kernels()[0]->instructionCount(), two->kernels()[0]->instructionCount());
  EXPECT_EQ(one->kernels()[0]->location, two->kernels()[0]->location);
}

TEST(RobustnessTest, UnknownDirectivesAreKeptNotFatal) {
  std::string text = std::string(kHeader) + ".frobnicate 1, 2;\n" +
                     ".visible .entry k()\n{\n.reg .b32 %r<4>;\n.newthing .x %r1;\nret;\n}\n";
  auto module = ptx::parseModule(text, "fuzz.ptx");
  ASSERT_TRUE(module.hasValue()) << test::describe(module.diagnostics());
  EXPECT_EQ(module->kernels().size(), 1u);
}

namespace ptxdvfs::test {
namespace {

// cuRAND's precalc_xorwow_offset_matrix: nvcc writes a 102400-byte
// initializer on one line, more tokens than a parse chunk holds.
TEST(RobustnessTest, InitializersLongerThanAParseChunkStayWhole) {
  for (int elements : {100, 20000, 102400}) {
    std::string values;
    for (int i = 0; i < elements; ++i)
      values += i ? ", 7" : "7";
    std::string text = ".version 8.0\n.target sm_75\n.address_size 64\n"
                       ".global .align 4 .b8 table[" + std::to_string(elements) + "] = {" + values +
                       "};\n.visible .entry k()\n{\nret;\n}\n";
    ptx::Module module = parseOk(text);
    ASSERT_EQ(module.globals.size(), 1u) << elements;
    EXPECT_EQ(module.kernels().size(), 1u) << elements;
  }
}

} // namespace
} // namespace ptxdvfs::test
