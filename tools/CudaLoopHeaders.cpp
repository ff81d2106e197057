// CudaLoopHeaders.cpp - finding the loops around a statement of host
// code, switches' bodies, and `while`s that count as a `for` does.
#include "CudaLoopHeaders.h"

#include "CudaSource.h"
#include "CudaStatements.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace ptxdvfs::tools {

namespace {

std::optional<LoopHeader> headerBefore(const std::string &code, std::size_t statement);

/// The `if` whose branch ends just before the `else` at `elseAt`: `if
/// (c) { ... }` or `if (c) a(b);` (not one whose branch is itself a loop
/// or an `if`).
std::optional<LoopHeader> branchBefore(const std::string &code, std::size_t elseAt) {
  const std::size_t end = codeEndBefore(code, elseAt);
  if (end == 0)
    return std::nullopt;
  if (code[end - 1] == '}') {
    std::optional<LoopHeader> branching = headerBefore(code, openingOf(code, end - 1));
    return branching && branching->keyword == "if" ? branching : std::nullopt;
  }
  if (code[end - 1] != ';')
    return std::nullopt;
  // Back over the one statement, past its brackets, to the `)` that ends the `if`'s head.
  for (std::size_t at = end - 1; at > 0; --at) {
    const char c = code[at - 1];
    if (c == ';' || c == '{' || c == '}')
      return std::nullopt;
    if (c != ')' && c != ']')
      continue;
    const std::size_t open = openingOf(code, at - 1);
    std::size_t keyword = open;
    const std::string word = c == ')' ? wordBefore(code, keyword) : std::string();
    if (word == "if")
      return LoopHeader{"if", keyword, open, at - 1, at - 1};
    if (word == "for" || word == "while")
      return std::nullopt;
    at = open + 1;
  }
  return std::nullopt;
}

/// What heads the statement that starts at `statement`: `for (...)`,
/// `while (...)`, `if (...)`, `do`, or an `else`.
std::optional<LoopHeader> headerBefore(const std::string &code, std::size_t statement) {
  const std::size_t end = codeEndBefore(code, statement);
  if (end == 0)
    return std::nullopt;
  if (code[end - 1] != ')') {
    std::size_t at = end;
    const std::string word = wordBefore(code, at);
    if (word == "do")
      return LoopHeader{"do", at, std::string::npos, std::string::npos, end - 1};
    if (word != "else")
      return std::nullopt;
    // `if (...) { ... } else` or `if (...) a(); else`: the `else` of that
    // `if`, whose statement starts at the `if`.
    std::optional<LoopHeader> branching = branchBefore(code, at);
    if (!branching)
      return std::nullopt;
    branching->keyword = "else";
    branching->headEnd = end - 1;
    return branching;
  }
  const std::size_t open = openingOf(code, end - 1);
  if (code[open] != '(')
    return std::nullopt;
  std::size_t at = open;
  std::string keyword = wordBefore(code, at);
  if (keyword != "for" && keyword != "while" && keyword != "if")
    return std::nullopt;
  return LoopHeader{std::move(keyword), at, open, end - 1, end - 1};
}

/// The `case` header of the `switch` whose body `brace` opens, leading to
/// `statement`; nullopt where no `switch` heads that block.
std::optional<LoopHeader> switchBefore(const std::string &code, std::size_t brace, std::size_t statement) {
  const std::size_t end = codeEndBefore(code, brace);
  if (end == 0 || code[end - 1] != ')')
    return std::nullopt;
  const std::size_t open = openingOf(code, end - 1);
  std::size_t at = open;
  if (code[open] != '(' || wordBefore(code, at) != "switch")
    return std::nullopt;
  LoopHeader header{"case", at, open, end - 1, end - 1};
  header.reached = statement;
  return header;
}

bool isTerminatingWord(std::string_view word) {
  return word == "break" || word == "return" || word == "continue" || word == "goto" || word == "throw";
}

/// How a statement of a switch's body (`item`, as code() has it) lets the
/// labels before it flow on to what follows.
enum class Flow { On, Maybe, Stops };

Flow flowPast(std::string_view item) {
  if (isTerminatingWord(firstWordOf(item)))
    return Flow::Stops;
  if (!item.empty() && item.front() == '{' && item.back() == '}') {
    // A braced case body that ends in `break;`: its last statement stops the flow.
    const std::size_t last = item.find_last_not_of(" \t\r\n", item.size() - 2);
    if (last != std::string_view::npos && item[last] == ';') {
      const std::size_t start = item.find_last_of(";{}", last - 1);
      if (isTerminatingWord(firstWordOf(item.substr(start + 1, last - start))))
        return Flow::Stops;
    }
  }
  for (const std::string &word : wordsIn(item))
    if (isTerminatingWord(word))
      return Flow::Maybe; // `if (c) break;`, or a loop's own `break`: read as perhaps leaving
  return Flow::On;
}

/// Where the label that starts at `at` (`case` or `default`) ends, just
/// past its `:` (not a `::`, nor the `:` of a `?`); npos where none is.
std::size_t labelEnd(const std::string &code, std::size_t at, std::size_t close) {
  int conditionals = 0;
  for (std::size_t i = at; i < close; ++i) {
    const char c = code[i];
    if (c == '(' || c == '[') {
      i = pastClosing(code, i);
      if (i == std::string::npos)
        return i;
      --i;
    } else if (c == '?') {
      ++conditionals;
    } else if (c == ':' && i + 1 < close && code[i + 1] == ':') {
      ++i;
    } else if (c == ':' && conditionals > 0) {
      --conditionals;
    } else if (c == ':') {
      return i + 1;
    } else if (c == ';' || c == '{' || c == '}') {
      return std::string::npos;
    }
  }
  return std::string::npos;
}

} // namespace

bool endsProgram(std::string_view word) {
  return word == "return" || word == "exit" || word == "_exit" || word == "quick_exit" || word == "abort" ||
         word == "throw";
}

std::vector<LoopHeader> headersAround(const CudaCode &code, std::size_t statement) {
  std::vector<LoopHeader> headers;
  // The heads of a statement without braces (`for (...) if (...) k<<<...>>>(...);`).
  auto addHeading = [&](std::size_t at) {
    for (std::optional<LoopHeader> header = headerBefore(code.code(), at); header;
         header = headerBefore(code.code(), header->at))
      headers.push_back(*header);
  };
  addHeading(statement);
  for (int block = code.blockAt(statement); block >= 0 && !code.isFunctionBody(block); block = code.parentOf(block)) {
    const std::size_t brace = code.openBraceOf(block);
    const std::optional<LoopHeader> cases = switchBefore(code.code(), brace, statement);
    if (cases)
      headers.push_back(*cases);
    addHeading(cases ? cases->at : brace); // what heads a `switch` heads its body: `if (c) switch (x) {...}`
  }
  return headers;
}

bool isBranch(const LoopHeader &header) {
  return header.keyword == "if" || header.keyword == "else" || header.keyword == "case";
}

SwitchBody switchBodyOf(const std::string &code, const LoopHeader &header) {
  SwitchBody body;
  const std::size_t open = code.find_first_not_of(" \t\r\n", header.close + 1);
  const std::size_t end = open == std::string::npos ? open : pastClosing(code, open);
  if (end == std::string::npos || code[open] != '{')
    return body;
  const std::size_t close = end - 1;
  std::size_t firstLeading = 0, firstSure = 0; // the labels that lead past the statements so far
  bool inStatement = false;
  auto endStatement = [&](std::size_t past) {
    SwitchBody::Statement &statement = body.statements.back();
    statement.end = past;
    const Flow flow = flowPast(std::string_view(code).substr(statement.start, past - statement.start));
    if (flow != Flow::On)
      firstSure = body.labels.size();
    if (flow == Flow::Stops)
      firstLeading = body.labels.size();
    inStatement = false;
  };
  for (std::size_t i = open + 1; i < close;) {
    const char c = code[i];
    if (isSpace(c)) {
      ++i;
      continue;
    }
    if (!inStatement) {
      // A label: `case E:` or `default:`.
      const std::string word = firstWordOf(std::string_view(code).substr(i, close - i));
      const std::size_t past = word == "case" || word == "default" ? labelEnd(code, i + word.size(), close)
                                                                   : std::string::npos;
      if (past != std::string::npos && (word == "case" || trimmed(code.substr(i + 7, past - 1 - i - 7)).empty())) {
        SwitchBody::Label label;
        label.at = i;
        label.end = past;
        if (word == "case")
          label.expression = trimmed(code.substr(i + 4, past - 1 - i - 4));
        label.fallback = word == "default";
        body.labels.push_back(std::move(label));
        i = past;
        continue;
      }
      body.statements.push_back({i, close, firstLeading, firstSure, body.labels.size()});
      inStatement = true;
    }
    if (c == '(' || c == '[' || c == '{') {
      const std::size_t past = pastClosing(code, i);
      if (past == std::string::npos || past > close)
        break;
      i = past;
      if (c == '{')
        endStatement(past);
      continue;
    }
    if (c == ';') {
      endStatement(++i);
      continue;
    }
    if (isIdentifierChar(c)) {
      while (i < close && isIdentifierChar(code[i]))
        ++i;
      continue;
    }
    ++i;
  }
  return body;
}

std::optional<char> labelCharacter(std::string_view label) {
  std::string written = trimmed(label);
  if (written.rfind("case", 0) == 0)
    written = trimmed(std::string_view(written).substr(4));
  if (!written.empty() && written.back() == ':')
    written = trimmed(std::string_view(written).substr(0, written.size() - 1));
  const std::optional<int> code = characterCode(written);
  return code ? std::optional<char>(static_cast<char>(*code)) : std::nullopt;
}

std::optional<std::string> labelValue(const SwitchBody::Label &label, std::string_view text) {
  // code() has a character literal as its code, or as a name that nothing defines where it has none.
  return text.substr(label.at, label.end - label.at).find('"') == std::string_view::npos
             ? std::optional<std::string>(label.expression)
             : std::nullopt;
}

SwitchBody::Leads SwitchBody::leads(std::size_t label, std::size_t offset) const {
  const auto after = std::upper_bound(statements.begin(), statements.end(), offset,
                                      [](std::size_t at, const Statement &statement) { return at < statement.start; });
  if (after == statements.begin())
    return Leads::No;
  const Statement &statement = *std::prev(after);
  if (offset >= statement.end || label < statement.firstLeading || label >= statement.labelsBefore)
    return Leads::No;
  return label >= statement.firstSure ? Leads::Yes : Leads::Maybe;
}

std::vector<LoopHeader> loopsAround(const CudaCode &code, std::size_t statement) {
  std::vector<LoopHeader> loops = headersAround(code, statement);
  loops.erase(std::remove_if(loops.begin(), loops.end(),
                             [](const LoopHeader &header) { return isBranch(header); }),
              loops.end());
  return loops;
}

std::size_t bodyEndAfter(const std::string &code, std::size_t close) {
  const std::size_t start = code.find_first_not_of(" \t\r\n", close + 1);
  return start == std::string::npos ? start : statementEndFrom(code, start); // a block ends at its `}` there too
}

std::size_t bodyEndAfter(const CudaCode &code, std::size_t close) {
  const std::size_t start = code.code().find_first_not_of(" \t\r\n", close + 1);
  if (start == std::string::npos)
    return start;
  return code.code()[start] == '{' ? code.pastBlockOpenedAt(start) : code.statementEndAt(start);
}

std::optional<std::vector<LoopHeader>> branchesLeaving(const CudaCode &code, std::size_t at, std::size_t loop,
                                                       bool breaks) {
  std::vector<LoopHeader> branches;
  for (const LoopHeader &header : headersAround(code, statementStartAround(code.code(), at))) {
    if (header.at == loop)
      return branches;
    if (!isBranch(header) || (breaks && header.keyword == "case"))
      return std::nullopt;
    branches.push_back(header);
  }
  return std::nullopt;
}

std::optional<CountedFor> countedWhile(const CudaCode &source, const LoopHeader &header) {
  const std::string &code = source.code();
  const std::size_t open = code.find_first_not_of(" \t\r\n", header.headEnd + 1);
  const std::size_t end = open == std::string::npos ? open : bodyEndAfter(source, header.headEnd);
  if (header.keyword != "while" || end == std::string::npos || code[open] != '{')
    return std::nullopt;
  for (std::size_t at = code.find("continue", open); at < end; at = code.find("continue", at + 1))
    if (isWholeWord(code, at, 8) && branchesLeaving(source, at, header.at, false))
      return std::nullopt; // it may skip the step
  const std::string condition(header.inside(code));
  for (const std::string &name : wordsIn(condition)) {
    if (changedWithin(code, name, header.open, header.close))
      return std::nullopt; // `while (i++ < n)`
    std::size_t step = std::string::npos, changes = 0;
    for (std::size_t at = code.find(name, open); at < end; at = code.find(name, at + 1))
      if (isWholeWord(code, at, name.size()) && changesAt(code, at, name.size()) && ++changes == 1)
        step = at;
    if (changes != 1)
      continue;
    const std::size_t start = statementStartAround(code, step);
    const std::vector<LoopHeader> around = headersAround(source, start);
    const std::size_t stepEnd = statementEndFrom(code, start);
    if (around.empty() || around.front().at != header.at || stepEnd == std::string::npos || stepEnd > end)
      continue; // under a branch, or in a loop inside it
    std::optional<CountedFor> counted =
        countedFor("; " + condition + "; " + code.substr(start, stepEnd - 1 - start));
    if (counted && counted->counter == name)
      return counted;
  }
  return std::nullopt;
}

} // namespace ptxdvfs::tools
