// ParserErrorsTest.cpp - malformed PTX gives the documented file:line:col diagnostics.
#include "ParseHelpers.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace ptxdvfs;
using ptxdvfs::test::inKernel;

TEST(ParserErrorsTest, ReportsMissingSemicolonAtTheNextToken) {
  EXPECT_PARSE_FAILS_WITH(inKernel("ld.global.f32 %f1, [%rd1]\nadd.f32 %f2, %f1, %f1;"), 5, 1,
                          "add.f32");
}

TEST(ParserErrorsTest, ReportsUnexpectedCharacterWithItsColumn) {
  EXPECT_PARSE_FAILS_WITH(inKernel("  add.s32 %r1, %r2, #3;"), 4, 21, "unexpected '#'");
}

TEST(ParserErrorsTest, ReportsNonPrintableBytesByValue) {
  EXPECT_PARSE_FAILS_WITH(inKernel(std::string("mov.u32 %r1, \x01;")), 4, 14, "byte 0x01");
}

TEST(ParserErrorsTest, ReportsUnterminatedStringAndComment) {
  EXPECT_PARSE_FAILS_WITH(".version 8.0\n.file 1 \"abc\n", 2, 9, "unterminated string");
  EXPECT_PARSE_FAILS_WITH(".version 8.0\n  /* never closed\n\n", 2, 3, "unterminated comment");
}

TEST(ParserErrorsTest, ReportsMissingClosingBraceAtEndOfFile) {
  EXPECT_PARSE_FAILS_WITH(".version 8.0\n.target sm_80\n.entry k()\n{\n\tret;\n", 6, 1, "<EOF>");
}

TEST(ParserErrorsTest, ReportsSeveralErrorsInOneFile) {
  auto result = ptx::parseModule(inKernel("add.s32 %r1 %r2;\nret;\nmov.u32 , ;\n"), "bad.ptx");
  ASSERT_FALSE(result.hasValue());
  EXPECT_GE(result.diagnostics().size(), 2u) << test::describe(result.diagnostics());
  EXPECT_EQ(result.diagnostics()[0].location.line, 4u);
  EXPECT_EQ(result.diagnostics().back().location.line, 6u);
}

TEST(ParserErrorsTest, ReportsIntegerLiteralsBeyond64Bits) {
  EXPECT_PARSE_FAILS_WITH(inKernel("add.u64 %rd1, %rd2, 99999999999999999999999;"), 4, 21,
                          "does not fit in 64 bits");
}

TEST(ParserErrorsTest, ReportsHexFloatsWithTheWrongDigitCount) {
  EXPECT_PARSE_FAILS_WITH(inKernel("mov.f32 %f1, 0f3F80;"), 4, 14, "needs 8 hex digits");
  EXPECT_PARSE_FAILS_WITH(inKernel("mov.f64 %fd1, 0d3FF0;"), 4, 15, "needs 16 hex digits");
}

TEST(ParserErrorsTest, RejectsKernelsWithResults) {
  EXPECT_PARSE_FAILS_WITH(".version 8.0\n.entry (.param .b32 r) k() { ret; }\n", 2, 8,
                          "cannot return values");
}

TEST(ParserErrorsTest, DiagnosticsFormatAsFileLineColumn) {
  auto result = ptx::parseModule(inKernel("mov.u32 %r1 %r2;"), "dir/k.ptx");
  ASSERT_FALSE(result.hasValue());
  EXPECT_EQ(result.diagnostics()[0].format().rfind("dir/k.ptx:4:13: error: ", 0), 0u)
      << result.diagnostics()[0].format();
}

TEST(ParserErrorsTest, BestEffortModuleKeepsTheIntactFunctions) {
  ptx::ParseResult result = ptx::parseForDiagnostics(R"(.version 8.0
.target sm_80
.visible .entry good() { ret; }
.visible .entry bad() { add.s32 %r1 %r2; }
.visible .entry alsoGood() { exit; }
)",
                                                     "partial.ptx");
  EXPECT_TRUE(hasErrors(result.diagnostics));
  std::vector<std::string> names;
  for (const auto &function : result.module.functions)
    names.push_back(function.name);
  EXPECT_NE(std::find(names.begin(), names.end(), "good"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "alsoGood"), names.end());
}

TEST(ParserErrorsTest, ParseFileNamesUnreadableFiles) {
  auto missing = ptx::parseFile("/nonexistent/dir/k.ptx");
  ASSERT_FALSE(missing.hasValue());
  EXPECT_EQ(missing.diagnostics()[0].format(),
            "/nonexistent/dir/k.ptx: error: cannot open file: No such file or directory");
  std::string dir = std::filesystem::temp_directory_path().string();
  auto directory = ptx::parseFile(dir);
  ASSERT_FALSE(directory.hasValue());
  EXPECT_NE(directory.diagnostics()[0].message.find("is a directory"), std::string::npos);
}
