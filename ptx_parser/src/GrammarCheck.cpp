// GrammarCheck.cpp - syntax errors from the generated ANTLR parser.
#include "GrammarCheck.h"

#include "PTXParser.h"
#include "TokenStream.h"

namespace ptxdvfs::ptx {

namespace {

struct TooManyErrors {};

/// Records syntax errors as diagnostics instead of printing them, and
/// aborts the parse once the error budget is spent.
class DiagnosticListener final : public antlr4::BaseErrorListener {
public:
  DiagnosticListener(const std::string &path, std::size_t maxErrors, Diagnostics &out)
      : path_(path), maxErrors_(maxErrors), out_(out) {}

  void syntaxError(antlr4::Recognizer *, antlr4::Token *, std::size_t line,
                   std::size_t charPositionInLine, const std::string &message,
                   std::exception_ptr) override {
    out_.push_back({path_,
                    {static_cast<std::uint32_t>(line),
                     static_cast<std::uint32_t>(charPositionInLine + 1)},
                    Severity::Error,
                    message});
    if (++errors_ >= maxErrors_)
      throw TooManyErrors{};
  }

private:
  const std::string &path_;
  std::size_t maxErrors_;
  Diagnostics &out_;
  std::size_t errors_ = 0;
};

} // namespace

Diagnostics grammarDiagnostics(std::string_view source, const std::string &path,
                               const std::vector<LexedToken> &lexed, std::size_t begin,
                               std::size_t end, std::size_t maxErrors) {
  Diagnostics diagnostics;
  PtxTokenSource tokenSource(path);
  std::vector<PtxToken> tokens;
  tokens.reserve(end - begin + 1);
  for (std::size_t i = begin; i < end; ++i)
    tokens.emplace_back(lexed[i], source, tokens.size(), &tokenSource);
  LexedToken eof = end < lexed.size() - 1 ? lexed[end] : lexed.back();
  eof.type = kEofTokenType;
  eof.length = 0;
  tokens.emplace_back(eof, source, tokens.size(), &tokenSource);

  PtxTokenStream stream(tokens, tokenSource);
  PTXParser parser(&stream);
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  DiagnosticListener listener(path, std::max<std::size_t>(maxErrors, 1), diagnostics);
  parser.removeErrorListeners();
  parser.addErrorListener(&listener);
  try {
    parser.module();
  } catch (const TooManyErrors &) {
  } catch (const std::exception &e) {
    // ANTLR reports recognition problems through the listener; anything
    // thrown is a runtime failure on strange input, still not a crash.
    diagnostics.push_back({path, {}, Severity::Error, std::string("parser failure: ") + e.what()});
  }
  return diagnostics;
}

} // namespace ptxdvfs::ptx
