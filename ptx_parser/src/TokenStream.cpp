// TokenStream.cpp - PtxToken, PtxTokenSource and PtxTokenStream.
#include "TokenStream.h"

namespace ptxdvfs::ptx {

std::string_view PtxToken::textView() const {
  if (lexed_.type == kEofTokenType)
    return "<EOF>";
  return source_.substr(lexed_.offset, lexed_.length);
}

std::string PtxToken::getText() const { return std::string(textView()); }

antlr4::TokenSource *PtxToken::getTokenSource() const { return tokenSource_; }

std::unique_ptr<antlr4::Token> PtxTokenSource::nextToken() {
  // The stream is filled before parsing starts; nothing pulls from here.
  return nullptr;
}

antlr4::TokenFactory<antlr4::CommonToken> *PtxTokenSource::getTokenFactory() {
  return antlr4::CommonTokenFactory::DEFAULT.get();
}

antlr4::Token *PtxTokenStream::LT(ssize_t k) {
  if (k == 0)
    return nullptr;
  if (k < 0) {
    auto back = static_cast<std::size_t>(-k);
    return back > position_ ? nullptr : &tokens_[position_ - back];
  }
  std::size_t at = position_ + static_cast<std::size_t>(k) - 1;
  return &tokens_[std::min(at, tokens_.size() - 1)];
}

std::size_t PtxTokenStream::LA(ssize_t i) {
  // The parser's hottest call: read the type without a virtual getType().
  if (i > 0) {
    std::size_t at = std::min(position_ + static_cast<std::size_t>(i) - 1, tokens_.size() - 1);
    std::uint32_t type = tokens_[at].lexed().type;
    return type == kEofTokenType ? antlr4::Token::EOF : type;
  }
  antlr4::Token *token = LT(i);
  return token ? token->getType() : antlr4::Token::INVALID_TYPE;
}

void PtxTokenStream::consume() {
  if (position_ + 1 >= tokens_.size())
    throw antlr4::IllegalStateException("cannot consume EOF");
  ++position_;
}

void PtxTokenStream::seek(std::size_t index) {
  position_ = std::min(index, tokens_.size() - 1);
}

std::string PtxTokenStream::getText(const antlr4::misc::Interval &interval) {
  if (interval.a < 0 || interval.b < 0 || tokens_.empty())
    return "";
  std::size_t last = std::min(static_cast<std::size_t>(interval.b), tokens_.size() - 1);
  std::string text;
  for (std::size_t i = static_cast<std::size_t>(interval.a); i <= last; ++i) {
    if (tokens_[i].getType() == antlr4::Token::EOF)
      break;
    text += tokens_[i].textView();
  }
  return text;
}

std::string PtxTokenStream::getText() {
  return getText(antlr4::misc::Interval(std::size_t{0}, tokens_.size() - 1));
}

std::string PtxTokenStream::getText(antlr4::RuleContext *ctx) {
  return getText(ctx->getSourceInterval());
}

std::string PtxTokenStream::getText(antlr4::Token *start, antlr4::Token *stop) {
  if (!start || !stop)
    return "";
  return getText(antlr4::misc::Interval(start->getTokenIndex(), stop->getTokenIndex()));
}

} // namespace ptxdvfs::ptx
