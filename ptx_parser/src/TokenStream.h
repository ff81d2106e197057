// TokenStream.h - hands lexed tokens to the ANTLR parser without copying text.
//
// ANTLR's CommonTokenStream pulls one heap-allocated CommonToken per token,
// each holding its own copy of the text. PtxToken is a view into the source
// buffer, stored contiguously, and PtxTokenStream indexes that array.
#pragma once

#include "Lexer.h"

#include "antlr4-runtime.h"

#include <string_view>
#include <vector>

namespace ptxdvfs::ptx {

class PtxTokenSource;

class PtxToken final : public antlr4::WritableToken {
public:
  PtxToken(const LexedToken &lexed, std::string_view source, std::size_t index,
           PtxTokenSource *tokenSource)
      : lexed_(lexed), source_(source), index_(index), tokenSource_(tokenSource) {}

  std::string getText() const override;
  std::string_view textView() const;
  std::size_t getType() const override {
    return lexed_.type == kEofTokenType ? antlr4::Token::EOF : lexed_.type;
  }
  std::size_t getLine() const override { return lexed_.line; }
  /// ANTLR counts columns from 0.
  std::size_t getCharPositionInLine() const override { return lexed_.column - 1; }
  std::size_t getChannel() const override { return DEFAULT_CHANNEL; }
  std::size_t getTokenIndex() const override { return index_; }
  std::size_t getStartIndex() const override { return lexed_.offset; }
  std::size_t getStopIndex() const override { return lexed_.offset + lexed_.length - 1; }
  antlr4::TokenSource *getTokenSource() const override;
  antlr4::CharStream *getInputStream() const override { return nullptr; }
  std::string toString() const override { return getText(); }

  void setText(const std::string &) override {}
  void setType(std::size_t) override {}
  void setLine(std::size_t) override {}
  void setCharPositionInLine(std::size_t) override {}
  void setChannel(std::size_t) override {}
  void setTokenIndex(std::size_t index) override { index_ = index; }

  const LexedToken &lexed() const { return lexed_; }

private:
  LexedToken lexed_;
  std::string_view source_;
  std::size_t index_;
  PtxTokenSource *tokenSource_;
};

/// Only consulted by ANTLR's error recovery, which conjures "missing"
/// tokens through the token factory.
class PtxTokenSource final : public antlr4::TokenSource {
public:
  explicit PtxTokenSource(std::string sourceName) : sourceName_(std::move(sourceName)) {}

  std::unique_ptr<antlr4::Token> nextToken() override;
  std::size_t getLine() const override { return 0; }
  std::size_t getCharPositionInLine() override { return 0; }
  antlr4::CharStream *getInputStream() override { return nullptr; }
  std::string getSourceName() override { return sourceName_; }
  antlr4::TokenFactory<antlr4::CommonToken> *getTokenFactory() override;

private:
  std::string sourceName_;
};

/// A TokenStream over a fixed token vector that ends with EOF.
class PtxTokenStream final : public antlr4::TokenStream {
public:
  PtxTokenStream(std::vector<PtxToken> &tokens, PtxTokenSource &source)
      : tokens_(tokens), source_(source) {}

  antlr4::Token *LT(ssize_t k) override;
  antlr4::Token *get(std::size_t index) const override { return &tokens_.at(index); }
  antlr4::TokenSource *getTokenSource() const override { return &source_; }
  std::string getText(const antlr4::misc::Interval &interval) override;
  std::string getText() override;
  std::string getText(antlr4::RuleContext *ctx) override;
  std::string getText(antlr4::Token *start, antlr4::Token *stop) override;

  void consume() override;
  std::size_t LA(ssize_t i) override;
  ssize_t mark() override { return -1; }
  void release(ssize_t) override {}
  std::size_t index() override { return position_; }
  void seek(std::size_t index) override;
  std::size_t size() override { return tokens_.size(); }
  std::string getSourceName() const override { return source_.getSourceName(); }

private:
  std::vector<PtxToken> &tokens_;
  PtxTokenSource &source_;
  std::size_t position_ = 0;
};

} // namespace ptxdvfs::ptx
