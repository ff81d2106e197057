// SyntaxParserTest.cpp - the hand-written parser accepts exactly what the ANTLR grammar accepts,
// and the chunked parse builds the same module as one pass over the whole file.
//
// grammar/PTXParser.g4 defines the syntax; SyntaxParser implements it by hand for speed. These
// tests hold the two to one verdict on every PTX file we have and on thousands of damaged
// copies of them, so that a change to either shows up here.
#include "ParseHelpers.h"
#include "TestPaths.h"

#include "GrammarCheck.h"
#include "Lexer.h"
#include "SyntaxParser.h"

#include "ptxdvfs/ptx/Parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>

using namespace ptxdvfs;

namespace {

struct Verdicts {
  bool lexed = false; ///< no lexing errors: only then do the parsers see the same tokens
  bool handAccepts = false;
  bool grammarAccepts = false;
};

Verdicts verdictsOn(const std::string &text) {
  Verdicts verdicts;
  ptx::LexResult lexed = ptx::lexPtx(text, "t.ptx", 50, ptx::ParseLimits{}.maxNesting);
  if (!lexed.diagnostics.empty())
    return verdicts;
  verdicts.lexed = true;
  std::size_t end = lexed.tokens.size() - 1;
  ptx::Module module;
  ptx::Diagnostics diagnostics;
  verdicts.handAccepts =
      ptx::parseTokens(lexed.tokens, 0, end, text, "t.ptx", module, diagnostics).failedItems == 0;
  verdicts.grammarAccepts =
      ptx::grammarDiagnostics(text, "t.ptx", lexed.tokens, 0, end, 50).empty();
  return verdicts;
}

std::vector<std::string> everyPtxFile() {
  std::vector<std::string> files = test::fixturePtxFiles();
  for (const char *verdict : {"valid", "invalid"})
    for (const auto &file : test::listFiles(test::fixtureDir() + "/syntax/" + verdict, ".ptx"))
      files.push_back(file);
  for (const auto &file : test::conformancePtxFiles())
    files.push_back(file);
  std::string datasetPtx = test::sharedDir() + "/datasets/gpuptxmodel-gtxtitanx/ptx";
  if (std::filesystem::is_directory(datasetPtx))
    for (const auto &entry : std::filesystem::recursive_directory_iterator(datasetPtx))
      if (entry.path().extension() == ".ptx")
        files.push_back(entry.path().string());
  return files;
}

/// A damaged copy of `text`: one of the edits a typing user or a broken
/// generator makes, at a position drawn from `random`.
std::string damaged(const std::string &text, std::mt19937 &random) {
  static const std::string kInserted = ";{}[](),:@!-+|=<>.x0%\"";
  std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(random);
  switch (random() % 5) {
  case 0: // a character lost
    return text.substr(0, at) + text.substr(at + 1);
  case 1: // a stray character
    return text.substr(0, at) + kInserted[random() % kInserted.size()] + text.substr(at);
  case 2: { // a line lost
    std::size_t begin = text.rfind('\n', at);
    std::size_t end = text.find('\n', at);
    begin = begin == std::string::npos ? 0 : begin;
    return text.substr(0, begin) + (end == std::string::npos ? "" : text.substr(end));
  }
  case 3: // cut short
    return text.substr(0, at);
  default: { // a stretch repeated
    std::size_t length = std::min<std::size_t>(random() % 200, text.size() - at);
    return text.substr(0, at) + text.substr(at, length) + text.substr(at);
  }
  }
}

/// Everything the AST holds of a function, as text, for comparing two parses.
std::string fingerprint(const ptx::Module &module) {
  std::ostringstream out;
  out << module.version << ' ' << module.addressSize << ' ' << module.globals.size() << ' '
      << module.directives.size() << '\n';
  for (const ptx::Function &function : module.functions) {
    out << function.name << ' ' << function.location.line << ' ' << function.parameters.size()
        << ' ' << function.body.size() << '\n';
    function.forEachInstruction([&](const ptx::Instruction &instruction) {
      out << instruction.location.line << ':' << instruction.location.column << ' '
          << (instruction.guard ? instruction.guard->predicate : "") << ' ' << instruction.mnemonic;
      for (const ptx::Operand &operand : instruction.operands)
        out << ' ' << ptx::toString(operand);
      if (instruction.debugLocation)
        out << " @" << instruction.debugLocation->line;
      out << '\n';
    });
  }
  return out.str();
}

} // namespace

TEST(SyntaxParserTest, AgreesWithTheGrammarOnEveryPtxFile) {
  std::vector<std::string> files = everyPtxFile();
  ASSERT_GE(files.size(), 40u);
  std::size_t rejected = 0;
  for (const std::string &file : files) {
    Verdicts verdicts = verdictsOn(test::readFile(file));
    if (!verdicts.lexed)
      continue;
    EXPECT_EQ(verdicts.handAccepts, verdicts.grammarAccepts) << file;
    rejected += !verdicts.grammarAccepts;
  }
  // syntax/invalid holds files that lex but do not parse.
  EXPECT_GE(rejected, 3u);
}

TEST(SyntaxParserTest, AgreesWithTheGrammarOnDamagedFiles) {
  std::mt19937 random(20261123);
  std::size_t compared = 0, rejected = 0;
  for (const std::string &file : test::fixturePtxFiles()) {
    std::string text = test::readFile(file);
    for (int copy = 0; copy < 40; ++copy) {
      std::string broken = damaged(text, random);
      Verdicts verdicts = verdictsOn(broken);
      if (!verdicts.lexed)
        continue;
      ++compared;
      rejected += !verdicts.grammarAccepts;
      EXPECT_EQ(verdicts.handAccepts, verdicts.grammarAccepts)
          << file << ", damaged copy " << copy << ":\n" << broken;
    }
  }
  // The damage must really exercise both sides of the verdict.
  EXPECT_GE(compared, 500u);
  EXPECT_GE(rejected, compared / 4);
  EXPECT_LE(rejected, compared - compared / 4);
}

TEST(SyntaxParserTest, ChunkedParseBuildsTheModuleOfOnePass) {
  std::string text;
  for (const std::string &path : test::fixturePtxFiles())
    text += test::readFile(path) + "\n";
  // Many chunks of 32k tokens: more than 1 MB of text.
  while (text.size() < 1500000)
    text += text;
  ptx::LexResult lexed = ptx::lexPtx(text, "all.ptx", 50, ptx::ParseLimits{}.maxNesting);
  ASSERT_TRUE(lexed.diagnostics.empty());
  ptx::Module onePass;
  ptx::Diagnostics diagnostics;
  ASSERT_EQ(ptx::parseTokens(lexed.tokens, 0, lexed.tokens.size() - 1, text, "all.ptx", onePass,
                             diagnostics)
                .failedItems,
            0u);
  for (unsigned threads : {1u, 2u}) {
    ptx::ParseOptions options;
    options.threads = threads;
    auto chunked = ptx::parseModule(text, "all.ptx", options);
    ASSERT_TRUE(chunked.hasValue()) << test::describe(chunked.diagnostics());
    EXPECT_EQ(fingerprint(*chunked), fingerprint(onePass)) << threads << " thread(s)";
  }
}

TEST(SyntaxParserTest, KeepsTheKernelsAfterADamagedDirective) {
  ptx::ParseResult result = ptx::parseForDiagnostics(R"(.version 8.0
.target sm_80
.address_size 6aram .b32 r) k()
{
	ret;
}
.visible .entry first() { ret; }
.visible .entry second() { exit; }
)",
                                                     "damaged.ptx");
  ASSERT_TRUE(hasErrors(result.diagnostics));
  EXPECT_EQ(result.diagnostics.front().location.line, 3u);
  std::vector<std::string> names;
  for (const auto &function : result.module.functions)
    names.push_back(function.name);
  EXPECT_EQ(names, (std::vector<std::string>{"first", "second"}));
}

TEST(SyntaxParserTest, ChunkLexerCutsOnlyBetweenTopLevelItems) {
  // A `}` closing an initializer is followed by `;` or `,` and ends no item.
  std::string item = ".global .align 4 .b32 table[2] = {1, 2};\n"
                     ".visible .entry k() { { ret; } }\n";
  std::string text;
  for (int i = 0; i < 200; ++i)
    text += item;
  ptx::ChunkLexer lexer(text, "t.ptx", 50, 256);
  std::vector<ptx::LexedToken> chunk;
  std::size_t chunks = 0, tokens = 0;
  while (lexer.next(chunk, 10)) {
    ++chunks;
    ASSERT_EQ(chunk.back().type, ptx::kEofTokenType);
    tokens += chunk.size() - 1;
    // Every chunk starts a top-level item: `.global` or `.visible`.
    std::string_view first = std::string_view(text).substr(chunk.front().offset, chunk.front().length);
    EXPECT_TRUE(first == ".global" || first == ".visible") << first;
  }
  EXPECT_GT(chunks, 100u);
  EXPECT_EQ(tokens, ptx::lexPtx(text, "t.ptx", 50, 256).tokens.size() - 1);
}
