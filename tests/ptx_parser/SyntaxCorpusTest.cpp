// SyntaxCorpusTest.cpp - our accept/reject decisions agree with ptxas, the authority on PTX.
//
// tests/fixtures/syntax/{valid,invalid}/ hold small files for grammar
// decisions. Without ptxas the parser is still checked against the
// recorded verdicts; with ptxas on PATH, ptxas must agree with them too,
// and must accept every compiler-made fixture.
#include "ParseHelpers.h"
#include "TestPaths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

using namespace ptxdvfs;

namespace {

std::vector<std::string> corpus(const std::string &verdict) {
  return test::listFiles(test::fixtureDir() + "/syntax/" + verdict, ".ptx");
}

bool ptxasAvailable() { return std::system("command -v ptxas >/dev/null 2>&1") == 0; }

/// ptxas's verdict, for the architecture the file's `.target` names.
bool ptxasAccepts(const std::string &path, const std::string &target) {
  std::string command = "ptxas -arch=" + target + " '" + path + "' -o /dev/null >/dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

std::string targetOf(const std::string &path) {
  ptx::ParseResult result = ptx::parseForDiagnostics(test::readFile(path), path);
  return result.module.targets.empty() ? "sm_80" : result.module.targets.front();
}

} // namespace

TEST(SyntaxCorpusTest, AcceptsTheValidCases) {
  auto files = corpus("valid");
  ASSERT_GE(files.size(), 3u);
  for (const auto &file : files) {
    auto module = ptx::parseModule(test::readFile(file), file);
    EXPECT_TRUE(module.hasValue()) << test::describe(module.diagnostics());
  }
}

TEST(SyntaxCorpusTest, RejectsTheInvalidCasesOnTheLinePtxasNames) {
  // The line ptxas 13.0 reports for each case ("Parsing error near ...").
  const std::map<std::string, unsigned> expectedLine = {
      {"bad_character.ptx", 7},     {"entry_with_result.ptx", 4}, {"missing_operand.ptx", 7},
      {"missing_semicolon.ptx", 8}, {"unbalanced_brace.ptx", 7},
  };
  auto files = corpus("invalid");
  ASSERT_EQ(files.size(), expectedLine.size());
  for (const auto &file : files) {
    std::string name = file.substr(file.rfind('/') + 1);
    auto module = ptx::parseModule(test::readFile(file), file);
    ASSERT_FALSE(module.hasValue()) << name;
    EXPECT_EQ(module.diagnostics().front().location.line, expectedLine.at(name))
        << test::describe(module.diagnostics());
  }
}

TEST(SyntaxCorpusTest, PtxasAgreesWithEveryVerdict) {
  if (!ptxasAvailable())
    GTEST_SKIP() << "ptxas is not on PATH";
  for (const auto &file : corpus("valid"))
    EXPECT_TRUE(ptxasAccepts(file, targetOf(file))) << file;
  for (const auto &file : corpus("invalid"))
    EXPECT_FALSE(ptxasAccepts(file, targetOf(file))) << file;
}

TEST(SyntaxCorpusTest, PtxasAcceptsEveryCompilerFixture) {
  if (!ptxasAvailable())
    GTEST_SKIP() << "ptxas is not on PATH";
  for (const auto &file : test::fixturePtxFiles())
    EXPECT_TRUE(ptxasAccepts(file, targetOf(file))) << file;
}
