// CudaOptionLoops.cpp - the parts of a loop that reads options by hand,
// as written; see CudaOptionLoops.h.
#include "CudaOptionLoops.h"

#include "CudaCode.h"
#include "CudaSource.h"
#include "CudaStatements.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace ptxdvfs::tools {

namespace {

constexpr std::string_view kSpaces = " \t\r\n";

/// The first character at or after `at` that is not a space (npos where none is).
std::size_t skipSpaces(const std::string &code, std::size_t at) { return code.find_first_not_of(kSpaces, at); }

/// Whether the whole word `word` starts at `at`.
bool wordAt(const std::string &code, std::size_t at, std::string_view word) {
  return at != std::string::npos && code.compare(at, word.size(), word) == 0 && isWholeWord(code, at, word.size());
}

/// A branch's body from `start`: a block, or one statement that is no
/// loop, branch or `switch` of its own (whose end a `;` would not tell).
std::optional<std::size_t> branchBodyEnd(const std::string &code, std::size_t start) {
  if (start == std::string::npos)
    return std::nullopt;
  if (code[start] == '{') {
    const std::size_t end = pastClosing(code, start);
    return end == std::string::npos ? std::nullopt : std::optional<std::size_t>(end);
  }
  for (std::string_view keyword : {"if", "else", "for", "while", "do", "switch"})
    if (wordAt(code, start, keyword))
      return std::nullopt;
  const std::size_t end = statementEndFrom(code, start);
  return end == std::string::npos || code[end - 1] != ';' ? std::nullopt : std::optional<std::size_t>(end);
}

/// `type name = value` or `type name(value)` / `type name{value}` (one
/// statement's code, no `;`): the name and where its value is; nullopt
/// for anything else.
std::optional<std::pair<std::string, std::pair<std::size_t, std::size_t>>> declaredValue(std::string_view code) {
  std::size_t nameEnd = plainAssignment(code), valueStart = nameEnd + 1, valueEnd = code.size();
  if (nameEnd == std::string_view::npos) {
    nameEnd = code.find_first_of("({");
    const std::size_t close = code.find_last_not_of(kSpaces);
    if (nameEnd == std::string_view::npos || close == std::string_view::npos ||
        code[close] != (code[nameEnd] == '(' ? ')' : '}'))
      return std::nullopt;
    valueStart = nameEnd + 1;
    valueEnd = close;
  }
  const std::vector<std::string> words = wordsIn(code.substr(0, nameEnd));
  if (words.size() < 2 || code.substr(0, nameEnd).find_first_of("()[]{}=,") != std::string_view::npos)
    return std::nullopt; // not a declaration of one name with a type
  return std::pair{words.back(), std::pair{valueStart, valueEnd}};
}

/// What the `++` or `--` that ends just before `at` (spaces between) adds: 1 or -1; nullopt where none does.
std::optional<std::int64_t> stepBefore(const std::string &code, std::size_t at) {
  const std::size_t previous = codeEndBefore(code, at);
  if (previous < 2 || (code.compare(previous - 2, 2, "++") != 0 && code.compare(previous - 2, 2, "--") != 0))
    return std::nullopt;
  return code[previous - 1] == '+' ? 1 : -1;
}

/// What the `++` or `--` that starts at `at` (spaces before it skipped) adds; nullopt where none does.
std::optional<std::int64_t> stepAfter(const std::string &code, std::size_t at) {
  const std::size_t next = skipSpaces(code, at);
  if (next == std::string::npos || (code.compare(next, 2, "++") != 0 && code.compare(next, 2, "--") != 0))
    return std::nullopt;
  return code[next] == '+' ? 1 : -1;
}

} // namespace

std::optional<std::string> steppedName(std::string_view statement) {
  const std::string written = trimmed(statement);
  std::vector<std::string> words = wordsIn(written);
  words.erase(std::remove_if(words.begin(), words.end(),
                             [](const std::string &word) { return std::isdigit(static_cast<unsigned char>(word[0])); }),
              words.end()); // the amount of `i += 2`
  if (words.size() != 1)
    return std::nullopt;
  std::string rest = written;
  rest.erase(rest.find(words[0]), words[0].size());
  rest = trimmed(rest);
  const bool byOne = rest == "++" || rest == "--";
  const bool byNumber = (rest.rfind("+=", 0) == 0 || rest.rfind("-=", 0) == 0) && rest.size() > 2 &&
                        std::all_of(rest.begin() + 2, rest.end(),
                                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == ' '; });
  return byOne || byNumber ? std::optional<std::string>(words[0]) : std::nullopt;
}

std::optional<OptionLoopBody> optionLoopBody(const std::string &code, const std::string &text, std::size_t open,
                                             const std::string &counter) {
  // A body without braces is one `if` chain or `switch`: `for (...) if (!strcmp(argv[i], "-n")) n = ...;`.
  const bool braced = open < code.size() && code[open] == '{';
  OptionLoopBody body;
  body.end = braced || wordAt(code, open, "if") || wordAt(code, open, "switch") ? statementEndFrom(code, open)
                                                                                : std::string::npos;
  if (body.end == std::string::npos)
    return std::nullopt;
  const std::size_t close = braced ? body.end - 1 : body.end; // where the statements end: the `}`, or past the one
  for (std::size_t at = skipSpaces(code, braced ? open + 1 : open); at != std::string::npos && at < close;
       at = skipSpaces(code, at)) {
    if (wordAt(code, at, "switch")) { // `switch (argv[i][1]) {...}`, which runs in every pass
      const std::size_t parenthesis = skipSpaces(code, at + 6);
      const std::size_t past = parenthesis != std::string::npos && code[parenthesis] == '('
                                   ? pastClosing(code, parenthesis)
                                   : std::string::npos;
      const std::size_t brace = past == std::string::npos ? past : skipSpaces(code, past);
      const std::size_t end = brace != std::string::npos && code[brace] == '{' ? pastClosing(code, brace) : brace;
      if (end == std::string::npos || end > close || code[brace] != '{')
        return std::nullopt;
      body.chains.push_back({OptionBranch{"", at, end}});
      at = end;
      continue;
    }
    if (!wordAt(code, at, "if")) { // a name given an argument, before the chains, or a name's step
      const std::size_t end = statementEndFrom(code, at);
      if (end != std::string::npos && end <= close && steppedName(std::string_view(code).substr(at, end - 1 - at))) {
        body.chains.push_back({OptionBranch{"", at, end}}); // runs in every pass
        at = end;
        continue;
      }
      // A name is read with the argument the pass began at: after a guard (`if (argv[i][0] != '-') return 1;`),
      // not after a step of the counter.
      const auto steps = body.chains.empty() ? std::nullopt : counterSteps(code, counter, open + 1, at);
      const auto declared =
          end == std::string::npos || end > close || (!body.chains.empty() && (!steps || !steps->empty()))
              ? std::nullopt
              : declaredValue(std::string_view(code).substr(at, end - 1 - at));
      if (!declared)
        return std::nullopt;
      const auto [valueStart, valueEnd] = declared->second;
      body.aliases.emplace_back(declared->first,
                                trimmed(std::string_view(text).substr(at + valueStart, valueEnd - valueStart)));
      at = end;
      continue;
    }
    std::vector<OptionBranch> chain;
    for (bool more = true; more;) {
      OptionBranch branch;
      more = false;
      if (wordAt(code, at, "if")) {
        const std::size_t parenthesis = skipSpaces(code, at + 2);
        const std::size_t past = parenthesis != std::string::npos && code[parenthesis] == '('
                                     ? pastClosing(code, parenthesis)
                                     : std::string::npos;
        if (past == std::string::npos)
          return std::nullopt;
        branch.condition = text.substr(parenthesis + 1, past - parenthesis - 2);
        at = past;
      }
      branch.start = skipSpaces(code, at);
      const std::optional<std::size_t> end = branchBodyEnd(code, branch.start);
      if (!end || *end > close)
        return std::nullopt;
      branch.end = *end;
      const bool last = branch.condition.empty();
      chain.push_back(std::move(branch));
      at = skipSpaces(code, *end);
      if (!last && wordAt(code, at, "else")) {
        at = skipSpaces(code, at + 4);
        more = true;
      }
    }
    body.chains.push_back(std::move(chain));
  }
  return body;
}

namespace {

/// A read of a name in code, with the `++` or `--` written before or after it (at most one of them where it is
/// a read, not a change).
struct SteppedRead {
  std::size_t at = 0;       ///< the name
  std::size_t from = 0, to; ///< the read with its steps
  std::optional<std::int64_t> preStep, postStep;
};

/// Each read of the whole name `name` in `code` (not a member's, nor in a literal), in order.
std::vector<SteppedRead> steppedReads(const std::string &code, const std::string &name) {
  std::vector<SteppedRead> reads;
  const std::string literalsBlank = codeOf(code); // offsets shared
  for (std::size_t at = literalsBlank.find(name); at != std::string::npos;
       at = literalsBlank.find(name, at + name.size())) {
    if (!isWholeWord(code, at, name.size()) || afterMemberAccess(code, at))
      continue;
    SteppedRead read{at, at, at + name.size(), stepBefore(code, at), stepAfter(code, at + name.size())};
    read.from = read.preStep ? codeEndBefore(code, at) - 2 : at;
    read.to = read.postStep ? skipSpaces(code, read.to) + 2 : read.to;
    reads.push_back(read);
  }
  return reads;
}

} // namespace

std::optional<std::string> withCounterRead(const std::string &code, const std::string &counter, std::int64_t &value) {
  std::string read;
  std::size_t copied = 0;
  for (const SteppedRead &one : steppedReads(code, counter)) {
    if (one.preStep.has_value() == one.postStep.has_value() && changesAt(code, one.at, counter.size()))
      return std::nullopt; // assigned, or its address taken
    value += one.preStep.value_or(0);
    read += code.substr(copied, one.from - copied) + "(" + std::to_string(value) + ")";
    value += one.postStep.value_or(0);
    copied = one.to;
  }
  return read + code.substr(copied);
}

std::optional<std::string> withShiftedRead(const std::string &code, const std::string &array, std::int64_t &shift) {
  std::string read;
  std::size_t copied = 0;
  for (const SteppedRead &one : steppedReads(code, array)) {
    const std::size_t star = codeEndBefore(code, one.from), beforeStar = star > 0 ? codeEndBefore(code, star - 1) : 0;
    const bool dereferenced = star > 0 && code[star - 1] == '*' &&
                              (beforeStar == 0 || !(isIdentifierChar(code[beforeStar - 1]) ||
                                                    code[beforeStar - 1] == ')' || code[beforeStar - 1] == ']'));
    const std::size_t next = skipSpaces(code, one.at + array.size());
    if (next != std::string::npos && code[next] == '[') { // `argv[1]`, and `*argv[1]`, the `*` of the element
      if (one.preStep)
        return std::nullopt; // `++argv[1]` steps the element
      read += code.substr(copied, one.at - copied) + array + "[(" + std::to_string(shift) + ") + ";
      copied = next + 1;
      continue;
    }
    if (!dereferenced || (one.preStep && one.postStep))
      return std::nullopt; // the pointer itself, passed or changed
    // `*argv`, `*++argv`, `*argv++`: the element it points at
    shift += one.preStep.value_or(0);
    read += code.substr(copied, star - 1 - copied) + array + "[(" + std::to_string(shift) + ")]";
    shift += one.postStep.value_or(0);
    copied = one.to;
  }
  return read + code.substr(copied);
}

std::string withAliasesRead(const std::string &code, const OptionLoopBody &body, const std::string &counter,
                            const std::string &shifted, LoopPlace pass) {
  std::string read = code;
  for (const auto &[alias, initializer] : body.aliases) {
    LoopPlace place = pass;
    std::optional<std::string> given =
        shifted.empty() ? std::optional<std::string>(initializer) : withShiftedRead(initializer, shifted, place.shift);
    given = given ? withCounterRead(*given, counter, place.counter) : std::nullopt;
    if (!given || place.counter != pass.counter || place.shift != pass.shift)
      continue; // an initializer that steps the counter is not what the pass began with
    for (std::size_t at = read.find(alias); at != std::string::npos; at = read.find(alias, at + 1))
      if (isWholeWord(read, at, alias.size()) && !afterMemberAccess(read, at)) {
        read.replace(at, alias.size(), *given);
        at += given->size() - 1;
      }
  }
  return read;
}

std::optional<std::vector<std::pair<std::size_t, std::int64_t>>>
counterSteps(const std::string &code, const std::string &counter, std::size_t from, std::size_t to) {
  std::vector<std::pair<std::size_t, std::int64_t>> steps;
  for (std::size_t at = code.find(counter, from); at < to; at = code.find(counter, at + counter.size())) {
    if (!isWholeWord(code, at, counter.size()) || afterMemberAccess(code, at) || !changesAt(code, at, counter.size()))
      continue;
    const std::size_t next = skipSpaces(code, at + counter.size());
    std::optional<std::int64_t> step = stepBefore(code, at);
    step = step ? step : stepAfter(code, at + counter.size());
    if (!step && next != std::string::npos && (code.compare(next, 2, "+=") == 0 || code.compare(next, 2, "-=") == 0)) {
      const std::size_t digits = skipSpaces(code, next + 2);
      std::size_t end = digits;
      while (end < code.size() && end - digits < 9 && std::isdigit(static_cast<unsigned char>(code[end])))
        ++end;
      const std::size_t after = skipSpaces(code, end);
      if (end > digits && after != std::string::npos && std::strchr(";),", code[after]))
        step = (code[next] == '+' ? 1 : -1) * std::stoll(code.substr(digits, end - digits));
    }
    if (!step)
      return std::nullopt;
    steps.emplace_back(at, *step);
  }
  return steps;
}

} // namespace ptxdvfs::tools
