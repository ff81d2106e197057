// LexerTest.cpp - the hand lexer, alone and against the generated ANTLR lexer.
#include "TestPaths.h"

#include "Lexer.h"
#include "ptxdvfs/ptx/Parser.h"
#include "PTXLexer.h"

#include <gtest/gtest.h>

using namespace ptxdvfs;

namespace {

struct TokenView {
  std::size_t type;
  std::string text;
  std::size_t line;
  std::size_t column; // 1-based

  bool operator==(const TokenView &o) const {
    return type == o.type && text == o.text && line == o.line && column == o.column;
  }
};

std::ostream &operator<<(std::ostream &os, const TokenView &t) {
  return os << t.line << ":" << t.column << " type " << t.type << " '" << t.text << "'";
}

std::vector<TokenView> handLexed(const std::string &text) {
  ptx::LexResult result = ptx::lexPtx(text, "t.ptx", 50, ptx::ParseLimits{}.maxNesting);
  EXPECT_TRUE(result.diagnostics.empty()) << result.diagnostics.front().format();
  std::vector<TokenView> tokens;
  for (const auto &t : result.tokens)
    if (t.type != ptx::kEofTokenType)
      tokens.push_back({t.type, text.substr(t.offset, t.length), t.line, t.column});
  return tokens;
}

std::vector<TokenView> antlrLexed(const std::string &text) {
  antlr4::ANTLRInputStream input(text);
  PTXLexer lexer(&input);
  std::vector<TokenView> tokens;
  for (auto token = lexer.nextToken(); token->getType() != antlr4::Token::EOF;
       token = lexer.nextToken())
    tokens.push_back({token->getType(), token->getText(), token->getLine(),
                      token->getCharPositionInLine() + 1});
  return tokens;
}

std::vector<std::size_t> types(const std::string &text) {
  std::vector<std::size_t> result;
  for (const auto &t : handLexed(text))
    result.push_back(t.type);
  return result;
}

} // namespace

TEST(LexerTest, SeparatesDirectiveKeywordsFromOtherDotNames) {
  EXPECT_EQ(types(".entry .func .reg .b32 .maxntid .shared .shared::cta"),
            (std::vector<std::size_t>{PTXLexer::ENTRY, PTXLexer::FUNC, PTXLexer::REG,
                                      PTXLexer::DOT_NAME, PTXLexer::DOT_NAME, PTXLexer::SHARED,
                                      PTXLexer::DOT_NAME}));
}

TEST(LexerTest, KeepsDottedMnemonicsAndSpecialRegistersWhole) {
  auto tokens = handLexed("fence.proxy.async.shared::cta %tid.x $L__BB0_2: _");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0].text, "fence.proxy.async.shared::cta");
  EXPECT_EQ(tokens[1].text, "%tid.x");
  EXPECT_EQ(tokens[2].text, "$L__BB0_2");
  EXPECT_EQ(tokens[3].type, PTXLexer::COLON);
  EXPECT_EQ(tokens[4].type, PTXLexer::IDENT);
}

TEST(LexerTest, LexesNumbers) {
  EXPECT_EQ(types("0f3F800000 0dBFF0000000000000 0x1F 0b101 017 42U 8.8 1e5 2.5e-3"),
            (std::vector<std::size_t>{PTXLexer::HEX_FLOAT, PTXLexer::HEX_FLOAT,
                                      PTXLexer::INTEGER, PTXLexer::INTEGER, PTXLexer::INTEGER,
                                      PTXLexer::INTEGER, PTXLexer::FLOAT, PTXLexer::FLOAT,
                                      PTXLexer::FLOAT}));
}

TEST(LexerTest, TracksLinesAndColumnsAcrossCommentsAndTabs) {
  auto tokens = handLexed("a /* x\n y */ b\n\t// c\n\t\td \"s\\\"t\"");
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[1], (TokenView{PTXLexer::IDENT, "b", 2, 7}));
  EXPECT_EQ(tokens[2], (TokenView{PTXLexer::IDENT, "d", 4, 3}));
  EXPECT_EQ(tokens[3], (TokenView{PTXLexer::STRING, "\"s\\\"t\"", 4, 5}));
}

TEST(LexerTest, AgreesWithTheGeneratedLexerOnEveryFixture) {
  std::vector<std::string> files = test::fixturePtxFiles();
  for (const std::string &file : test::conformancePtxFiles())
    files.push_back(file);
  ASSERT_GE(files.size(), 30u);
  for (const std::string &file : files) {
    std::string text = test::readFile(file);
    auto expected = antlrLexed(text);
    auto actual = handLexed(text);
    ASSERT_EQ(actual.size(), expected.size()) << file;
    for (std::size_t i = 0; i < actual.size(); ++i)
      ASSERT_EQ(actual[i], expected[i]) << file << " token " << i;
  }
}
