// Parser.cpp - lex, split into top-level chunks, parse chunks (in parallel), merge.
#include "ptxdvfs/ptx/Parser.h"
#include "ptxdvfs/ptx/WorkQueue.h"

#include "AstBuilder.h"
#include "Lexer.h"
#include "PTXParser.h"
#include "TokenStream.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/stat.h>
#include <thread>

namespace ptxdvfs::ptx {

namespace {

/// A chunk holds whole top-level items and about this many tokens: enough
/// to amortise a parser's set-up, small enough to bound the memory of one
/// parse tree and to give threads work to share.
constexpr std::size_t kChunkTokens = 1 << 15;

struct TooManyErrors {};

/// Records syntax errors as diagnostics instead of printing them, and
/// aborts the parse once the chunk's error budget is spent.
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

  std::size_t errors() const { return errors_; }

private:
  const std::string &path_;
  std::size_t maxErrors_;
  Diagnostics &out_;
  std::size_t errors_ = 0;
};

struct Chunk {
  std::size_t begin; ///< first token
  std::size_t end;   ///< one past the last token (EOF not included)
};

/// Cuts the token list after a `;` or `}` at bracket depth 0, where one
/// top-level item ends and the next begins.
std::vector<Chunk> splitIntoChunks(const std::vector<LexedToken> &tokens) {
  std::vector<Chunk> chunks;
  std::size_t last = tokens.size() - 1; // the EOF
  std::size_t begin = 0;
  int depth = 0;
  for (std::size_t i = 0; i < last; ++i) {
    std::uint32_t type = tokens[i].type;
    if (type == PTXParser::LBRACE || type == PTXParser::LPAREN || type == PTXParser::LBRACK)
      ++depth;
    else if (type == PTXParser::RBRACE || type == PTXParser::RPAREN || type == PTXParser::RBRACK)
      depth = std::max(0, depth - 1);
    // A `}` ends a function body, but not an initializer (`= {...};`),
    // whose item goes on to its `;`.
    bool closesInitializer = type == PTXParser::RBRACE && i + 1 < last &&
                             (tokens[i + 1].type == PTXParser::SEMI || tokens[i + 1].type == PTXParser::COMMA);
    bool endsItem = depth == 0 && (type == PTXParser::SEMI || (type == PTXParser::RBRACE && !closesInitializer));
    if (endsItem && i + 1 - begin >= kChunkTokens) {
      chunks.push_back({begin, i + 1});
      begin = i + 1;
    }
  }
  if (begin < last || chunks.empty())
    chunks.push_back({begin, last});
  return chunks;
}

struct ChunkResult {
  Module module;
  Diagnostics diagnostics;
};

/// Parses one chunk's tokens. `recover` selects the strategy: without it
/// the parser bails out at the first error (ANTLR's BailErrorStrategy skips
/// the per-loop `sync` work of error recovery); with it, every error is
/// reported and recovered from. Returns nullptr when bailing out.
PTXParser::ModuleContext *runParser(PTXParser &parser, DiagnosticListener &listener,
                                    bool recover) {
  parser.removeErrorListeners();
  if (recover) {
    parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
    parser.addErrorListener(&listener);
  } else {
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  }
  try {
    return parser.module();
  } catch (const antlr4::ParseCancellationException &) {
    return nullptr;
  }
}

ChunkResult parseChunk(std::string_view text, const std::string &path,
                       const std::vector<LexedToken> &lexed, Chunk chunk,
                       std::size_t maxErrors) {
  ChunkResult result;
  PtxTokenSource source(path);
  std::vector<PtxToken> tokens;
  tokens.reserve(chunk.end - chunk.begin + 1);
  for (std::size_t i = chunk.begin; i < chunk.end; ++i)
    tokens.emplace_back(lexed[i], text, tokens.size(), &source);
  LexedToken eof = chunk.end < lexed.size() - 1 ? lexed[chunk.end] : lexed.back();
  eof.type = kEofTokenType;
  eof.length = 0;
  tokens.emplace_back(eof, text, tokens.size(), &source);

  PtxTokenStream stream(tokens, source);
  PTXParser parser(&stream);
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  DiagnosticListener listener(path, maxErrors, result.diagnostics);

  PTXParser::ModuleContext *tree = nullptr;
  try {
    tree = runParser(parser, listener, /*recover=*/false);
    if (!tree) { // a syntax error: parse again, this time to report it well
      stream.seek(0);
      parser.reset();
      tree = runParser(parser, listener, /*recover=*/true);
    }
  } catch (const TooManyErrors &) {
    return result;
  } catch (const std::exception &e) {
    // ANTLR reports recognition problems through the listener; anything
    // thrown is a runtime failure on strange input, still not a crash.
    result.diagnostics.push_back({path, {}, Severity::Error,
                                  std::string("parser failure: ") + e.what()});
    return result;
  }
  buildAst(tree, text, path, listener.errors() > 0, result.module, result.diagnostics);
  return result;
}

void mergeInto(Module &into, ChunkResult &&chunk) {
  Module &from = chunk.module;
  if (into.version.empty())
    into.version = std::move(from.version);
  if (into.targets.empty())
    into.targets = std::move(from.targets);
  if (into.addressSize == 0)
    into.addressSize = from.addressSize;
  into.files.merge(from.files);
  std::move(from.globals.begin(), from.globals.end(), std::back_inserter(into.globals));
  std::move(from.functions.begin(), from.functions.end(), std::back_inserter(into.functions));
  std::move(from.directives.begin(), from.directives.end(),
            std::back_inserter(into.directives));
}

bool byLocation(const Diagnostic &a, const Diagnostic &b) {
  if (a.location.line != b.location.line)
    return a.location.line < b.location.line;
  return a.location.column < b.location.column;
}

void capErrors(Diagnostics &diagnostics, const std::string &path, std::size_t maxErrors) {
  std::size_t errors = 0;
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    if (diagnostics[i].severity != Severity::Error || ++errors <= maxErrors)
      continue;
    diagnostics.resize(i);
    diagnostics.push_back({path, {}, Severity::Note,
                           "too many errors (" + std::to_string(maxErrors) +
                               "), stopped reporting"});
    return;
  }
}

/// Parses a text the module will own: every view in the AST points into it.
ParseResult parseSource(std::shared_ptr<const std::string> source, const std::string &path,
                        const ParseOptions &options) {
  std::string_view text = *source;
  ParseResult result;
  result.module.path = path;
  result.module.source = std::move(source);
  std::size_t maxErrors = std::max<std::size_t>(options.maxErrors, 1);
  if (text.size() >= std::numeric_limits<std::uint32_t>::max()) {
    result.diagnostics.push_back({path, {}, Severity::Error,
                                  "file too large (" + std::to_string(text.size()) +
                                      " bytes; the limit is 4 GiB)"});
    return result;
  }

  LexResult lexed = lexPtx(text, path, maxErrors);
  std::vector<Chunk> chunks = splitIntoChunks(lexed.tokens);
  std::vector<ChunkResult> parsed(chunks.size());

  unsigned threads = options.threads == 0 ? std::thread::hardware_concurrency() : options.threads;
  runJobs(chunks.size(), threads, [&](std::size_t i) {
    parsed[i] = parseChunk(text, path, lexed.tokens, chunks[i], maxErrors);
  });

  result.diagnostics = std::move(lexed.diagnostics);
  for (ChunkResult &chunk : parsed) {
    std::move(chunk.diagnostics.begin(), chunk.diagnostics.end(),
              std::back_inserter(result.diagnostics));
    mergeInto(result.module, std::move(chunk));
  }
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), byLocation);
  capErrors(result.diagnostics, path, maxErrors);
  return result;
}

/// The failure-or-module view of a ParseResult.
Expected<Module> toExpected(ParseResult result) {
  if (hasErrors(result.diagnostics))
    return Expected<Module>::failure(std::move(result.diagnostics));
  return Expected<Module>(std::move(result.module), std::move(result.diagnostics));
}

} // namespace

ParseResult parseForDiagnostics(std::string_view text, const std::string &path,
                                const ParseOptions &options) {
  return parseSource(std::make_shared<const std::string>(text), path, options);
}

Expected<Module> parseModule(std::string_view text, const std::string &path,
                             const ParseOptions &options) {
  return toExpected(parseForDiagnostics(text, path, options));
}

Expected<Module> parseFile(const std::string &path, const ParseOptions &options) {
  auto fail = [&](std::string message) {
    return Expected<Module>::failure(Diagnostic{path, {}, Severity::Error, std::move(message)});
  };
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    return fail(std::string("cannot open file: ") + std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    return fail("is a directory, not a PTX file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(std::string("cannot open file: ") + std::strerror(errno));
  auto source = std::make_shared<std::string>();
  if (S_ISREG(info.st_mode)) {
    source->resize(static_cast<std::size_t>(info.st_size));
    in.read(source->data(), static_cast<std::streamsize>(source->size()));
    if (static_cast<std::size_t>(in.gcount()) != source->size())
      return fail("read error: the file changed while it was read");
  } else { // a pipe or device: its size is not known in advance
    std::ostringstream buffer;
    buffer << in.rdbuf();
    *source = buffer.str();
  }
  if (in.bad())
    return fail("read error");
  return toExpected(parseSource(std::move(source), path, options));
}

} // namespace ptxdvfs::ptx
