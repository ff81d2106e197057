// FixturesTest.cpp - every committed nvcc/clang fixture and shared conformance file parses.
#include "ParseHelpers.h"
#include "TestPaths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>

using namespace ptxdvfs;

namespace {

std::string trim(const std::string &line) {
  std::size_t begin = line.find_first_not_of(" \t\r");
  if (begin == std::string::npos)
    return "";
  std::size_t end = line.find_last_not_of(" \t\r");
  return line.substr(begin, end - begin + 1);
}

/// An oracle independent of the grammar: the lines on which an instruction
/// starts, found with plain text rules that hold for compiler output (one
/// statement per line; a `call` may continue over several lines until `;`).
std::set<std::size_t> instructionLinesByText(const std::string &text) {
  static const std::regex instructionStart(R"(^(@!?%?[\w$]+\s+)?[a-z][\w.:]*(\s.*)?;?$)");
  static const std::regex labelStart(R"(^[\w$]+\s*:[^:].*|^[\w$]+\s*:$)");
  std::set<std::size_t> lines;
  std::istringstream in(text);
  std::string raw;
  bool inFunction = false, inSection = false, continuing = false;
  int depth = 0;
  for (std::size_t number = 1; std::getline(in, raw); ++number) {
    std::string line = trim(raw.substr(0, raw.find("//")));
    if (line.rfind(".section", 0) == 0)
      inSection = true;
    if (line.find(".entry") != std::string::npos || line.find(".func") != std::string::npos)
      inFunction = true;
    // nvcc's inline asm opens a scope on the instruction's line: `{mul.f16x2 ...;`.
    std::string statement = trim(line.substr(std::min(line.find_first_not_of('{'), line.size())));
    bool counted = false;
    if (inFunction && !inSection && depth > 0 && !continuing && !statement.empty() &&
        std::regex_match(statement, instructionStart) && !std::regex_match(statement, labelStart)) {
      lines.insert(number);
      counted = true;
    }
    if (counted || continuing)
      continuing = line.find(';') == std::string::npos;
    for (char c : line) {
      if (c == '{')
        ++depth;
      if (c == '}' && --depth == 0) {
        inFunction = false;
        inSection = false;
      }
    }
  }
  return lines;
}

class PtxFileTest : public ::testing::TestWithParam<std::string> {};

std::string nameOf(const ::testing::TestParamInfo<std::string> &info) {
  std::string name = info.param.substr(info.param.find("/ptx/") != std::string::npos
                                           ? info.param.rfind('/') + 1
                                           : info.param.rfind("/", info.param.rfind('/') - 1) + 1);
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

void checkParsesCompletely(const std::string &path) {
  std::string text = test::readFile(path);
  ptx::ParseOptions options;
  options.threads = 2;
  auto module = ptx::parseModule(text, path, options);
  ASSERT_TRUE(module.hasValue()) << test::describe(module.diagnostics());
  EXPECT_TRUE(module.diagnostics().empty()) << test::describe(module.diagnostics());
  EXPECT_FALSE(module->version.empty());
  EXPECT_FALSE(module->kernels().empty());

  std::set<std::size_t> parsedLines;
  std::vector<std::string> sourceLines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    sourceLines.push_back(line);
  bool hasLoc = text.find(".loc") != std::string::npos;
  for (const ptx::Function &function : module->functions)
    function.forEachInstruction([&](const ptx::Instruction &instruction) {
      parsedLines.insert(instruction.location.line);
      ASSERT_LE(instruction.location.line, sourceLines.size());
      std::string sourceLine = sourceLines[instruction.location.line - 1];
      if (!sourceLine.empty() && sourceLine.back() == '\r')
        sourceLine.pop_back();
      EXPECT_EQ(instruction.lineText, sourceLine);
      EXPECT_NE(instruction.lineText.find(instruction.mnemonic), std::string::npos);
      if (hasLoc && instruction.debugLocation) {
        EXPECT_FALSE(module->sourcePath(*instruction.debugLocation).empty())
            << instruction.lineText;
      }
    });
  std::set<std::size_t> expectedLines = instructionLinesByText(text);
  std::vector<std::size_t> onlyParsed, onlyExpected;
  std::set_difference(parsedLines.begin(), parsedLines.end(), expectedLines.begin(),
                      expectedLines.end(), std::back_inserter(onlyParsed));
  std::set_difference(expectedLines.begin(), expectedLines.end(), parsedLines.begin(),
                      parsedLines.end(), std::back_inserter(onlyExpected));
  EXPECT_TRUE(onlyParsed.empty()) << "parsed as instructions, not by the text oracle: line "
                                  << ::testing::PrintToString(onlyParsed);
  EXPECT_TRUE(onlyExpected.empty()) << "instructions the parser missed: line "
                                    << ::testing::PrintToString(onlyExpected);
}

} // namespace

TEST_P(PtxFileTest, ParsesEveryInstruction) { checkParsesCompletely(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Fixtures, PtxFileTest,
                         ::testing::ValuesIn(test::fixturePtxFiles()), nameOf);

class ConformanceFileTest : public PtxFileTest {};

TEST_P(ConformanceFileTest, ParsesEveryInstruction) { checkParsesCompletely(GetParam()); }

// Empty when ../shared is absent; SharedConformanceSetIsPresent reports that.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ConformanceFileTest);
INSTANTIATE_TEST_SUITE_P(SharedConformance, ConformanceFileTest,
                         ::testing::ValuesIn(test::conformancePtxFiles()), nameOf);

TEST(FixturesTest, SetIsPresentAndCoversManyArchitectures) {
  auto files = test::fixturePtxFiles();
  ASSERT_GE(files.size(), 30u);
  std::set<std::string> targets;
  for (const auto &file : files) {
    auto module = ptx::parseFile(file);
    ASSERT_TRUE(module.hasValue());
    targets.insert(module->targets.at(0));
  }
  EXPECT_GE(targets.size(), 3u);
}

TEST(FixturesTest, SharedConformanceSetIsPresent) {
  if (!test::sharedDirAvailable())
    GTEST_SKIP() << "../shared not found beside the checkout";
  EXPECT_EQ(test::conformancePtxFiles().size(), 19u);
}

TEST(FixturesTest, TextOracleCountsLinesItShould) {
  std::string text = ".entry k()\n{\n\t@%p1 bra $L;\n$L:\n\tcall.uni (r), \n\tf, \n\t(\n\tp\n\t);\n"
                     "\t{ // callseq\n\t.reg .b32 t;\n\tp_0 : .callprototype _ ();\n\tret;\n\t}\n}\n";
  EXPECT_EQ(instructionLinesByText(text), (std::set<std::size_t>{3, 5, 13}));
  EXPECT_EQ(instructionLinesByText(".entry k()\n{\n\t{mul.f16x2 %r6,%r7,%r8;\n}\n}\n"),
            (std::set<std::size_t>{3}));
}
