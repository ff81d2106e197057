// PieceParseTest.cpp - parseFileInPieces hands over the module of parseFile, in order, a piece
// at a time.
#include "ParseHelpers.h"
#include "TestPaths.h"

#include "ptxdvfs/ptx/Parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace ptxdvfs;

namespace {

/// Every fixture, repeated past 1.5 MB: many pieces of 32k tokens. One
/// file per test: ctest runs the tests of this file at the same time.
std::string writeLargeModule() {
  std::string text;
  for (const std::string &path : test::fixturePtxFiles())
    text += test::readFile(path) + "\n";
  while (text.size() < 1500000)
    text += text;
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::string path = (std::filesystem::temp_directory_path() / ("ptxdvfs_pieces_" + test + ".ptx")).string();
  std::ofstream(path) << text;
  return path;
}

} // namespace

TEST(PieceParseTest, PiecesTogetherAreTheModuleOfParseFile) {
  std::string path = writeLargeModule();
  auto whole = ptx::parseFile(path);
  ASSERT_TRUE(whole.hasValue()) << test::describe(whole.diagnostics());
  for (unsigned threads : {1u, 2u}) {
    ptx::ParseOptions options;
    options.threads = threads;
    std::vector<std::string> names;
    std::vector<std::size_t> instructions;
    std::size_t pieces = 0, globals = 0;
    const std::string *source = nullptr;
    ptx::ParseResult result = ptx::parseFileInPieces(path, options, [&](ptx::Module &piece) {
      ++pieces;
      EXPECT_EQ(piece.path, path);
      ASSERT_NE(piece.source, nullptr);
      if (!source) // every piece's views point into one text
        source = piece.source.get();
      EXPECT_EQ(piece.source.get(), source);
      EXPECT_EQ(*piece.source, *whole->source);
      EXPECT_EQ(piece.version, whole->version); // the header travels with every piece
      EXPECT_EQ(piece.files, whole->files);
      globals += piece.globals.size();
      for (const ptx::Function &function : piece.functions) {
        names.push_back(function.name);
        instructions.push_back(function.instructionCount());
      }
    });
    EXPECT_TRUE(result.diagnostics.empty()) << test::describe(result.diagnostics);
    EXPECT_GT(pieces, 10u);
    EXPECT_EQ(result.module.version, whole->version);
    EXPECT_EQ(result.module.targets, whole->targets);
    EXPECT_TRUE(result.module.functions.empty());
    ASSERT_EQ(names.size(), whole->functions.size()) << threads << " thread(s)";
    for (std::size_t i = 0; i < names.size(); ++i) {
      EXPECT_EQ(names[i], whole->functions[i].name) << "function " << i;
      EXPECT_EQ(instructions[i], whole->functions[i].instructionCount()) << "function " << i;
    }
    EXPECT_EQ(globals, whole->globals.size());
  }
  std::filesystem::remove(path);
}

TEST(PieceParseTest, ReportsErrorsAfterThePiecesBeforeThem) {
  std::string path = writeLargeModule();
  std::string text = test::readFile(path);
  text += "\n.visible .entry broken() { add.s32 %r1 %r2; }\n";
  std::ofstream(path) << text;
  std::size_t functions = 0;
  ptx::ParseResult result =
      ptx::parseFileInPieces(path, {}, [&](ptx::Module &piece) { functions += piece.functions.size(); });
  ASSERT_TRUE(hasErrors(result.diagnostics));
  EXPECT_EQ(result.diagnostics.front().path, path);
  EXPECT_GT(functions, 100u); // the intact functions before it were handed over
  std::filesystem::remove(path);
}

TEST(PieceParseTest, AnUnreadableFileIsOneDiagnosticAndNoPiece) {
  bool called = false;
  ptx::ParseResult result =
      ptx::parseFileInPieces("/nonexistent/k.ptx", {}, [&](ptx::Module &) { called = true; });
  EXPECT_FALSE(called);
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].format(),
            "/nonexistent/k.ptx: error: cannot open file: No such file or directory");
}
