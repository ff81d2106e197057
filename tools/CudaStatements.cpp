// CudaStatements.cpp - host-code statements read as written: where a name
// is changed or declared, what an assignment gives it, and the parts of a
// condition C evaluates.
#include "CudaStatements.h"

#include "CudaCode.h"
#include "CudaExpression.h"
#include "CudaSource.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace ptxdvfs::tools {

using expression::isTypeWord;

namespace {

/// Whether `text` starts with an operator that changes its left operand:
/// `=` (not `==`), `+=` and the like, `++`, `--`.
bool assigns(std::string_view text) {
  if (text.substr(0, 2) == "++" || text.substr(0, 2) == "--" || text.substr(0, 3) == "<<=" || text.substr(0, 3) == ">>=")
    return true;
  if (!text.empty() && text[0] == '=')
    return text.substr(0, 2) != "==";
  return text.size() >= 2 && text[1] == '=' && std::string_view("+-*/%|&^").find(text[0]) != std::string_view::npos;
}

/// Whether the `:` just before `past` ends a `case` or `default` label
/// (`case 0:`, `case 1: case 2:`), after which a statement starts.
bool endsCaseLabel(const std::string &code, std::size_t past) {
  if (past == 0 || code[past - 1] != ':' || (past > 1 && code[past - 2] == ':'))
    return false;
  const std::size_t start = code.find_last_of(";{}", past - 1);
  const std::vector<std::string> words =
      wordsIn(std::string_view(code).substr(start == std::string::npos ? 0 : start + 1, past - 1 - (start + 1)));
  return !words.empty() && (words.front() == "case" || words.front() == "default");
}

/// Whether the name of `length` characters at `at` is a whole argument of a
/// standard library call that takes it by non-const reference, whose
/// declaration is in a header not read: `std::swap(a, b)`,
/// `std::exchange(n, m)`, `std::tie(n, m) = ...`, `std::from_chars(s, e, n)`.
bool passedToTheLibraryToChange(const std::string &code, std::size_t at, std::size_t length) {
  static const std::pair<std::string_view, std::size_t> kChangedArguments[] = {
      {"swap", 0}, {"swap", 1}, {"exchange", 0}, {"from_chars", 2}, {"getline", 1}};
  const std::optional<CallArgument> passed = argumentStartingAt(code, at, at, length);
  if (!passed || !passed->whole)
    return false;
  if (passed->callee == "tie")
    return true; // each of them assigned
  return std::any_of(std::begin(kChangedArguments), std::end(kChangedArguments), [&](const auto &changed) {
    return changed.first == passed->callee && changed.second == passed->index;
  });
}

} // namespace

std::optional<CallArgument> argumentStartingAt(const std::string &code, std::size_t start, std::size_t at,
                                               std::size_t length) {
  const std::size_t argumentStart = codeEndBefore(code, start);
  if (argumentStart == 0 || (code[argumentStart - 1] != '(' && code[argumentStart - 1] != ','))
    return std::nullopt; // `f(a & n)`, `f(x, y + &n)`; checked first, as finding the `(` may read back far
  const std::size_t open = parenthesisAround(code, at);
  if (open == std::string::npos)
    return std::nullopt;
  const std::size_t next = code.find_first_not_of(" \t\r\n", at + length);
  std::size_t nameAt = open;
  std::string callee = wordBefore(code, nameAt);
  const bool whole = next != std::string::npos && (code[next] == ',' || code[next] == ')');
  return CallArgument{std::move(callee), argumentCountAndIndex(code, open, at).second, open, whole};
}

bool changesAt(const std::string &code, std::size_t at, std::size_t length) {
  const std::size_t previous = codeEndBefore(code, at);
  std::size_t operatorAt = code.find_first_not_of(" \t\r\n", at + length);
  if (operatorAt != std::string::npos && code[operatorAt] == '.') { // `threads.x = 64`
    operatorAt = code.find_first_not_of(" \t", operatorAt + 1);
    while (operatorAt != std::string::npos && operatorAt < code.size() && isIdentifierChar(code[operatorAt]))
      ++operatorAt;
    operatorAt = operatorAt == std::string::npos ? code.size() : code.find_first_not_of(" \t\r\n", operatorAt);
  }
  const bool assigned = operatorAt != std::string::npos && assigns(std::string_view(code).substr(operatorAt, 3));
  const bool taken = previous > 0 && ((code[previous - 1] == '&' && (previous < 2 || code[previous - 2] != '&')) ||
                                      (previous > 1 && (code.compare(previous - 2, 2, "++") == 0 ||
                                                        code.compare(previous - 2, 2, "--") == 0 ||
                                                        code.compare(previous - 2, 2, ">>") == 0)));
  return assigned || taken || passedToTheLibraryToChange(code, at, length);
}

bool readsElementOnly(const std::string &code, std::size_t at, std::size_t length) {
  static const std::set<std::string, std::less<>> kReads{"size", "empty", "cbegin", "cend"};
  const std::size_t next = code.find_first_not_of(" \t\r\n", at + length);
  if (next == std::string::npos)
    return false;
  if (code[next] == '[')
    return !changesMembersAt(code, at, at + length, true);
  if (code[next] == '.') // a container's `sizes.size()`
    return kReads.count(firstWordOf(std::string_view(code).substr(next + 1))) > 0;
  std::size_t previous = codeEndBefore(code, at);
  if (code[next] == ')' && previous > 0 && code[previous - 1] == ':' && (previous < 2 || code[previous - 2] != ':')) {
    // The range of a range `for`: read where it takes elements by value or by const reference.
    const std::size_t open = parenthesisAround(code, at);
    const std::string_view declared = open == std::string::npos
                                          ? std::string_view()
                                          : std::string_view(code).substr(open + 1, previous - 1 - open - 1);
    const std::vector<std::string> words = wordsIn(declared);
    return open != std::string::npos &&
           (declared.find('&') == std::string_view::npos || std::count(words.begin(), words.end(), "const"));
  }
  if (previous > 0 && code[previous - 1] == '(')
    previous = codeEndBefore(code, previous - 1);
  return wordBefore(code, previous) == "sizeof";
}

std::string withoutAssignments(std::string condition) {
  for (std::size_t from = 0;;) {
    const std::size_t found = plainAssignment(std::string_view(condition).substr(from));
    if (found == std::string_view::npos)
      return condition;
    const std::size_t equals = from + found;
    std::size_t nameStart = equals;
    from = equals + 1;
    if (wordBefore(condition, nameStart).empty())
      continue;
    const std::size_t open = codeEndBefore(condition, nameStart);
    if (open > 0 && condition[open - 1] == '(') {
      condition.erase(nameStart, equals + 1 - nameStart);
      from = nameStart;
    }
  }
}

std::size_t parenthesisAround(const std::string &code, std::size_t at) {
  int depth = 0, statements = 0;
  for (std::size_t offset = at; offset-- > 0;) {
    const char c = code[offset];
    if (c == ';' && depth == 0 && ++statements > 2)
      return std::string::npos; // past a `for`'s two: statements before, not a parenthesis's insides
    if (c == ')' || c == ']' || c == '}')
      ++depth;
    else if (c == '(' || c == '[' || c == '{') {
      if (depth == 0)
        return c == '(' ? offset : std::string::npos;
      --depth;
    }
  }
  return std::string::npos;
}

std::optional<std::string> assignedText(const std::string &code, std::size_t at, const std::string &name) {
  std::size_t wordAt = at;
  const std::string word = wordBefore(code, wordAt);
  const std::size_t previous = codeEndBefore(code, at), newline = code.find('\n', previous);
  const bool afterDirective = previous > 0 && newline < at && preprocessorLineEndsAt(code, newline);
  const bool afterStatement =
      previous == 0 || (word.empty() ? std::string_view(";{})").find(code[previous - 1]) != std::string_view::npos ||
                                           endsCaseLabel(code, previous)
                                     : word == "else" || word == "do");
  const bool startsStatement = afterStatement || afterDirective;
  if (!startsStatement || parenthesisAround(code, at) != std::string::npos)
    return std::nullopt;
  const std::size_t op = code.find_first_not_of(" \t\r\n", at + name.size());
  const std::size_t end = op == std::string::npos ? op : statementEndFrom(code, op);
  if (end == std::string::npos || code[end - 1] != ';')
    return std::nullopt; // not ended by its own `;`
  const std::string_view change = std::string_view(code).substr(op, end - 1 - op);
  if (change.substr(0, 2) == "++" || change.substr(0, 2) == "--")
    return change.find_first_not_of(" \t\r\n", 2) == std::string_view::npos
               ? std::optional<std::string>(name + (change[0] == '+' ? " + 1" : " - 1"))
               : std::nullopt;
  const std::size_t equals = change.find('=');
  if (equals == std::string_view::npos || equals > 2 || !assigns(change))
    return std::nullopt;
  const std::string value = topLevelParts(change.substr(equals + 1)).front();
  return equals == 0 ? value : name + " " + std::string(change.substr(0, equals)) + " (" + value + ")";
}

std::optional<ConditionAssignment> conditionAssignment(const std::string &code, std::size_t at,
                                                       const std::string &name) {
  const std::size_t open = parenthesisAround(code, at);
  const std::size_t equals = code.find_first_not_of(" \t\r\n", at + name.size());
  if (open == std::string::npos || codeEndBefore(code, at) != open + 1 || equals == std::string::npos ||
      code[equals] != '=' || code.compare(equals, 2, "==") == 0)
    return std::nullopt; // not `(name = value)`
  const std::size_t close = pastClosing(code, open), condition = parenthesisAround(code, open);
  std::size_t keywordAt = condition;
  if (close == std::string::npos || condition == std::string::npos || wordBefore(code, keywordAt) != "if")
    return std::nullopt;
  ConditionAssignment found{trimmed(std::string_view(code).substr(equals + 1, close - 2 - equals)), condition, {}};
  int nested = 0;
  for (std::size_t from = condition + 1, i = from; i < open; ++i) {
    const char c = code[i];
    nested += c == '(' || c == '[' || c == '{' ? 1 : c == ')' || c == ']' || c == '}' ? -1 : 0;
    if (nested == 0 && c == '?')
      return std::nullopt;
    if (nested != 0 || (code.compare(i, 2, "||") != 0 && code.compare(i, 2, "&&") != 0))
      continue;
    if (!found.before.empty() && found.orBefore != (c == '|'))
      return std::nullopt; // `a && b || (n = ...)`: which operands C evaluates is not read
    found.orBefore = c == '|';
    found.before.push_back(code.substr(from, i - from));
    from = ++i + 1;
  }
  return found;
}

std::optional<std::pair<int, std::string>> memberAssignment(const std::string &code, std::size_t at,
                                                            const std::string &name) {
  const std::size_t dot = code.find_first_not_of(" \t", at + name.size());
  if (dot == std::string::npos || code[dot] != '.')
    return std::nullopt;
  const std::size_t member = code.find_first_not_of(" \t", dot + 1);
  if (member == std::string::npos || std::string_view("xyz").find(code[member]) == std::string_view::npos ||
      (member + 1 < code.size() && isIdentifierChar(code[member + 1])))
    return std::nullopt;
  // Read as `name = e;` would be, the member's text standing for the name.
  const std::optional<std::string> value = assignedText(code, at, code.substr(at, member + 1 - at));
  if (!value || readsName(*value, name))
    return std::nullopt; // `name.x *= 2` reads as `name.x * (2)`
  return std::pair{code[member] - 'x', *value};
}

std::vector<std::string> declaredTypeBefore(const std::string &code, std::size_t at) {
  std::size_t start = at;
  while (start > 0 && (isIdentifierChar(code[start - 1]) || isSpace(code[start - 1]) || code[start - 1] == ':')) {
    if (code[start - 1] == '\n' && preprocessorLineEndsAt(code, start - 1))
      break; // a `#define` line above ends without a `;`
    --start;
  }
  std::vector<std::string> words = wordsIn(std::string_view(code).substr(start, at - start));
  if (!words.empty() && (words.front() == "public" || words.front() == "private" || words.front() == "protected"))
    words.erase(words.begin()); // a class's access label before the member (`public: static const int k = 4;`)
  return words;
}

std::vector<std::string> returnTypeBefore(const std::string &code, std::size_t nameAt) {
  static const std::set<std::string, std::less<>> kFunctionQualifiers{
      "static", "inline", "__inline__", "__forceinline__", "__host__", "__device__", "constexpr", "extern"};
  std::vector<std::string> type = declaredTypeBefore(code, nameAt);
  type.erase(std::remove_if(type.begin(), type.end(), [](const std::string &word) { return kFunctionQualifiers.count(word); }),
             type.end());
  return type;
}

bool declaresName(const std::vector<std::string> &words) {
  static const std::set<std::string, std::less<>> kStatements{"return", "case",   "else", "do",     "goto",
                                                              "throw",  "delete", "new",  "sizeof", "typedef",
                                                              "using",  "default"};
  return !words.empty() && std::none_of(words.begin(), words.end(), [](const std::string &word) {
           return kStatements.count(word) > 0 || std::isdigit(static_cast<unsigned char>(word[0]));
         });
}

std::optional<std::vector<std::string>> listedDeclarationType(const std::string &code, std::size_t at,
                                                              bool namedTypes) {
  const std::size_t comma = codeEndBefore(code, at);
  if (comma == 0 || code[comma - 1] != ',' || parenthesisAround(code, at) != std::string::npos)
    return std::nullopt;
  // Whether the `}` just before `past` closes an initializer, `= {64, 1}` or `= Params{64, 1}`, not a block.
  auto closesInitializer = [&](std::size_t past) {
    std::size_t before = codeEndBefore(code, openingOf(code, past - 1));
    std::size_t wordAt = before;
    if (!wordBefore(code, wordAt).empty())
      before = codeEndBefore(code, wordAt);
    return before > 0 && code[before - 1] == '=';
  };
  std::size_t start = comma - 1; // back to the statement's start, over the brackets in it
  while (start > 0 && (std::string_view(";{}").find(code[start - 1]) == std::string_view::npos ||
                       (code[start - 1] == '}' && closesInitializer(start)))) {
    if (code[start - 1] == '\n' && preprocessorLineEndsAt(code, start - 1))
      break; // an `#include` line above ends without a `;`
    start = std::string_view(")]}").find(code[start - 1]) != std::string_view::npos ? openingOf(code, start - 1)
                                                                                   : start - 1;
  }
  const std::string first = topLevelParts(std::string_view(code).substr(start, comma - 1 - start)).front();
  std::vector<std::string> words = wordsIn(first.substr(0, first.find_first_of("=([{")));
  // A struct's name is the last word before the first name, after type words and `struct`.
  const auto qualifier = [](const std::string &word) { return isTypeWord(word) || word == "struct"; };
  const bool named = namedTypes && words.size() >= 2 && !isTypeWord(words[words.size() - 2]) &&
                     declaresName({words[words.size() - 2]}) && std::all_of(words.begin(), words.end() - 2, qualifier);
  if (words.size() < 2 || isTypeWord(words.back()) ||
      (!named && !std::all_of(words.begin(), words.end() - 1, isTypeWord)))
    return std::nullopt;
  words.pop_back();
  return words;
}

std::optional<StructuredBinding> structuredBindingAt(const std::string &code, std::size_t at) {
  std::size_t open = at, index = 0;
  while (open > 0 && (isIdentifierChar(code[open - 1]) || isSpace(code[open - 1]) || code[open - 1] == ','))
    index += code[--open] == ',';
  if (open == 0 || code[open - 1] != '[')
    return std::nullopt;
  std::size_t keyword = codeEndBefore(code, open - 1);
  while (keyword > 0 && code[keyword - 1] == '&')
    keyword = codeEndBefore(code, keyword - 1);
  const std::size_t close = pastClosing(code, open - 1);
  const std::size_t equals = close == std::string::npos ? close : code.find_first_not_of(" \t\r\n", close);
  if (wordBefore(code, keyword) != "auto" || equals == std::string::npos || code[equals] != '=' ||
      code.compare(equals, 2, "==") == 0)
    return std::nullopt;
  const std::size_t end = statementEndFrom(code, equals + 1);
  if (end == std::string::npos || code[end - 1] != ';')
    return std::nullopt;
  return StructuredBinding{index, trimmed(std::string_view(code).substr(equals + 1, end - 1 - equals - 1))};
}

std::pair<std::size_t, std::size_t> argumentCountAndIndex(const std::string &code, std::size_t open, std::size_t at) {
  std::size_t count = 1, index = 0;
  int depth = 0;
  for (std::size_t i = open + 1; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth-- == 0)
      break;
    else if (c == ',' && depth == 0) {
      ++count;
      if (i < at)
        ++index;
    }
  }
  return {count, index};
}

std::optional<CallArgument> addressArgumentAt(const std::string &code, std::size_t at, std::size_t length) {
  const std::size_t previous = codeEndBefore(code, at);
  if (previous == 0 || code[previous - 1] != '&')
    return std::nullopt;
  return argumentStartingAt(code, previous - 1, at, length);
}

bool changesMembersAt(const std::string &code, std::size_t at, std::size_t end, bool deeper) {
  if (!deeper)
    return changesAt(code, at, end - at);
  for (std::size_t next = code.find_first_not_of(" \t\r\n", end); next != std::string::npos && code[next] == '[';
       next = code.find_first_not_of(" \t\r\n", end)) {
    end = pastClosing(code, next);
    if (end == std::string::npos)
      return true;
  }
  const std::size_t next = code.find_first_not_of(" \t\r\n", end);
  const bool further = next != std::string::npos && (code[next] == '(' || code.compare(next, 2, "->") == 0);
  return further || changesAt(code, at, end - at);
}

std::vector<std::size_t> changesWithin(const std::string &code, const std::string &name, std::size_t from,
                                       std::size_t to) {
  std::vector<std::size_t> changes;
  for (std::size_t use = code.find(name, from); use < to; use = code.find(name, use + 1))
    if (isWholeWord(code, use, name.size()) && !afterMemberAccess(code, use) && changesAt(code, use, name.size()))
      changes.push_back(use);
  return changes;
}

bool changedWithin(const std::string &code, const std::string &name, std::size_t from, std::size_t to) {
  for (std::size_t at = code.find(name, from); at != std::string::npos && at < to;
       at = code.find(name, at + name.size()))
    if (isWholeWord(code, at, name.size()) && changesAt(code, at, name.size()))
      return true;
  return false;
}

bool passedToBeRead(const std::string &code, std::size_t at, std::size_t length) {
  static const std::pair<std::string_view, std::size_t> kReadArguments[] = {
      {"cudaLaunchKernelEx", 0}, {"cudaMemcpyToSymbol", 1}, {"cudaMemcpyToSymbolAsync", 1},
      {"cudaMemcpy", 1},         {"cudaMemcpyAsync", 1},    {"memcpy", 1}};
  std::optional<CallArgument> passed = addressArgumentAt(code, at, length);
  if (!passed) // an array, which decays to its address: `cudaMemcpyToSymbol(c_dims, dims, sizeof(dims))`
    if ((passed = argumentStartingAt(code, at, at, length)) && !passed->whole)
      passed.reset();
  return (passed && std::any_of(std::begin(kReadArguments), std::end(kReadArguments),
                                [&](const auto &read) {
                                  return read.first == passed->callee && read.second == passed->index;
                                })) ||
         inLaunchArgumentArray(code, at, length);
}

namespace {

/// Whether the `(` at `open` begins the head of an `if`, `for`, `while` or
/// `switch`; `keyword` moves to that word's start.
bool opensHead(const std::string &code, std::size_t open, std::size_t &keyword) {
  static const std::set<std::string, std::less<>> kHeads{"if", "for", "while", "switch"};
  keyword = open;
  return kHeads.count(wordBefore(code, keyword)) > 0;
}

} // namespace

std::size_t headKeywordAround(const std::string &code, std::size_t at) {
  std::size_t found = std::string::npos;
  for (std::size_t open = parenthesisAround(code, at), keyword = 0; open != std::string::npos;
       open = parenthesisAround(code, open))
    if (opensHead(code, open, keyword))
      found = keyword;
  return found;
}

std::size_t statementStartAround(const std::string &code, std::size_t at) {
  auto headedBy = [&](std::size_t open) {
    std::size_t keyword = open;
    return opensHead(code, open, keyword);
  };
  std::size_t start = at;
  for (std::size_t i = at; i > 0;) {
    const char c = code[i - 1];
    if (c == ';' || c == '{' || c == '}' || (c == ':' && endsCaseLabel(code, i)))
      break;
    if (c == '(' && headedBy(i - 1))
      return at; // in a head's parentheses
    if (c == ')' || c == ']') {
      const std::size_t open = openingOf(code, i - 1);
      if (c == ')' && headedBy(open))
        break; // the body of `if (...)`
      start = i = open;
      continue;
    }
    if (isIdentifierChar(c)) {
      std::size_t wordAt = i;
      const std::string word = wordBefore(code, wordAt);
      if (word == "else" || word == "do")
        break;
      start = i = wordAt;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c)))
      start = i - 1;
    --i;
  }
  return start;
}

bool readsName(std::string_view text, std::string_view name) {
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1))
    if (isWholeWord(text, at, name.size()))
      return true;
  return false;
}

namespace {

/// statementEndFrom() within `nested` compound statements: past kMaxNested (hostile input, `if (a) if (a) ...`
/// thousands deep) the rest is scanned flat, as it was before compound statements were read, not recursed into.
std::size_t statementEnd(const std::string &code, std::size_t start, int nested) {
  constexpr int kMaxNested = 256;
  // A block, or a statement headed by `for`, `while`, `switch` or `if` (with its `else`), ends with its body.
  const std::string word = start < code.size() ? firstWordOf(std::string_view(code).substr(start, 8)) : "";
  const std::size_t open = code.find_first_not_of(" \t\r\n", start + word.size());
  if (start < code.size() && code[start] == '{')
    return pastClosing(code, start);
  if (nested < kMaxNested && (word == "for" || word == "while" || word == "switch" || word == "if") &&
      open != std::string::npos && code[open] == '(') {
    const std::size_t close = pastClosing(code, open);
    const std::size_t body = close == std::string::npos ? close : code.find_first_not_of(" \t\r\n", close);
    const std::size_t end = body == std::string::npos ? body : statementEnd(code, body, nested + 1);
    const std::size_t next = end == std::string::npos ? end : code.find_first_not_of(" \t\r\n", end);
    if (word == "if" && next != std::string::npos && firstWordOf(std::string_view(code).substr(next, 5)) == "else")
      return statementEnd(code, code.find_first_not_of(" \t\r\n", next + 4), nested + 1);
    return end;
  }
  int depth = 0;
  for (std::size_t at = start; at < code.size(); ++at) {
    const char c = code[at];
    depth += (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
    if (depth < 0 || (depth == 0 && c == ';'))
      return at + 1;
  }
  return std::string::npos;
}

} // namespace

std::size_t statementEndFrom(const std::string &code, std::size_t start) { return statementEnd(code, start, 0); }

std::size_t plainAssignment(std::string_view text) {
  for (std::size_t at = text.find('='); at != std::string_view::npos; at = text.find('=', at + 1)) {
    const bool doubled = at + 1 < text.size() && text[at + 1] == '=';
    const bool compound = at > 0 && std::string_view("=<>!+-*/%&|^").find(text[at - 1]) != std::string_view::npos;
    if (doubled) {
      ++at;
      continue;
    }
    if (!compound)
      return at;
  }
  return std::string_view::npos;
}

bool conditionallyCompiledBefore(const std::string &code, std::size_t at, std::size_t before) {
  int depth = 0; // of the `#if`s opened after `at`
  for (std::size_t line = code.find('\n', at); line != std::string::npos && line < before;
       line = code.find('\n', line + 1)) {
    const std::size_t hash = code.find_first_not_of(" \t", line + 1);
    if (hash == std::string::npos || hash >= before || code[hash] != '#')
      continue;
    const std::size_t word = code.find_first_not_of(" \t", hash + 1);
    if (word == std::string::npos)
      break;
    const std::size_t wordEnd = code.find_first_not_of("abcdefghijklmnopqrstuvwxyz", word);
    const std::string_view directive = std::string_view(code).substr(word, wordEnd - word);
    if (directive == "if" || directive == "ifdef" || directive == "ifndef")
      ++depth;
    else if ((directive == "endif" && depth-- == 0) || ((directive == "else" || directive == "elif") && depth == 0))
      return true;
  }
  return false;
}

} // namespace ptxdvfs::tools
