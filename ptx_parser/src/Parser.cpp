// Parser.cpp - lex, split into top-level chunks, parse chunks (in parallel), merge.
#include "ptxdvfs/ptx/Parser.h"
#include "ptxdvfs/ptx/WorkQueue.h"

#include "GrammarCheck.h"
#include "Lexer.h"
#include "PTXLexer.h"
#include "SyntaxParser.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <condition_variable>
#include <fstream>
#include <limits>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <thread>

namespace ptxdvfs::ptx {

namespace {

/// A chunk holds whole top-level items and about this many tokens: small
/// enough to give threads work to share, and to bound what the ANTLR parser
/// re-reads when a chunk has a syntax error.
constexpr std::size_t kChunkTokens = 1 << 15;

struct ChunkResult {
  Module module;
  Diagnostics diagnostics;
};

/// Parses one chunk's tokens into an AST. Input that does not parse is
/// parsed again by the generated ANTLR parser, whose error recovery reports
/// every error with the grammar's "expecting" sets; the module keeps the
/// items that did parse.
ChunkResult parseChunk(std::string_view text, const std::string &path,
                       const std::vector<LexedToken> &chunk, std::size_t maxErrors) {
  ChunkResult result;
  std::size_t end = chunk.size() - 1; // the end marker
  SyntaxParseResult parsed =
      parseTokens(chunk, 0, end, text, path, result.module, result.diagnostics);
  if (parsed.failedItems == 0)
    return result;
  Diagnostics syntaxErrors = grammarDiagnostics(text, path, chunk, 0, end, maxErrors);
  // Both parsers implement one grammar; should they ever disagree, the
  // input is still refused, with this parser's own message.
  if (syntaxErrors.empty() && parsed.firstError)
    syntaxErrors.push_back(std::move(*parsed.firstError));
  std::move(syntaxErrors.begin(), syntaxErrors.end(), std::back_inserter(result.diagnostics));
  return result;
}

/// Takes the header directives (`.version`, `.target`, `.address_size`,
/// `.file`) a chunk declared; the first of each wins, as ptxas reads them.
void mergeHeader(Module &header, Module &from) {
  if (header.version.empty())
    header.version = std::move(from.version);
  if (header.targets.empty())
    header.targets = std::move(from.targets);
  if (header.addressSize == 0)
    header.addressSize = from.addressSize;
  header.files.merge(from.files);
}

/// Moves what a piece declares (variables, functions, directives) to the end of `into`.
void appendBody(Module &into, Module &from) {
  std::move(from.globals.begin(), from.globals.end(), std::back_inserter(into.globals));
  std::move(from.functions.begin(), from.functions.end(), std::back_inserter(into.functions));
  std::move(from.directives.begin(), from.directives.end(), std::back_inserter(into.directives));
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
      if (type == PTXLexer::SECTION)
        section = true;
      if (type == PTXLexer::LBRACE) {
        braces = 1;
        body = !section && !(i > 0 && tokens[i - 1].type == PTXLexer::EQUAL);
        section = false;
        bodyStart = i;
        bodyStatements = statementTokens = 0;
      }
      continue;
    }
    if (type == PTXLexer::LBRACE || type == PTXLexer::RBRACE) {
      braces += type == PTXLexer::LBRACE ? 1 : -1;
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
    if (type == PTXLexer::SEMI) {
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

/// Hands parsed chunks to the consumer in file order, one at a time. The
/// thread that parsed a chunk hands it over, waiting for its turn if an
/// earlier chunk is still being parsed: so each piece is freed by the
/// thread (and malloc arena) that built it, and at most one chunk per
/// thread is alive.
class PieceDelivery {
public:
  PieceDelivery(ParseResult &result, const PieceConsumer &consume)
      : result_(result), consume_(consume) {}

  /// The next slot in file order; call under the lexer's turn.
  std::size_t reserve() { return reserved_++; }

  void deliver(std::size_t slot, ChunkResult &&chunk) {
    std::unique_lock<std::mutex> lock(mutex_);
    turn_.wait(lock, [&] { return next_ == slot; });
    lock.unlock();
    hand(chunk);
    lock.lock();
    ++next_;
    turn_.notify_all();
  }

private:
  void hand(ChunkResult &ready) {
    Module &header = result_.module;
    mergeHeader(header, ready.module);
    std::move(ready.diagnostics.begin(), ready.diagnostics.end(),
              std::back_inserter(result_.diagnostics));
    Module piece;
    piece.path = header.path;
    piece.source = header.source;
    piece.version = header.version;
    piece.targets = header.targets;
    piece.addressSize = header.addressSize;
    piece.files = header.files;
    appendBody(piece, ready.module);
    consume_(piece);
  }

  ParseResult &result_;
  const PieceConsumer &consume_;
  std::size_t reserved_ = 0;
  std::mutex mutex_;
  std::condition_variable turn_;
  std::size_t next_ = 0;
};

/// Parses a text every piece's views point into, handing the pieces to
/// `consume`; returns the header and the diagnostics.
ParseResult parseSourceInPieces(std::shared_ptr<const std::string> source, const std::string &path,
                                const ParseOptions &options, const PieceConsumer &consume) {
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

  // Threads take turns at the lexer, then parse the chunk they lexed while
  // the next one lexes: only a chunk of tokens per thread is ever held, and
  // a chunk's AST lives until its consumer returns.
  ChunkLexer lexer(text, path, maxErrors, std::clamp<std::size_t>(limits.maxNesting, 1, kNestingCeiling));
  std::mutex lexerTurn;
  PieceDelivery delivery(result, consume);
  std::optional<Diagnostic> exceeded;
  auto parseChunks = [&](std::size_t) {
    std::vector<LexedToken> tokens;
    for (;;) {
      std::size_t slot;
      {
        std::lock_guard<std::mutex> lock(lexerTurn);
        if (exceeded || !lexer.next(tokens, kChunkTokens))
          return;
        // A limit stops the whole parse: the parser never sees such tokens.
        if ((exceeded = checkStatementLimits(tokens, path, limits)))
          return;
        slot = delivery.reserve();
      }
      delivery.deliver(slot, parseChunk(text, path, tokens, maxErrors));
    }
  };
  unsigned threads = options.threads == 0 ? std::thread::hardware_concurrency() : options.threads;
  threads = std::max(1u, threads);
  runJobs(threads, threads, parseChunks);

  Diagnostics lexing = lexer.takeDiagnostics();
  std::move(lexing.begin(), lexing.end(), std::back_inserter(result.diagnostics));
  if (exceeded)
    result.diagnostics.push_back(std::move(*exceeded));
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), byLocation);
  capErrors(result.diagnostics, path, maxErrors);
  return result;
}

/// The whole module at once: every piece appended to one.
ParseResult parseSource(std::shared_ptr<const std::string> source, const std::string &path,
                        const ParseOptions &options) {
  Module body;
  ParseResult result = parseSourceInPieces(std::move(source), path, options,
                                           [&](Module &piece) { appendBody(body, piece); });
  appendBody(result.module, body);
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

namespace {

/// A file's text, read whole, or why it cannot be.
Expected<std::shared_ptr<const std::string>> readSource(const std::string &path,
                                                        const ParseOptions &options) {
  auto fail = [&](std::string message) {
    return Expected<std::shared_ptr<const std::string>>::failure(
        Diagnostic{path, {}, Severity::Error, std::move(message)});
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
  return Expected<std::shared_ptr<const std::string>>(std::move(source));
}


} // namespace

Expected<Module> parseFile(const std::string &path, const ParseOptions &options) {
  auto source = readSource(path, options);
  if (!source)
    return Expected<Module>::failure(source.diagnostics());
  return toExpected(parseSource(std::move(*source), path, options));
}

ParseResult parseFileInPieces(const std::string &path, const ParseOptions &options,
                              const PieceConsumer &consume) {
  auto source = readSource(path, options);
  if (!source) {
    ParseResult result;
    result.module.path = path;
    result.diagnostics = source.diagnostics();
    return result;
  }
  return parseSourceInPieces(std::move(*source), path, options, consume);
}

} // namespace ptxdvfs::ptx
