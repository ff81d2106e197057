// Lexer.cpp - byte-level PTX lexer producing the tokens of PTXLexer.g4.
#include "Lexer.h"

#include "PTXLexer.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <cstdio>
#include <unordered_map>

namespace ptxdvfs::ptx {

namespace {

enum CharClass : std::uint8_t {
  kFollow = 1,    // [a-zA-Z0-9_$]
  kIdStart = 2,   // [a-zA-Z_$%]
  kDigit = 4,     // [0-9]
  kHex = 8,       // [0-9a-fA-F]
  kSpace = 16,    // [ \t\r\n\f]
};

constexpr std::array<std::uint8_t, 256> makeCharClasses() {
  std::array<std::uint8_t, 256> classes{};
  for (int c = 'a'; c <= 'z'; ++c)
    classes[c] |= kFollow | kIdStart;
  for (int c = 'A'; c <= 'Z'; ++c)
    classes[c] |= kFollow | kIdStart;
  for (int c = '0'; c <= '9'; ++c)
    classes[c] |= kFollow | kDigit | kHex;
  for (int c = 'a'; c <= 'f'; ++c)
    classes[c] |= kHex;
  for (int c = 'A'; c <= 'F'; ++c)
    classes[c] |= kHex;
  classes['_'] |= kFollow | kIdStart;
  classes['$'] |= kFollow | kIdStart;
  classes['%'] |= kIdStart;
  for (char c : {' ', '\t', '\r', '\n', '\f'})
    classes[static_cast<unsigned char>(c)] |= kSpace;
  return classes;
}

constexpr std::array<std::uint8_t, 256> kClasses = makeCharClasses();

constexpr std::array<std::uint32_t, 256> makePunctuation() {
  std::array<std::uint32_t, 256> types{};
  types['('] = PTXLexer::LPAREN;
  types[')'] = PTXLexer::RPAREN;
  types['['] = PTXLexer::LBRACK;
  types[']'] = PTXLexer::RBRACK;
  types['{'] = PTXLexer::LBRACE;
  types['}'] = PTXLexer::RBRACE;
  types['<'] = PTXLexer::LT;
  types['>'] = PTXLexer::GT;
  types[','] = PTXLexer::COMMA;
  types[';'] = PTXLexer::SEMI;
  types[':'] = PTXLexer::COLON;
  types['+'] = PTXLexer::PLUS;
  types['-'] = PTXLexer::MINUS;
  types['*'] = PTXLexer::STAR;
  types['/'] = PTXLexer::SLASH;
  types['!'] = PTXLexer::BANG;
  types['~'] = PTXLexer::TILDE;
  types['@'] = PTXLexer::AT;
  types['|'] = PTXLexer::PIPE;
  types['='] = PTXLexer::EQUAL;
  types['&'] = PTXLexer::AMP;
  types['^'] = PTXLexer::CARET;
  return types;
}

constexpr std::array<std::uint32_t, 256> kPunctuation = makePunctuation();

const std::unordered_map<std::string_view, std::uint32_t> &directiveKeywords() {
  static const std::unordered_map<std::string_view, std::uint32_t> keywords = {
      {".version", PTXLexer::VERSION},   {".target", PTXLexer::TARGET},
      {".address_size", PTXLexer::ADDRESS_SIZE},
      {".file", PTXLexer::FILE},         {".loc", PTXLexer::LOC},
      {".pragma", PTXLexer::PRAGMA},     {".section", PTXLexer::SECTION},
      {".entry", PTXLexer::ENTRY},       {".func", PTXLexer::FUNC},
      {".visible", PTXLexer::VISIBLE},   {".extern", PTXLexer::EXTERN},
      {".weak", PTXLexer::WEAK},         {".common", PTXLexer::COMMON},
      {".reg", PTXLexer::REG},           {".sreg", PTXLexer::SREG},
      {".local", PTXLexer::LOCAL},       {".shared", PTXLexer::SHARED},
      {".global", PTXLexer::GLOBAL},     {".const", PTXLexer::CONST},
      {".param", PTXLexer::PARAM},       {".tex", PTXLexer::TEX},
      {".align", PTXLexer::ALIGN},       {".callprototype", PTXLexer::CALLPROTOTYPE},
  };
  return keywords;
}

bool is(std::uint8_t c, CharClass charClass) { return kClasses[c] & charClass; }

std::string describeByte(unsigned char c) {
  if (c >= 0x20 && c < 0x7f)
    return std::string("'") + static_cast<char>(c) + "'";
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "0x%02x", c);
  return std::string("byte ") + buffer;
}

class Lexer {
public:
  Lexer(std::string_view text, const std::string &path, std::size_t maxErrors,
        std::size_t maxNesting)
      : text_(text), path_(path), maxErrors_(maxErrors), maxNesting_(maxNesting) {}

  /// Lexes the next whole top-level items, at least `minTokens` tokens of
  /// them unless the text ends first, into `out` (cleared), followed by an
  /// end marker. False once the text, or the error budget, is spent.
  bool nextChunk(std::vector<LexedToken> &out, std::size_t minTokens) {
    out.clear();
    if (carried_) {
      out.push_back(*carried_);
      carried_.reset();
    } else if (finished_) {
      return false;
    }
    out_ = &out;
    itemEndedBeforeLast_ = false;
    watchForItemEnd_ = false;
    while (!stopped_ && skipTrivia()) {
      lexToken();
      if (itemEndedBeforeLast_) {
        // The item ended before the last token: it opens the next chunk.
        carried_ = out.back();
        out.pop_back();
        out.push_back(endMarker(carried_->offset, carried_->line, carried_->column));
        emittedChunk_ = true;
        return true;
      }
      if (out.size() >= minTokens)
        watchForItemEnd_ = true;
    }
    finished_ = true;
    out.push_back(endMarker(pos_, line_, column()));
    bool first = !emittedChunk_;
    emittedChunk_ = true;
    return out.size() > 1 || first;
  }

  Diagnostics takeDiagnostics() { return std::move(diagnostics_); }

private:
  std::uint32_t column() const {
    return static_cast<std::uint32_t>(pos_ - lineStart_ + 1);
  }
  unsigned char peek(std::size_t ahead = 0) const {
    std::size_t at = pos_ + ahead;
    return at < text_.size() ? static_cast<unsigned char>(text_[at]) : 0;
  }
  bool atEnd() const { return pos_ >= text_.size(); }

  void error(std::uint32_t line, std::uint32_t col, std::string message) {
    diagnostics_.push_back({path_, {line, col}, Severity::Error, std::move(message)});
    if (diagnostics_.size() >= maxErrors_)
      stopped_ = true;
  }

  static LexedToken endMarker(std::size_t offset, std::uint32_t line, std::uint32_t column) {
    return {kEofTokenType, static_cast<std::uint32_t>(offset), 0, line, column};
  }

  void newline() {
    ++line_;
    lineStart_ = pos_ + 1;
  }

  /// Skips spaces and comments; false at end of input.
  bool skipTrivia() {
    while (!atEnd()) {
      unsigned char c = peek();
      if (is(c, kSpace)) {
        if (c == '\n')
          newline();
        ++pos_;
      } else if (c == '/' && peek(1) == '/') {
        while (!atEnd() && peek() != '\n')
          ++pos_;
      } else if (c == '/' && peek(1) == '*') {
        if (!skipBlockComment())
          return false;
      } else {
        return true;
      }
    }
    return false;
  }

  bool skipBlockComment() {
    std::uint32_t line = line_, col = column();
    pos_ += 2;
    while (!atEnd()) {
      if (peek() == '*' && peek(1) == '/') {
        pos_ += 2;
        return true;
      }
      if (peek() == '\n')
        newline();
      ++pos_;
    }
    error(line, col, "unterminated comment");
    return false;
  }

  void emit(std::uint32_t type, std::size_t start, std::uint32_t line, std::uint32_t col) {
    // A top-level item ends after a `;` or `}` at depth 0, but a `}` that
    // closes an initializer (`= {...};`) is followed by `;` or `,`: so the
    // cut is decided one token later.
    if (watchForItemEnd_ && previousEndsItem_ &&
        !(previousType_ == PTXLexer::RBRACE && (type == PTXLexer::SEMI || type == PTXLexer::COMMA)))
      itemEndedBeforeLast_ = true;
    out_->push_back({type, static_cast<std::uint32_t>(start),
                     static_cast<std::uint32_t>(pos_ - start), line, col});
    previousType_ = type;
    previousEndsItem_ = depth_ == 0 && (type == PTXLexer::SEMI || type == PTXLexer::RBRACE);
  }

  void skipFollow() {
    while (is(peek(), kFollow))
      ++pos_;
  }

  /// `('.' FOLLOW+ ('::' FOLLOW+)*)*` after an identifier, or the
  /// `('::' FOLLOW+)*` tail of a dot-name.
  void skipScopeTail() {
    while (peek() == ':' && peek(1) == ':' && is(peek(2), kFollow)) {
      pos_ += 2;
      skipFollow();
    }
  }

  void lexToken() {
    std::size_t start = pos_;
    std::uint32_t line = line_, col = column();
    unsigned char c = peek();

    if (is(c, kIdStart)) {
      ++pos_;
      skipFollow();
      while (peek() == '.' && is(peek(1), kFollow)) {
        ++pos_;
        skipFollow();
        skipScopeTail();
      }
      return emit(PTXLexer::IDENT, start, line, col);
    }
    if (c == '.' && is(peek(1), kFollow)) {
      ++pos_;
      skipFollow();
      skipScopeTail();
      auto keyword = directiveKeywords().find(text_.substr(start, pos_ - start));
      return emit(keyword == directiveKeywords().end() ? std::uint32_t{PTXLexer::DOT_NAME} : keyword->second,
                  start, line, col);
    }
    if (is(c, kDigit))
      return emit(lexNumber(), start, line, col);
    if (c == '"')
      return lexString(start, line, col);

    std::uint32_t punctuation = kPunctuation[c];
    if (punctuation == 0) {
      ++pos_;
      return error(line, col, "unexpected " + describeByte(c));
    }
    ++pos_;
    if (c == '(' || c == '[' || c == '{') {
      if (++depth_ > maxNesting_) {
        error(line, col, "brackets nested deeper than " + std::to_string(maxNesting_) +
                             " levels (limit: --max-nesting)");
        stopped_ = true;
        return;
      }
    } else if ((c == ')' || c == ']' || c == '}') && depth_ > 0) {
      --depth_;
    }
    emit(punctuation, start, line, col);
  }

  std::size_t countWhile(std::size_t from, CharClass charClass) const {
    std::size_t n = 0;
    while (from + n < text_.size() &&
           is(static_cast<unsigned char>(text_[from + n]), charClass))
      ++n;
    return n;
  }

  std::uint32_t lexNumber() {
    unsigned char first = peek(), second = peek(1);
    if (first == '0') {
      if ((second == 'f' || second == 'F' || second == 'd' || second == 'D') &&
          is(peek(2), kHex)) {
        pos_ += 2 + countWhile(pos_ + 2, kHex);
        return PTXLexer::HEX_FLOAT;
      }
      if ((second == 'x' || second == 'X') && is(peek(2), kHex)) {
        pos_ += 2 + countWhile(pos_ + 2, kHex);
        return finishInteger();
      }
      if ((second == 'b' || second == 'B') && (peek(2) == '0' || peek(2) == '1')) {
        pos_ += 2;
        while (peek() == '0' || peek() == '1')
          ++pos_;
        return finishInteger();
      }
    }
    pos_ += countWhile(pos_, kDigit);
    bool isFloat = false;
    if (peek() == '.') {
      ++pos_;
      pos_ += countWhile(pos_, kDigit);
      isFloat = true;
    }
    if (peek() == 'e' || peek() == 'E') {
      std::size_t sign = (peek(1) == '+' || peek(1) == '-') ? 1 : 0;
      if (is(peek(1 + sign), kDigit)) {
        pos_ += 1 + sign;
        pos_ += countWhile(pos_, kDigit);
        isFloat = true;
      }
    }
    return isFloat ? std::uint32_t{PTXLexer::FLOAT} : finishInteger();
  }

  std::uint32_t finishInteger() {
    if (peek() == 'U')
      ++pos_;
    return PTXLexer::INTEGER;
  }

  void lexString(std::size_t start, std::uint32_t line, std::uint32_t col) {
    ++pos_;
    while (!atEnd()) {
      unsigned char c = peek();
      if (c == '"') {
        ++pos_;
        return emit(PTXLexer::STRING, start, line, col);
      }
      if (c == '\n' || c == '\r')
        break;
      if (c == '\\' && pos_ + 1 < text_.size()) {
        ++pos_;
        if (peek() == '\n')
          newline();
      }
      ++pos_;
    }
    error(line, col, "unterminated string");
  }

  std::string_view text_;
  const std::string &path_;
  std::size_t maxErrors_;
  std::size_t maxNesting_;
  std::size_t pos_ = 0;
  std::size_t lineStart_ = 0;
  std::uint32_t line_ = 1;
  std::size_t depth_ = 0;
  bool stopped_ = false;
  Diagnostics diagnostics_;
  // Chunking state.
  std::vector<LexedToken> *out_ = nullptr;
  std::optional<LexedToken> carried_;
  bool finished_ = false;
  bool emittedChunk_ = false;
  bool watchForItemEnd_ = false;
  bool previousEndsItem_ = false;
  std::uint32_t previousType_ = 0;
  bool itemEndedBeforeLast_ = false;
};

} // namespace

struct ChunkLexer::Impl : Lexer {
  using Lexer::Lexer;
};

ChunkLexer::ChunkLexer(std::string_view text, const std::string &path, std::size_t maxErrors,
                       std::size_t maxNesting)
    : impl_(std::make_unique<Impl>(text, path, maxErrors == 0 ? 1 : maxErrors, maxNesting)) {}

ChunkLexer::~ChunkLexer() = default;

bool ChunkLexer::next(std::vector<LexedToken> &tokens, std::size_t minTokens) {
  return impl_->nextChunk(tokens, std::max<std::size_t>(minTokens, 1));
}

Diagnostics ChunkLexer::takeDiagnostics() { return impl_->takeDiagnostics(); }

LexResult lexPtx(std::string_view text, const std::string &path, std::size_t maxErrors,
                 std::size_t maxNesting) {
  ChunkLexer lexer(text, path, maxErrors, maxNesting);
  LexResult result;
  // PTX averages about one token per 4 bytes.
  result.tokens.reserve(text.size() / 4 + 16);
  lexer.next(result.tokens, std::numeric_limits<std::size_t>::max());
  result.diagnostics = lexer.takeDiagnostics();
  return result;
}

} // namespace ptxdvfs::ptx
