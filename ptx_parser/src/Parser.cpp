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
#include <optional>
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

/// The first statement of a function body longer than the limit, or the
/// first body with more statements than the limit, as an error; nullopt
/// when none is. One pass over the tokens, before the parser sees any.
/// Initializers (`= {...}`, such as cuRAND's 100 KB tables) and `.section`
/// bodies (DWARF lists without `;`) are not function bodies.
std::optional<Diagnostic> checkStatementLimits(const std::vector<LexedToken> &tokens,
                                               const std::string &path, const ParseLimits &limits) {
  std::size_t statementStart = 0, statementTokens = 0, bodyStart = 0, bodyStatements = 0;
  std::size_t braces = 0;
  bool body = false, section = false;
  auto at = [&](std::size_t i) { return SourceLocation{tokens[i].line, tokens[i].column}; };
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    std::uint32_t type = tokens[i].type;
    if (braces == 0) {
      if (type == PTXParser::SECTION)
        section = true;
      if (type == PTXParser::LBRACE) {
        braces = 1;
        body = !section && !(i > 0 && tokens[i - 1].type == PTXParser::EQUAL);
        section = false;
        bodyStart = i;
        bodyStatements = statementTokens = 0;
      }
      continue;
    }
    if (type == PTXParser::LBRACE || type == PTXParser::RBRACE) {
      braces += type == PTXParser::LBRACE ? 1 : -1;
      statementTokens = 0;
      continue;
    }
    if (!body)
      continue;
    if (statementTokens++ == 0)
      statementStart = i;
    if (statementTokens > limits.maxStatementTokens)
      return Diagnostic{path, at(statementStart), Severity::Error,
                        "a statement of more than " + std::to_string(limits.maxStatementTokens) +
                            " tokens starts here (limit: --max-statement-tokens)"};
    if (type == PTXParser::SEMI) {
      statementTokens = 0;
      if (++bodyStatements > limits.maxFunctionStatements)
        return Diagnostic{path, at(bodyStart), Severity::Error,
                          "a body of more than " + std::to_string(limits.maxFunctionStatements) +
                              " statements starts here (limit: --max-function-statements)"};
    }
  }
  return std::nullopt;
}

/// The most bytes of text parsed: the limit asked for, never 4 GiB or more
/// (token offsets are 32-bit).
std::uint64_t inputByteLimit(const ParseLimits &limits) {
  return std::min<std::uint64_t>(limits.maxInputBytes, std::numeric_limits<std::uint32_t>::max() - 1);
}

std::string tooLarge(std::uint64_t size, const ParseLimits &limits) {
  return "file too large (" + std::to_string(size) + " bytes; the limit is " +
         std::to_string(inputByteLimit(limits)) + ": --max-input-mb)";
}

/// One error for text that is not PTX at all (binary data, UTF-16), instead
/// of one per byte.
std::optional<std::string> notPtxText(std::string_view text) {
  if (text.size() >= 2 && ((text[0] == '\xff' && text[1] == '\xfe') || (text[0] == '\xfe' && text[1] == '\xff')))
    return std::string("UTF-16 text (byte-order mark at the start); PTX is ASCII: convert it, "
                       "e.g. iconv -f UTF-16 -t UTF-8");
  std::size_t nul = text.substr(0, 4096).find('\0');
  if (nul != std::string_view::npos)
    return "binary data (a NUL byte at offset " + std::to_string(nul) + "), not PTX text";
  return std::nullopt;
}

/// Parses a text the module will own: every view in the AST points into it.
ParseResult parseSource(std::shared_ptr<const std::string> source, const std::string &path,
                        const ParseOptions &options) {
  std::string_view text = *source;
  ParseResult result;
  result.module.path = path;
  result.module.source = std::move(source);
  std::size_t maxErrors = std::max<std::size_t>(options.maxErrors, 1);
  const ParseLimits &limits = options.limits;
  if (text.size() > inputByteLimit(limits)) {
    result.diagnostics.push_back({path, {}, Severity::Error, tooLarge(text.size(), limits)});
    return result;
  }
  if (auto reason = notPtxText(text)) {
    result.diagnostics.push_back({path, {1, 1}, Severity::Error, *reason});
    return result;
  }

  LexResult lexed = lexPtx(text, path, maxErrors,
                           std::clamp<std::size_t>(limits.maxNesting, 1, kNestingCeiling));
  std::vector<Chunk> chunks; // none when a limit is exceeded: the parser never sees the tokens
  if (auto exceeded = checkStatementLimits(lexed.tokens, path, limits))
    lexed.diagnostics.push_back(std::move(*exceeded));
  else
    chunks = splitIntoChunks(lexed.tokens);
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

ParseLimits &defaultParseLimits() {
  static ParseLimits limits;
  return limits;
}

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
  std::uint64_t maxBytes = inputByteLimit(options.limits);
  if (S_ISREG(info.st_mode) && static_cast<std::uint64_t>(info.st_size) > maxBytes)
    return fail(tooLarge(static_cast<std::uint64_t>(info.st_size), options.limits));
  if (S_ISREG(info.st_mode)) {
    source->resize(static_cast<std::size_t>(info.st_size));
    in.read(source->data(), static_cast<std::streamsize>(source->size()));
    if (static_cast<std::size_t>(in.gcount()) != source->size())
      return fail("read error: the file changed while it was read");
  } else { // a pipe or device: its size is not known in advance, so read no more than the limit
    char block[65536];
    while (in.read(block, sizeof block) || in.gcount() > 0) {
      source->append(block, static_cast<std::size_t>(in.gcount()));
      if (source->size() > maxBytes)
        return fail("input too large (more than " + std::to_string(maxBytes) +
                    " bytes: --max-input-mb)");
    }
    in.clear(in.rdstate() & ~(std::ios::failbit | std::ios::eofbit));
  }
  if (in.bad())
    return fail("read error");
  return toExpected(parseSource(std::move(source), path, options));
}

} // namespace ptxdvfs::ptx
