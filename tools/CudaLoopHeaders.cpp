// CudaLoopHeaders.cpp - finding the loops around a statement of host
// code, and reading the parts of a counted `for`.
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

bool isName(const std::string &text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), isIdentifierChar) &&
         !std::isdigit(static_cast<unsigned char>(text[0]));
}

/// The counter and bound of a comparison whose side `side` is a name with a sum or difference after it, `other`
/// being the other side: the name, and the sum moved to the other side (`i + 1 < n`: `i` and `(n) - (0 + 1)`);
/// nullopt for any other side.
std::optional<std::pair<std::string, std::string>> offsetCounter(const std::string &side, const std::string &other) {
  const std::string name = firstWordOf(side);
  if (!isName(name) || side.compare(0, name.size(), name) != 0)
    return std::nullopt;
  // Nothing after the `+` or `-` binds more loosely than it (a shift, `&`, `?:`), so the rest adds to the name.
  const std::string rest = trimmed(std::string_view(side).substr(name.size()));
  if (rest.size() < 2 || (rest[0] != '+' && rest[0] != '-') || rest[1] == rest[0] || rest[1] == '=' ||
      rest.find_first_of("<>=!&|^?,") != std::string::npos || readsName(rest, name))
    return std::nullopt;
  return std::pair{name, "(" + other + ") - (0 " + rest + ")"};
}

/// `loop`, whose counter, comparison and bound are read from the condition of the `for` with the parts
/// `parts`, with its start and step read from the other two; nullopt where they do not give them.
std::optional<CountedFor> steppedFor(const std::vector<std::string> &parts, CountedFor loop) {
  if (loop.bound.empty())
    return std::nullopt;
  // The start: the declarator or assignment of the counter in the init.
  for (const std::string &declarator : topLevelParts(parts[0])) {
    const std::size_t equals = plainAssignment(declarator);
    if (equals == std::string::npos)
      continue;
    std::size_t nameAt = equals;
    if (wordBefore(declarator, nameAt) == loop.counter)
      loop.start = trimmed(std::string_view(declarator).substr(equals + 1));
  }
  // Without one (`for (; log2N > 11; log2N -= 2)`), it starts from its value before the loop.
  if (loop.start.empty() && trimmed(parts[0]).empty())
    loop.start = loop.counter;
  // The step: `i++`, `--i`, `i += s`, `i = i - s`; of several (`log2N -= 2, N >>= 2`), the counter's.
  std::string step;
  for (const std::string &each : topLevelParts(parts[2])) {
    const std::string part = trimmed(each);
    const std::string first = firstWordOf(part.rfind("++", 0) == 0 || part.rfind("--", 0) == 0 ? part.substr(2) : part);
    if (first != loop.counter)
      continue;
    if (!step.empty())
      return std::nullopt; // stepped twice
    step = part;
  }
  std::string compact;
  for (char c : step)
    if (!isSpace(c))
      compact += c;
  const std::string &i = loop.counter;
  if (compact == i + "++" || compact == "++" + i)
    loop.step = "1";
  else if (compact == i + "--" || compact == "--" + i)
    loop.step = "-1";
  else if (compact.rfind(i + "+=", 0) == 0)
    loop.step = compact.substr(i.size() + 2);
  else if (compact.rfind(i + "-=", 0) == 0)
    loop.step = "-(" + compact.substr(i.size() + 2) + ")";
  else if (compact.rfind(i + "=" + i + "+", 0) == 0)
    loop.step = compact.substr(2 * i.size() + 2);
  else if (compact.rfind(i + "=" + i + "-", 0) == 0)
    loop.step = "-(" + compact.substr(2 * i.size() + 2) + ")";
  else if (compact.rfind(i + "*=", 0) == 0 || compact.rfind(i + "=" + i + "*", 0) == 0 ||
           compact.rfind(i + "/=", 0) == 0 || compact.rfind(i + "=" + i + "/", 0) == 0) {
    const bool assigned = compact[i.size()] == '=';
    loop.step = compact.substr(assigned ? 2 * i.size() + 2 : i.size() + 2);
    if (assigned && loop.step.find_first_of("+-?") != std::string::npos)
      loop.step.clear(); // `i = i * 2 + 1` scales and adds
    loop.scaling = compact[assigned ? 2 * i.size() + 1 : i.size()] == '*' ? CountedFor::Scaling::Multiply
                                                                           : CountedFor::Scaling::Divide;
  } else if (compact.rfind(i + "<<=", 0) == 0 || compact.rfind(i + ">>=", 0) == 0) {
    loop.step = "(1<<(" + compact.substr(i.size() + 3) + "))"; // a shift scales by a power of 2
    loop.scaling = compact[i.size()] == '<' ? CountedFor::Scaling::Multiply : CountedFor::Scaling::Divide;
  }
  if (loop.start.empty() || loop.step.empty())
    return std::nullopt;
  return loop;
}

} // namespace

bool endsProgram(std::string_view word) {
  return word == "return" || word == "exit" || word == "_exit" || word == "quick_exit" || word == "abort" ||
         word == "throw";
}

std::optional<RangeFor> rangeFor(std::string_view header) {
  int depth = 0;
  for (std::size_t at = 0; at < header.size(); ++at) {
    const char c = header[at];
    const bool opens = c == '(' || c == '[' || c == '{' || c == '<';
    const bool closes = c == ')' || c == ']' || c == '}' || c == '>';
    depth += opens ? 1 : closes ? -1 : 0; // `std::pair<int, int> p : pairs`
    if (c == ';')
      return std::nullopt;
    if (c != ':' || depth != 0)
      continue;
    if (at + 1 < header.size() && header[at + 1] == ':') {
      ++at; // `std::vector<int>`'s `::`
      continue;
    }
    const std::vector<std::string> words = wordsIn(header.substr(0, at));
    const std::string range = trimmed(header.substr(at + 1));
    if (words.size() < 2 || !isName(words.back()) || range.empty())
      return std::nullopt; // `for (n : sizes)` declares nothing
    return RangeFor{words.back(), range, header.find_first_not_of(" \t\r\n", at + 1)};
  }
  return std::nullopt;
}

std::optional<CountedFor> countedFor(std::string_view header) {
  const std::vector<std::string> parts = topLevelParts(header, ';');
  if (parts.size() != 3)
    return std::nullopt; // a range `for`, or not C
  // The comparison: `i < n` or `n > i`.
  const std::string condition = trimmed(parts[1]);
  if (condition.find("&&") != std::string::npos || condition.find("||") != std::string::npos)
    return std::nullopt;
  static const char *const kComparisons[] = {"<=", ">=", "!=", "<", ">"};
  static const auto mirrored = [](std::string_view op) -> std::string {
    return op == "<" ? ">" : op == ">" ? "<" : op == "<=" ? ">=" : op == ">=" ? "<=" : std::string(op);
  };
  for (const char *op : kComparisons) {
    const std::size_t at = condition.find(op);
    if (at == std::string::npos)
      continue;
    const std::string_view symbol(op);
    const std::size_t after = at + symbol.size();
    // Not a shift, and not the first character of a longer comparison.
    if ((after < condition.size() && (condition[after] == '<' || condition[after] == '>' || condition[after] == '=')) ||
        (at > 0 && (condition[at - 1] == '<' || condition[at - 1] == '>')))
      continue;
    const std::string left = trimmed(std::string_view(condition).substr(0, at));
    const std::string right = trimmed(std::string_view(condition).substr(after));
    // Either side may hold the counter, alone or with a sum (`i + 1 < n`, `n > i`): the one the loop steps.
    std::vector<CountedFor> sides;
    for (const bool onRight : {false, true}) {
      const std::string &side = onRight ? right : left, &other = onRight ? left : right;
      const std::string comparison = onRight ? mirrored(symbol) : std::string(symbol);
      if (isName(side))
        sides.push_back(CountedFor{side, "", comparison, other, "", CountedFor::Scaling::None});
      else if (const auto offset = offsetCounter(side, other))
        sides.push_back(CountedFor{offset->first, "", comparison, offset->second, "", CountedFor::Scaling::None});
    }
    for (const CountedFor &side : sides)
      if (std::optional<CountedFor> counted = steppedFor(parts, side))
        return counted;
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::pair<std::uint64_t, std::int64_t>> scaledIterations(std::int64_t start, const std::string &comparison,
                                                                       std::int64_t bound, std::int64_t factor,
                                                                       bool divides) {
  constexpr std::uint64_t kMostScaledIterations = 64;
  __extension__ using Int128 = __int128;
  const auto holds = [&](Int128 value) { return comparisonHolds<Int128>(value, comparison, bound); };
  Int128 value = start, sum = 0;
  std::uint64_t count = 0;
  for (; holds(value); ++count) {
    if (count == kMostScaledIterations || factor == 0 || (!divides && (factor == 1 || value == 0)) ||
        (divides && (factor == 1 || factor == -1 || value == 0)))
      return std::nullopt; // scaling never leaves the range, or leaves it past every whole number
    sum += value;
    value = divides ? value / factor : value * factor;
    if (value > INT64_MAX || value < INT64_MIN)
      return std::nullopt;
  }
  return std::make_pair(count, count == 0 ? start : static_cast<std::int64_t>(sum / static_cast<Int128>(count)));
}

std::optional<std::uint64_t> iterations(std::int64_t start, const std::string &comparison, std::int64_t bound,
                                        std::int64_t step) {
  __extension__ using Int128 = __int128; // no int64 difference or quotient overflows it
  const Int128 s = start, b = bound, d = step;
  Int128 count = 0;
  if ((comparison == "<" || comparison == "<=") && d > 0)
    count = comparison == "<" ? (b > s ? (b - s + d - 1) / d : 0) : (b >= s ? (b - s) / d + 1 : 0);
  else if ((comparison == ">" || comparison == ">=") && d < 0)
    count = comparison == ">" ? (s > b ? (s - b - d - 1) / -d : 0) : (s >= b ? (s - b) / -d + 1 : 0);
  else if (comparison == "!=" && d != 0 && (b - s) % d == 0 && (b - s) / d >= 0)
    count = (b - s) / d;
  else
    return std::nullopt;
  return count > static_cast<Int128>(UINT64_MAX) ? UINT64_MAX : static_cast<std::uint64_t>(count);
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
