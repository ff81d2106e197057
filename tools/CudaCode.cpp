// CudaCode.cpp - matching a CUDA file's braces, and telling a function's
// body from the other blocks.
#include "CudaCode.h"

#include "CudaStatements.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iterator>
#include <optional>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

CudaCode::CudaCode(const CudaSourceFile &file, std::string code,
                   const std::set<std::string, std::less<>> &macrosElsewhere, const FlagMacros &flags)
    : shownAs_(std::filesystem::path(file.path).filename().string()), text_(file.text) {
  ConditionalCode read = readConditionals(std::move(code), macrosElsewhere, flags);
  code_ = std::move(read.code);
  knobs_ = std::move(read.knobs);
  std::vector<int> open;
  for (std::size_t at = 0; at < code_.size(); ++at) {
    if (code_[at] == '{') {
      blocks_.push_back(
          {at, code_.size(), open.empty() ? -1 : open.back(),
           parameterListOf(at) != std::string::npos || namedLambdaOf(at).has_value()});
      open.push_back(static_cast<int>(blocks_.size()) - 1);
    } else if (code_[at] == '}' && !open.empty()) {
      blocks_[static_cast<std::size_t>(open.back())].close = at;
      open.pop_back();
    }
  }
}

const UndefinedKnob *CudaCode::knobAround(std::size_t offset) const {
  for (auto knob = knobs_.rbegin(); knob != knobs_.rend(); ++knob) // the innermost starts last
    if (knob->start <= offset && offset < knob->end)
      return &*knob;
  return nullptr;
}

std::size_t CudaCode::pastBlockOpenedAt(std::size_t open) const {
  const auto block = std::lower_bound(blocks_.begin(), blocks_.end(), open,
                                      [](const Block &block, std::size_t at) { return block.open < at; });
  return block == blocks_.end() || block->open != open || block->close >= code_.size() ? std::string::npos
                                                                                        : block->close + 1;
}

std::string CudaCode::where(std::size_t offset) const {
  if (newlines_.empty() && !code_.empty())
    for (std::size_t at = code_.find('\n'); at != std::string::npos; at = code_.find('\n', at + 1))
      newlines_.push_back(at);
  const auto line = std::lower_bound(newlines_.begin(), newlines_.end(), offset) - newlines_.begin();
  return shownAs_ + ":" + std::to_string(line + 1);
}

int CudaCode::blockAt(std::size_t offset) const {
  // The last block opened before `offset`, or the nearest of its parents still open there.
  auto after = std::upper_bound(blocks_.begin(), blocks_.end(), offset,
                                [](std::size_t at, const Block &block) { return at <= block.open; });
  int block = static_cast<int>(after - blocks_.begin()) - 1;
  while (block >= 0 && blocks_[static_cast<std::size_t>(block)].close <= offset)
    block = blocks_[static_cast<std::size_t>(block)].parent;
  return block;
}

bool CudaCode::encloses(int outer, int inner) const {
  for (int block = inner;; block = blocks_[static_cast<std::size_t>(block)].parent) {
    if (block == outer)
      return true;
    if (block < 0)
      return false;
  }
}

bool CudaCode::insideFunction(int block) const {
  for (; block >= 0; block = blocks_[static_cast<std::size_t>(block)].parent)
    if (blocks_[static_cast<std::size_t>(block)].functionBody)
      return true;
  return false;
}

int CudaCode::functionBodyAt(std::size_t offset) const {
  int block = blockAt(offset);
  while (block >= 0 && !blocks_[static_cast<std::size_t>(block)].functionBody)
    block = blocks_[static_cast<std::size_t>(block)].parent;
  return block;
}

int CudaCode::outermostFunctionBodyAt(std::size_t offset) const {
  int body = functionBodyAt(offset);
  for (int outer = body; outer >= 0; outer = functionBodyAt(openBraceOf(outer)))
    body = outer;
  return body;
}

std::string CudaCode::functionNameOf(int block) const {
  if (block < 0 || !blocks_[static_cast<std::size_t>(block)].functionBody)
    return "";
  const std::size_t open = blocks_[static_cast<std::size_t>(block)].open;
  if (std::optional<NamedLambda> lambda = namedLambdaOf(open))
    return std::move(lambda->name);
  std::size_t parameters = parameterListOf(open);
  return wordBefore(code_, parameters);
}

std::vector<int> CudaCode::functionBodiesNamed(const std::string &name) const {
  std::vector<int> bodies;
  for (std::size_t block = 0; block < blocks_.size(); ++block)
    if (blocks_[block].functionBody && functionNameOf(static_cast<int>(block)) == name)
      bodies.push_back(static_cast<int>(block));
  return bodies;
}

bool CudaCode::definesMethod(const std::string &name) const {
  for (const int body : functionBodiesNamed(name)) {
    std::size_t nameAt = parameterListOf(openBraceOf(body));
    if (nameAt == std::string::npos)
      continue; // a lambda's
    wordBefore(code_, nameAt);
    const int around = parentOf(body);
    const bool inClass = around >= 0 && !insideFunction(around) && !classNameOf(around).empty();
    if (inClass || afterScopeOperator(code_, nameAt))
      return true;
  }
  return false;
}

std::pair<std::size_t, std::size_t> CudaCode::constMethodsNamed(const std::string &name) const {
  std::pair<std::size_t, std::size_t> counts{0, 0};
  for (const int body : functionBodiesNamed(name)) {
    ++counts.first;
    counts.second += functionSpecifiersBefore(code_, openBraceOf(body)).isConst;
  }
  return counts;
}

std::string CudaCode::classNameOf(int block) const {
  const std::size_t brace = openBraceOf(block);
  const std::size_t start = brace == 0 ? std::string::npos : code_.find_last_of(";{}", brace - 1);
  const std::vector<std::string> words =
      wordsIn(std::string_view(code_).substr(start == std::string::npos ? 0 : start + 1, brace - start - 1));
  if (std::find(words.begin(), words.end(), "enum") != words.end())
    return "";
  const auto keyword = std::find_if(words.begin(), words.end(),
                                    [](const std::string &word) { return word == "class" || word == "struct"; });
  return keyword == words.end() || keyword + 1 == words.end() ? "" : *(keyword + 1);
}

int CudaCode::bodyAfterHead(std::size_t offset) const {
  constexpr int kMostInitializerBlocks = 64;
  auto after = blocks_.begin();
  for (int skipped = 0; skipped <= kMostInitializerBlocks; ++skipped) {
    after = std::upper_bound(after, blocks_.end(), offset,
                             [](std::size_t at, const Block &block) { return at < block.open; });
    if (after == blocks_.end() || after->functionBody)
      break;
    // Past `v_{0}` to the body after it: a name's braces followed by another initializer or the body.
    const std::size_t before = codeEndBefore(code_, after->open);
    const std::size_t next = code_.find_first_not_of(" \t\r\n", after->close + 1);
    if (before == 0 || !isIdentifierChar(code_[before - 1]) || next == std::string::npos ||
        (code_[next] != ',' && code_[next] != '{'))
      break;
    offset = after->close;
  }
  return after == blocks_.end() || !after->functionBody ? -1 : static_cast<int>(after - blocks_.begin());
}

std::optional<CudaCode::ParameterList> CudaCode::parameterListAround(std::size_t offset) const {
  // The function whose body opens after `offset`, if `offset` is in the parameters before its `{`.
  const int body = bodyAfterHead(offset);
  const std::size_t open = body < 0 ? std::string::npos : parameterListOf(openBraceOf(body));
  const std::size_t end = open == std::string::npos || open >= offset ? std::string::npos : pastClosing(code_, open);
  if (end == std::string::npos || end - 1 <= offset)
    return std::nullopt;
  return ParameterList{body, open, end - 1};
}

std::vector<std::string> CudaCode::parametersOf(int block) const {
  const std::size_t open = block < 0 || !blocks_[static_cast<std::size_t>(block)].functionBody
                               ? std::string::npos
                               : parameterListOf(blocks_[static_cast<std::size_t>(block)].open);
  return open == std::string::npos ? std::vector<std::string>()
                                   : partsInParentheses(code_, open).value_or(std::vector<std::string>());
}

std::optional<CudaCode::TemplateParameterList> CudaCode::templateParametersOf(int block) const {
  if (block < 0 || !blocks_[static_cast<std::size_t>(block)].functionBody)
    return std::nullopt;
  std::size_t at = parameterListOf(blocks_[static_cast<std::size_t>(block)].open);
  if (at == std::string::npos)
    return std::nullopt; // a lambda without parameters
  wordBefore(code_, at); // the function's name
  return templateListBefore(at);
}

std::optional<CudaCode::TemplateParameterList> CudaCode::templateParametersOfClass(int block) const {
  if (block < 0 || classNameOf(block).empty())
    return std::nullopt;
  return templateListBefore(openBraceOf(block)); // back over `struct Solver : public Base<T>`
}

std::optional<CudaCode::TemplateParameterList> CudaCode::templateListBefore(std::size_t at) const {
  // Back over a return type and qualifiers (`static`, `std::vector<int>`, `T *`) to `template <...>`.
  constexpr int kMostTokens = 32;
  for (int token = 0; token < kMostTokens; ++token) {
    at = codeEndBefore(code_, at);
    if (at == 0)
      return std::nullopt;
    const char c = code_[at - 1];
    if (c == '>') {
      const std::size_t open = openingOf(code_, at - 1);
      std::size_t keyword = open;
      if (code_[open] != '<')
        return std::nullopt;
      if (wordBefore(code_, keyword) != "template") {
        at = open;
        continue;
      }
      TemplateParameterList list{open, at - 1, {}};
      for (const std::string &part : topLevelParts(std::string_view(code_).substr(open + 1, at - 2 - open))) {
        const std::size_t equals = plainAssignment(part);
        TemplateParameter parameter;
        parameter.declaredAs = wordsIn(std::string_view(part).substr(0, equals));
        if (equals != std::string::npos)
          parameter.defaultText = trimmed(std::string_view(part).substr(equals + 1));
        parameter.type = !parameter.declaredAs.empty() &&
                         (parameter.declaredAs.front() == "typename" || parameter.declaredAs.front() == "class");
        if (parameter.declaredAs.size() >= 2) {
          parameter.name = parameter.declaredAs.back();
          parameter.declaredAs.pop_back();
        }
        list.parameters.push_back(std::move(parameter));
      }
      return list;
    }
    if (isIdentifierChar(c))
      wordBefore(code_, at);
    else if (c == '*' || c == '&' || c == ':')
      --at;
    else
      return std::nullopt;
  }
  return std::nullopt;
}

/// `f(...) {`, `f(...) const {` and `auto f = [&](...) {`, not `if (...) {`, `[](...) {` or `struct S {`.
std::size_t CudaCode::parameterListOf(std::size_t brace) const {
  const std::size_t initializers = memberInitializersBefore(code_, brace); // a constructor's `: n_(n) {`
  std::size_t at = codeEndBefore(
      code_, functionSpecifiersBefore(code_, initializers == std::string::npos ? brace : initializers).start);
  if (at == 0 || code_[at - 1] != ')')
    return std::string::npos;
  at = openingOf(code_, at - 1);
  static const std::set<std::string, std::less<>> kStatements{"if", "for", "while", "switch", "catch"};
  std::size_t nameStart = at;
  const std::string name = wordBefore(code_, nameStart);
  if (name.empty() && nameStart > 0 && code_[nameStart - 1] == ']') // `auto f = [&](int n) {`
    return namedLambdaOf(brace) ? at : std::string::npos;
  return !name.empty() && !kStatements.count(name) ? at : std::string::npos;
}

std::optional<CudaCode::NamedLambda> CudaCode::namedLambdaOf(std::size_t brace) const {
  std::size_t at = codeEndBefore(code_, functionSpecifiersBefore(code_, brace).start);
  NamedLambda lambda;
  if (at > 0 && code_[at - 1] == ')') {
    lambda.parameters = openingOf(code_, at - 1);
    if (code_[lambda.parameters] != '(')
      return std::nullopt; // unmatched
    at = codeEndBefore(code_, lambda.parameters);
  }
  if (at == 0 || code_[at - 1] != ']')
    return std::nullopt;
  const std::size_t captures = openingOf(code_, at - 1);
  const std::size_t equals = codeEndBefore(code_, captures);
  if (code_[captures] != '[' || equals < 2 || code_[equals - 1] != '=' ||
      std::string_view("=!<>+-*/%&|^").find(code_[equals - 2]) != std::string_view::npos)
    return std::nullopt; // `v[i] {`, `x == [...]`, `n += [...]`
  std::size_t nameAt = equals - 1;
  lambda.name = wordBefore(code_, nameAt);
  if (lambda.name.empty() || wordBefore(code_, nameAt) != "auto")
    return std::nullopt; // passed to a call, or kept in a `std::function`
  return lambda;
}

std::size_t codeEndBefore(const std::string &code, std::size_t at) {
  while (at > 0 && isSpace(code[at - 1]))
    --at;
  return at;
}

FunctionSpecifiers functionSpecifiersBefore(const std::string &code, std::size_t brace) {
  static const std::set<std::string, std::less<>> kSpecifiers{"const",    "final",    "mutable",
                                                              "noexcept", "override", "volatile"};
  FunctionSpecifiers found{brace, false};
  for (std::size_t at = brace;;) {
    const std::string word = wordBefore(code, at);
    if (!kSpecifiers.count(word))
      return found;
    found.start = at;
    found.isConst = found.isConst || word == "const";
  }
}

bool afterMemberAccess(const std::string &code, std::size_t at) {
  const std::size_t previous = codeEndBefore(code, at);
  return previous > 0 && (code[previous - 1] == '.' || (previous > 1 && code.compare(previous - 2, 2, "->") == 0));
}

bool afterScopeOperator(const std::string &code, std::size_t at) {
  const std::size_t previous = codeEndBefore(code, at);
  return previous > 1 && code.compare(previous - 2, 2, "::") == 0;
}

std::string wordBefore(const std::string &code, std::size_t &at) {
  at = codeEndBefore(code, at);
  const std::size_t end = at;
  while (at > 0 && isIdentifierChar(code[at - 1]))
    --at;
  return code.substr(at, end - at);
}

/// Whether the line that ends at `newline` is a preprocessor directive.
bool preprocessorLineEndsAt(const std::string &code, std::size_t newline) {
  const std::size_t start = newline == 0 ? 0 : code.rfind('\n', newline - 1);
  const std::size_t first = code.find_first_not_of(" \t", start == std::string::npos ? 0 : start + 1);
  return first != std::string::npos && first < newline && code[first] == '#';
}

std::size_t CudaCode::statementEndAt(std::size_t start) const {
  const auto [found, added] = statementEnds_.try_emplace(start, 0);
  if (added)
    found->second = statementEndFrom(code_, start);
  return found->second;
}

std::size_t openingOf(const std::string &code, std::size_t close) {
  const char closing = code[close];
  const char opening = closing == ')' ? '(' : closing == ']' ? '[' : closing == '}' ? '{' : '<';
  std::size_t at = close + 1;
  for (int depth = 0; at > 0;) {
    const char c = code[--at];
    depth += c == closing ? 1 : c == opening ? -1 : 0;
    if (depth == 0)
      break;
  }
  return at;
}

std::string quotedCode(std::string_view text) {
  std::string line;
  for (char c : text)
    if (!isSpace(c))
      line += c;
    else if (!line.empty() && line.back() != ' ')
      line += ' ';
  if (!line.empty() && line.back() == ' ')
    line.pop_back();
  constexpr std::size_t kLongest = 40;
  if (line.size() > kLongest)
    line = line.substr(0, kLongest - 3) + "...";
  return "`" + line + "`";
}

std::size_t pastTemplateArguments(const std::string &code, std::size_t at) {
  if (at >= code.size() || code[at] != '<' || code.compare(at, 2, "<<") == 0 || code.compare(at, 2, "<=") == 0)
    return at;
  int angles = 0, brackets = 0;
  for (std::size_t offset = at; offset < code.size(); ++offset) {
    const char c = code[offset];
    if (c == ';' || c == '{' || c == '}' || ((c == ')' || c == ']') && --brackets < 0))
      return at;
    brackets += c == '(' || c == '[';
    if (brackets == 0 && c == '<')
      ++angles;
    else if (brackets == 0 && c == '>' && --angles == 0)
      return offset + 1;
  }
  return at;
}


std::size_t callArgumentsAt(const std::string &code, std::size_t at, std::size_t length) {
  std::size_t open = code.find_first_not_of(" \t\r\n", at + length);
  if (open == std::string::npos)
    return open;
  open = code.find_first_not_of(" \t\r\n", pastTemplateArguments(code, open));
  return open != std::string::npos && code[open] == '(' ? open : std::string::npos;
}

std::vector<std::size_t> callsIn(const CudaCode &file, const std::string &name, bool methods) {
  const std::string &code = file.code();
  std::vector<std::size_t> calls;
  for (const std::size_t at : file.wordsNamed(name)) {
    const bool member = afterMemberAccess(code, at); // `obj.name(`, `p->name(`
    if ((member && !methods) || (!member && at > 0 && code[at - 1] == '>'))
      continue; // another class's member, or `k<<<...>>>`-like text
    if (callArgumentsAt(code, at, name.size()) == std::string::npos || file.functionBodyAt(at) < 0)
      continue;
    calls.push_back(at);
  }
  return calls;
}

std::size_t templateListAround(const std::string &code, std::size_t offset) {
  int angles = 0, parentheses = 0;
  for (std::size_t at = offset; at-- > 0;) {
    const char c = code[at];
    if (c == ';' || c == '{' || c == '}')
      return std::string::npos;
    if (c == ')') {
      ++parentheses;
    } else if (c == '(') {
      if (parentheses-- == 0)
        return std::string::npos;
    } else if (parentheses == 0 && c == '>') {
      ++angles;
    } else if (parentheses == 0 && c == '<' && angles-- == 0) {
      std::size_t keyword = at;
      return wordBefore(code, keyword) == "template" ? at : std::string::npos;
    }
  }
  return std::string::npos;
}

std::vector<std::string> templateArgumentsAt(const std::string &code, std::size_t at, std::size_t length) {
  const std::size_t open = code.find_first_not_of(" \t\r\n", at + length);
  const std::size_t end = open == std::string::npos ? open : pastTemplateArguments(code, open);
  if (end == std::string::npos || end == open)
    return {};
  return topLevelParts(std::string_view(code).substr(open + 1, end - open - 2));
}

std::optional<std::vector<std::string>> partsInParentheses(const std::string &code, std::size_t open) {
  const std::size_t end = pastClosing(code, open);
  if (end == std::string::npos)
    return std::nullopt;
  const std::string_view inside = std::string_view(code).substr(open + 1, end - open - 2);
  if (trimmed(inside).empty())
    return std::vector<std::string>(); // `f()`
  return topLevelParts(inside);
}

std::vector<std::string> topLevelParts(std::string_view text, char separator) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : text) {
    depth += (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
    if (c == separator && depth == 0)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

std::vector<std::string> topLevelPartsAsWritten(std::string_view code, std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (const std::string &part : topLevelParts(code)) {
    parts.push_back(trimmed(text.substr(start, part.size())));
    start += part.size() + 1;
  }
  return parts;
}

} // namespace ptxdvfs::tools
