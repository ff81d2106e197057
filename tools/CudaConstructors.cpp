// CudaConstructors.cpp - a class's constructors as host code writes them,
// `Solver(int n) : n_(n), blocks_((n + 255) / 256) {}` in the class or
// `Solver::Solver(int n) : ... {}` after it, and the places that build
// its objects (`Solver s(1 << 20);`), which are the constructor's calls.
#include "CudaCode.h"

#include <cctype>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

namespace {

/// Words that a `(` follows without being a call or an initializer.
bool isStatementKeyword(const std::string &word) {
  static const std::set<std::string, std::less<>> kKeywords{"if",    "for",    "while",  "switch",
                                                            "catch", "return", "sizeof", "decltype"};
  return kKeywords.count(word) > 0;
}

/// Just past the brackets that close at `close` - 1 (`(` or `{`), moved
/// back to their name: the name's first character; npos where they are
/// not a name's (`(a + b)`, `if (...)`).
std::size_t initializerNameBefore(const std::string &code, std::size_t close) {
  const char closing = code[close - 1];
  if (closing != ')' && closing != '}')
    return std::string::npos;
  std::size_t at = openingOf(code, close - 1);
  if (code[at] != (closing == ')' ? '(' : '{'))
    return std::string::npos;
  const std::string name = wordBefore(code, at);
  return name.empty() || isStatementKeyword(name) ? std::string::npos : at;
}

} // namespace

std::size_t memberInitializersBefore(const std::string &code, std::size_t brace) {
  constexpr int kMostInitializers = 256;
  std::size_t end = codeEndBefore(code, brace);
  for (int initializer = 0; initializer < kMostInitializers && end > 0; ++initializer) {
    const std::size_t name = initializerNameBefore(code, end);
    if (name == std::string::npos)
      return std::string::npos;
    const std::size_t before = codeEndBefore(code, name);
    if (before > 0 && code[before - 1] == ',') {
      end = codeEndBefore(code, before - 1);
      continue;
    }
    if (before == 0 || code[before - 1] != ':' || (before > 1 && code[before - 2] == ':'))
      return std::string::npos; // `::` qualifies, and `public:` or `case 4:` is no constructor's
    const std::size_t colon = before - 1;
    const std::size_t parameters = codeEndBefore(code, functionSpecifiersBefore(code, colon).start);
    return parameters > 0 && code[parameters - 1] == ')' ? colon : std::string::npos;
  }
  return std::string::npos;
}

std::string CudaCode::classOfFunction(int block) const {
  if (block < 0 || !isFunctionBody(block))
    return "";
  std::size_t nameAt = parameterListOf(openBraceOf(block));
  if (nameAt == std::string::npos)
    return ""; // a lambda's
  wordBefore(code_, nameAt);
  if (afterScopeOperator(code_, nameAt)) { // `void Solver::step(...) {`, `void Solver<B>::step(...) {`
    std::size_t scope = codeEndBefore(code_, codeEndBefore(code_, nameAt) - 2);
    if (scope > 0 && code_[scope - 1] == '>')
      scope = openingOf(code_, scope - 1);
    return wordBefore(code_, scope);
  }
  const int around = parentOf(block);
  return around < 0 || insideFunction(around) ? "" : classNameOf(around);
}

std::string objectBefore(const std::string &code, std::size_t member, std::size_t &objectAt) {
  if (!afterMemberAccess(code, member))
    return "";
  objectAt = codeEndBefore(code, member);
  objectAt -= code[objectAt - 1] == '.' ? 1 : 2;
  std::string object = wordBefore(code, objectAt);
  return afterMemberAccess(code, objectAt) ? "" : object;
}

std::size_t thisBefore(const std::string &code, std::size_t at) {
  std::size_t self = at;
  return objectBefore(code, at, self) == "this" ? self : std::string::npos;
}

int CudaCode::functionHeadAt(std::size_t offset) const {
  const int body = bodyAfterHead(offset);
  const std::size_t open = body < 0 ? std::string::npos : parameterListOf(openBraceOf(body));
  return open != std::string::npos && open < offset ? body : -1;
}

void CudaCode::readClasses() const {
  if (classes_)
    return;
  classes_.emplace();
  for (int block = 0; block < static_cast<int>(blocks_.size()); ++block) {
    if (isFunctionBody(block) && isConstructor(block))
      classes_->first.insert(classOfFunction(block));
    else if (!isFunctionBody(block) && templateParametersOfClass(block))
      classes_->second.insert(classNameOf(block));
  }
}

bool CudaCode::definesConstructor(const std::string &name) const {
  readClasses();
  return classes_->first.count(name) > 0;
}

bool CudaCode::definesClassTemplate(const std::string &name) const {
  readClasses();
  return classes_->second.count(name) > 0;
}

bool CudaCode::isConstructor(int block) const {
  const std::string className = classOfFunction(block);
  std::size_t nameAt = className.empty() ? std::string::npos : parameterListOf(openBraceOf(block));
  if (nameAt == std::string::npos || wordBefore(code_, nameAt) != className)
    return false;
  const std::size_t before = codeEndBefore(code_, nameAt);
  return before == 0 || code_[before - 1] != '~';
}

std::vector<CudaCode::MemberInitializer> CudaCode::memberInitializersOf(int block) const {
  std::vector<MemberInitializer> initializers;
  const std::size_t brace = block < 0 || !isFunctionBody(block) ? std::string::npos : openBraceOf(block);
  const std::size_t colon = brace == std::string::npos ? brace : memberInitializersBefore(code_, brace);
  for (std::size_t at = colon == std::string::npos ? brace : colon + 1; at < brace;) {
    const std::size_t name = code_.find_first_not_of(" \t\r\n,", at);
    std::size_t nameEnd = name;
    while (nameEnd < brace && isIdentifierChar(code_[nameEnd]))
      ++nameEnd;
    const std::size_t open = code_.find_first_not_of(" \t\r\n", nameEnd);
    const std::size_t close = open >= brace ? std::string::npos : pastClosing(code_, open);
    if (nameEnd == name || close == std::string::npos || close > brace)
      break; // memberInitializersBefore() read it: only a base class's qualified name, `ns::Base(n)`
    initializers.push_back({code_.substr(name, nameEnd - name), open, close - 1});
    at = close;
  }
  return initializers;
}

namespace {

/// One declarator of an object at `at`: `s(4096)`, `s{4096}`, `s = {4096}`
/// or `s` before `;` or `,`. Its arguments, and just past its end.
struct Declarator {
  std::vector<std::string> arguments;
  std::size_t end = 0;
};

std::optional<Declarator> declaratorAt(const std::string &code, std::size_t at) {
  if (at >= code.size())
    return std::nullopt;
  std::size_t nameEnd = at;
  while (nameEnd < code.size() && isIdentifierChar(code[nameEnd]))
    ++nameEnd;
  const std::string variable = code.substr(at, nameEnd - at);
  const std::size_t after = code.find_first_not_of(" \t\r\n", nameEnd);
  if (variable.empty() || std::isdigit(static_cast<unsigned char>(variable[0])) || isStatementKeyword(variable) ||
      after == std::string::npos)
    return std::nullopt;
  if (code[after] == ';' || code[after] == ',')
    return Declarator{{}, nameEnd}; // `Solver s;`
  std::size_t open = after;
  if (code[after] == '=') // `Solver s = {4096};`
    open = code.find_first_not_of(" \t\r\n", after + 1);
  if (open == std::string::npos || (code[open] != '{' && (code[open] != '(' || open != after)))
    return std::nullopt;
  std::optional<std::vector<std::string>> arguments = partsInParentheses(code, open);
  if (!arguments)
    return std::nullopt;
  return Declarator{std::move(*arguments), pastClosing(code, open)};
}

} // namespace

std::vector<std::size_t> constructionsIn(const CudaCode &file, const std::string &name) {
  const std::string &code = file.code();
  std::vector<std::size_t> found;
  for (std::size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + name.size())) {
    if (!isWholeWord(code, at, name.size()) || afterMemberAccess(code, at) || file.functionBodyAt(at) < 0 ||
        !constructionArguments(code, at, name.size()))
      continue;
    found.push_back(at);
    // The other objects the same declaration builds: `Solver a(4096), b(8192);`.
    const std::size_t arguments = code.find_first_not_of(" \t\r\n", at + name.size()); // `<float>`, if any
    std::optional<Declarator> declarator =
        declaratorAt(code, code.find_first_not_of(" \t\r\n", pastTemplateArguments(code, arguments)));
    for (std::size_t next = declarator ? code.find_first_not_of(" \t\r\n", declarator->end) : std::string::npos;
         next != std::string::npos && code[next] == ',';
         next = declarator ? code.find_first_not_of(" \t\r\n", declarator->end) : std::string::npos) {
      const std::size_t variable = code.find_first_not_of(" \t\r\n", next + 1);
      declarator = variable == std::string::npos ? std::nullopt : declaratorAt(code, variable);
      if (declarator)
        found.push_back(variable);
    }
  }
  return found;
}

std::size_t constructedVariable(const std::string &code, std::size_t at, const std::string &className) {
  std::size_t variable = at;
  if (code.compare(at, className.size(), className) == 0 && isWholeWord(code, at, className.size())) {
    variable = code.find_first_not_of(" \t\r\n", at + className.size());
    variable = code.find_first_not_of(" \t\r\n", pastTemplateArguments(code, variable));
  }
  return variable < code.size() && isIdentifierChar(code[variable]) &&
                 !std::isdigit(static_cast<unsigned char>(code[variable]))
             ? variable
             : std::string::npos;
}

std::optional<std::vector<std::string>> constructionArguments(const std::string &code, std::size_t at,
                                                              std::size_t length) {
  if (const std::size_t before = codeEndBefore(code, at); before > 0 && code[before - 1] == ',') {
    std::optional<Declarator> later = declaratorAt(code, at); // `b(8192)` of `Solver a(4096), b(8192);`
    return later ? std::optional<std::vector<std::string>>(std::move(later->arguments)) : std::nullopt;
  }
  std::size_t next = code.find_first_not_of(" \t\r\n", at + length);
  if (next != std::string::npos && code[next] == '<') // a class template's: `Solver<float> s(...)`
    next = code.find_first_not_of(" \t\r\n", pastTemplateArguments(code, next));
  if (next == std::string::npos)
    return std::nullopt;
  if (code[next] == '>') { // `std::make_unique<Solver>(...)`
    const std::size_t angle = codeEndBefore(code, at);
    std::size_t maker = angle == 0 || code[angle - 1] != '<' ? 0 : angle - 1;
    const std::string called = maker == 0 ? "" : wordBefore(code, maker);
    next = code.find_first_not_of(" \t\r\n", next + 1);
    if ((called != "make_unique" && called != "make_shared") || next == std::string::npos || code[next] != '(')
      return std::nullopt;
    return partsInParentheses(code, next);
  }
  if (code[next] == '{') // `Solver{1 << 20}`, a temporary
    return partsInParentheses(code, next);
  std::optional<Declarator> declarator = declaratorAt(code, next);
  return declarator ? std::optional<std::vector<std::string>>(std::move(declarator->arguments)) : std::nullopt;
}

} // namespace ptxdvfs::tools
