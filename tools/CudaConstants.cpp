// CudaConstants.cpp - looking a name up as the compiler would see it at
// one point of a file, and folding the expression it stands for.
#include "CudaConstants.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <map>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

using ptx::analysis::Dim3;

namespace {

/// How many names deep a value may be defined through others.
constexpr int kMaxDepth = 16;
/// How many occurrences of names, and tokens of expanded macros, all
/// lookups together may look at (about a second even in pathological
/// files); past it, a size is left open.
constexpr std::size_t kMaxNamesExamined = 2'000'000;

/// What a name stands for: the text to fold, and where to fold it (the
/// names in it are looked up from there).
struct Definition {
  std::string text;
  std::size_t file = 0, offset = 0;
  bool dim3 = false;
};

/// A function-like `#define NAME(a, b) body`.
struct FunctionMacro {
  std::vector<std::string> parameters;
  std::string body;
};

enum class Lookup { Found, Unknown, Absent };

bool isTypeWord(std::string_view word) {
  static const std::set<std::string, std::less<>> kWords{
      "const", "constexpr", "static", "unsigned", "signed", "int", "long", "short", "char", "size_t",
      "std", "uint32_t", "int32_t", "uint64_t", "int64_t", "uint", "dim3", "auto", "float", "double"};
  return kWords.count(word) > 0;
}

/// Whether `text` starts with an operator that changes its left operand:
/// `=` (not `==`), `+=` and the like, `++`, `--`.
bool assigns(std::string_view text) {
  if (text.substr(0, 2) == "++" || text.substr(0, 2) == "--" || text.substr(0, 3) == "<<=" || text.substr(0, 3) == ">>=")
    return true;
  if (!text.empty() && text[0] == '=')
    return text.substr(0, 2) != "==";
  return text.size() >= 2 && text[1] == '=' && std::string_view("+-*/%|&^").find(text[0]) != std::string_view::npos;
}

/// A value as C folds it: integers stay integers (division truncates)
/// until a cast or a floating-point operand makes them real.
struct Number {
  bool real = false;
  std::int64_t whole = 0;
  double value = 0;
  double asReal() const { return real ? value : static_cast<double>(whole); }
};

/// A real number converted to an integer as C does, toward zero; nullopt
/// where C's conversion would be undefined (out of range, NaN).
std::optional<std::int64_t> truncated(double real) {
  constexpr double kLimit = 9.2e18; // below 2^63, so the conversion is defined
  if (!(std::fabs(real) < kLimit))
    return std::nullopt;
  return static_cast<std::int64_t>(std::trunc(real));
}

struct Token {
  enum Kind { Number, Name, Punct } kind;
  std::string text;
};

std::vector<Token> tokensOf(std::string_view text) {
  std::vector<Token> tokens;
  for (std::size_t at = 0; at < text.size();) {
    const char c = text[at];
    std::size_t end = at + 1;
    if (isSpace(c)) {
      ++at;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && at + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[at + 1])))) {
      while (end < text.size() && (isIdentifierChar(text[end]) || text[end] == '.' ||
                                   ((text[end] == '+' || text[end] == '-') && (text[end - 1] == 'e' || text[end - 1] == 'E'))))
        ++end;
      tokens.push_back({Token::Number, std::string(text.substr(at, end - at))});
    } else if (isIdentifierChar(c)) {
      while (end < text.size() && (isIdentifierChar(text[end]) || text.substr(end, 2) == "::"))
        end += text.substr(end, 2) == "::" ? 2 : 1;
      tokens.push_back({Token::Name, std::string(text.substr(at, end - at))});
    } else {
      static constexpr std::string_view kPairs[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
      if (std::find(std::begin(kPairs), std::end(kPairs), text.substr(at, 2)) != std::end(kPairs))
        end = at + 2;
      tokens.push_back({Token::Punct, std::string(text.substr(at, end - at))});
    }
    at = end;
  }
  return tokens;
}

} // namespace

/// The folding itself: the files, an index of their macros, and the lookups.
class ConstantFolder::Impl {
public:
  explicit Impl(const std::vector<CudaSourceFile> &files) {
    for (const CudaSourceFile &file : files) {
      files_.emplace_back(file);
      indexMacros(files_.size() - 1);
    }
  }

  const std::vector<CudaCode> &files() const { return files_; }

  std::optional<Dim3> dimension(std::size_t file, std::size_t offset, const std::string &text, int depth = 0) const;
  std::optional<Number> number(std::size_t file, std::size_t offset, const std::string &text, int depth = 0) const;

private:
  class Parser;

  Lookup macro(const std::string &name, Definition &found) const;
  Lookup functionMacro(const std::string &name, FunctionMacro &found) const;
  Lookup variable(std::size_t file, std::size_t before, const std::string &name, bool fileScopeOnly,
                  Definition &found) const;
  Lookup define(std::size_t file, std::size_t offset, const std::string &name, Definition &found) const;

  void indexMacros(std::size_t file);

  std::vector<CudaCode> files_;
  /// Occurrences of names looked at so far, against kMaxNamesExamined.
  mutable std::size_t examined_ = 0;
  /// Every object-like `#define`, by name, in file order.
  std::map<std::string, std::vector<Definition>, std::less<>> macros_;
  /// Every function-like `#define`, by name, in file order.
  std::map<std::string, std::vector<FunctionMacro>, std::less<>> functionMacros_;
};

/// A recursive-descent reading of one constant expression.
class ConstantFolder::Impl::Parser {
public:
  Parser(const Impl &folder, std::size_t file, std::size_t offset, int depth, std::vector<Token> tokens)
      : folder_(folder), file_(file), offset_(offset), depth_(depth), tokens_(std::move(tokens)) {}

  std::optional<Number> whole() {
    auto value = conditional();
    return value && at_ == tokens_.size() ? value : std::nullopt;
  }

private:
  bool accept(std::string_view punct) {
    if (at_ < tokens_.size() && tokens_[at_].kind == Token::Punct && tokens_[at_].text == punct) {
      ++at_;
      return true;
    }
    return false;
  }

  static std::optional<Number> arithmetic(char op, Number a, Number b) {
    Number result;
    if (a.real || b.real) {
      if (op == '%')
        return std::nullopt;
      const double x = a.asReal(), y = b.asReal();
      if (op == '/' && y == 0)
        return std::nullopt;
      result.real = true;
      result.value = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
      return std::isfinite(result.value) ? std::optional<Number>(result) : std::nullopt;
    }
    bool overflow = false;
    switch (op) {
    case '+': overflow = __builtin_add_overflow(a.whole, b.whole, &result.whole); break;
    case '-': overflow = __builtin_sub_overflow(a.whole, b.whole, &result.whole); break;
    case '*': overflow = __builtin_mul_overflow(a.whole, b.whole, &result.whole); break;
    case '/':
    case '%':
      if (b.whole == 0 || (a.whole == INT64_MIN && b.whole == -1))
        return std::nullopt;
      result.whole = op == '/' ? a.whole / b.whole : a.whole % b.whole;
      break;
    case '<':
    case '>':
      if (b.whole < 0 || b.whole > 62 || a.whole < 0)
        return std::nullopt;
      result.whole = op == '<' ? a.whole << b.whole : a.whole >> b.whole;
      overflow = op == '<' && (result.whole >> b.whole) != a.whole;
      break;
    default: return std::nullopt;
    }
    return overflow ? std::nullopt : std::optional<Number>(result);
  }

  /// A comparison or a logical operator: 1 or 0, as C gives them.
  static std::optional<Number> truth(std::string_view op, Number a, Number b) {
    const bool real = a.real || b.real;
    auto less = [&](const Number &x, const Number &y) { return real ? x.asReal() < y.asReal() : x.whole < y.whole; };
    const bool equal = !less(a, b) && !less(b, a);
    bool result = false;
    if (op == "<") result = less(a, b);
    else if (op == ">") result = less(b, a);
    else if (op == "<=") result = !less(b, a);
    else if (op == ">=") result = !less(a, b);
    else if (op == "==") result = equal;
    else if (op == "!=") result = !equal;
    else if (op == "&&") result = a.asReal() != 0 && b.asReal() != 0;
    else if (op == "||") result = a.asReal() != 0 || b.asReal() != 0;
    else return std::nullopt;
    return Number{false, result ? 1 : 0, 0};
  }

  template <typename Next>
  std::optional<Number> leftAssociative(std::initializer_list<std::string_view> ops, Next next) {
    auto value = (this->*next)();
    while (value) {
      std::string_view matched;
      for (std::string_view op : ops)
        if (matched.empty() && accept(op))
          matched = op;
      if (matched.empty())
        return value;
      auto right = (this->*next)();
      const bool arithmeticOperator = matched.size() == 1 ? std::string_view("+-*/%").find(matched[0]) != std::string_view::npos
                                                          : matched == "<<" || matched == ">>";
      if (!right)
        return std::nullopt;
      value = arithmeticOperator ? arithmetic(matched[0], *value, *right) : truth(matched, *value, *right);
    }
    return value;
  }

  /// `c ? a : b`; open unless both sides fold (C needs only the one taken,
  /// but the other's tokens are not skipped reliably once unknown).
  std::optional<Number> conditional() {
    auto condition = logicalOr();
    if (!condition || !accept("?"))
      return condition;
    auto taken = conditional();
    if (!taken || !accept(":"))
      return std::nullopt;
    auto other = conditional();
    if (!other)
      return std::nullopt;
    Number chosen = condition->asReal() != 0 ? *taken : *other;
    if (taken->real || other->real)
      chosen = Number{true, 0, chosen.asReal()}; // C's common type of the two
    return chosen;
  }

  std::optional<Number> logicalOr() { return leftAssociative({"||"}, &Parser::logicalAnd); }
  std::optional<Number> logicalAnd() { return leftAssociative({"&&"}, &Parser::equality); }
  std::optional<Number> equality() { return leftAssociative({"==", "!="}, &Parser::relational); }
  std::optional<Number> relational() { return leftAssociative({"<=", ">=", "<", ">"}, &Parser::shift); }
  std::optional<Number> shift() { return leftAssociative({"<<", ">>"}, &Parser::additive); }
  std::optional<Number> additive() { return leftAssociative({"+", "-"}, &Parser::multiplicative); }
  std::optional<Number> multiplicative() { return leftAssociative({"*", "/", "%"}, &Parser::unary); }

  /// `(unsigned int)` and the like: the type words of a cast, or nullopt
  /// (the index is left where it was).
  std::optional<std::vector<std::string>> cast() {
    const std::size_t start = at_;
    if (!accept("("))
      return std::nullopt;
    std::vector<std::string> words;
    while (at_ < tokens_.size() && tokens_[at_].kind == Token::Name && isTypeWord(tokens_[at_].text))
      words.push_back(tokens_[at_++].text);
    if (words.empty() || !accept(")")) {
      at_ = start;
      return std::nullopt;
    }
    return words;
  }

  static std::optional<Number> converted(Number value, const std::vector<std::string> &type) {
    const bool real = std::count(type.begin(), type.end(), "float") || std::count(type.begin(), type.end(), "double");
    if (real && !value.real)
      return Number{true, 0, static_cast<double>(value.whole)};
    if (!real && value.real) {
      auto whole = truncated(value.value);
      return whole ? std::optional<Number>(Number{false, *whole, 0}) : std::nullopt;
    }
    return value;
  }

  std::optional<Number> unary() {
    if (accept("!")) {
      auto value = unary();
      return value ? std::optional<Number>(Number{false, value->asReal() == 0 ? 1 : 0, 0}) : std::nullopt;
    }
    if (accept("-")) {
      auto value = unary();
      return value ? arithmetic('-', Number{}, *value) : std::nullopt;
    }
    if (accept("+"))
      return unary();
    if (auto type = cast()) {
      auto value = unary();
      return value ? converted(*value, *type) : std::nullopt;
    }
    return primary();
  }

  std::optional<std::vector<Number>> arguments() {
    std::vector<Number> values;
    if (!accept("("))
      return std::nullopt;
    do {
      auto value = conditional();
      if (!value)
        return std::nullopt;
      values.push_back(*value);
    } while (accept(","));
    return accept(")") ? std::optional<std::vector<Number>>(values) : std::nullopt;
  }

  /// `NAME(arguments)` expanded as the preprocessor does: each parameter
  /// replaced by its argument's tokens, the result read where it is used.
  std::optional<Number> expanded(const FunctionMacro &macro) {
    std::vector<std::vector<Token>> arguments(1);
    int depth = 0;
    for (++at_; at_ < tokens_.size(); ++at_) {
      const Token &token = tokens_[at_];
      if (token.kind == Token::Punct && (token.text == "(" || token.text == ")"))
        depth += token.text == "(" ? 1 : -1;
      if (depth < 0)
        break;
      if (depth == 0 && token.kind == Token::Punct && token.text == ",")
        arguments.emplace_back();
      else
        arguments.back().push_back(token);
    }
    if (at_ >= tokens_.size() || depth_ >= kMaxDepth)
      return std::nullopt;
    ++at_; // the closing parenthesis
    if (macro.parameters.empty() && arguments.size() == 1 && arguments[0].empty())
      arguments.clear(); // `NAME()`
    if (arguments.size() != macro.parameters.size())
      return std::nullopt;
    std::vector<Token> tokens;
    for (Token &token : tokensOf(macro.body)) {
      auto parameter = std::find(macro.parameters.begin(), macro.parameters.end(), token.text);
      if (token.kind == Token::Name && parameter != macro.parameters.end()) {
        const std::vector<Token> &argument = arguments[static_cast<std::size_t>(parameter - macro.parameters.begin())];
        tokens.insert(tokens.end(), argument.begin(), argument.end());
      } else {
        tokens.push_back(std::move(token));
      }
    }
    // Macros that expand to many copies of themselves share the lookups' budget.
    folder_.examined_ += tokens.size();
    if (folder_.examined_ > kMaxNamesExamined)
      return std::nullopt;
    return Parser(folder_, file_, offset_, depth_ + 1, std::move(tokens)).whole();
  }

  std::optional<Number> call(std::string name) {
    if (FunctionMacro macro; tokens_[at_].text == "(") {
      const Lookup lookup = folder_.functionMacro(name, macro);
      if (lookup == Lookup::Found)
        return expanded(macro);
      if (lookup == Lookup::Unknown)
        return std::nullopt;
    }
    if (name.rfind("std::", 0) == 0)
      name = name.substr(5);
    if (name == "static_cast") {
      std::vector<std::string> type;
      if (!accept("<"))
        return std::nullopt;
      while (at_ < tokens_.size() && tokens_[at_].kind == Token::Name && isTypeWord(tokens_[at_].text))
        type.push_back(tokens_[at_++].text);
      auto values = accept(">") ? arguments() : std::nullopt;
      return values && values->size() == 1 && !type.empty() ? converted(values->front(), type)
                                                             : std::nullopt;
    }
    auto values = arguments();
    if (!values)
      return std::nullopt;
    if ((name == "ceil" || name == "ceilf" || name == "floor" || name == "floorf") && values->size() == 1) {
      const double x = values->front().asReal();
      return Number{true, 0, name[0] == 'c' ? std::ceil(x) : std::floor(x)};
    }
    if ((name == "min" || name == "max") && values->size() == 2) {
      const Number &a = (*values)[0], &b = (*values)[1];
      const bool firstIsLess = a.asReal() < b.asReal();
      Number result = (name == "min") == firstIsLess ? a : b;
      if (a.real || b.real)
        result = Number{true, 0, result.asReal()};
      return result;
    }
    return std::nullopt;
  }

  std::optional<Number> primary() {
    if (at_ >= tokens_.size())
      return std::nullopt;
    if (accept("(")) {
      auto value = conditional();
      return accept(")") ? value : std::nullopt;
    }
    const Token token = tokens_[at_++];
    if (token.kind == Token::Number)
      return literal(token.text);
    if (token.kind != Token::Name)
      return std::nullopt;
    const bool cast = token.text == "static_cast";
    if (at_ < tokens_.size() && (tokens_[at_].text == "(" || (cast && tokens_[at_].text == "<")))
      return call(token.text); // `n < 4` is a comparison, `static_cast<int>(x)` a call
    if (accept(".")) {
      if (at_ >= tokens_.size())
        return std::nullopt;
      const std::string component = tokens_[at_++].text;
      auto dims = folder_.dimension(file_, offset_, token.text, depth_ + 1);
      if (!dims || (component != "x" && component != "y" && component != "z"))
        return std::nullopt;
      return Number{false, component == "x" ? dims->x : component == "y" ? dims->y : dims->z, 0};
    }
    return folder_.number(file_, offset_, token.text, depth_ + 1);
  }

  static std::optional<Number> literal(const std::string &text) {
    const bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
    if (!hex && text.find_first_of(".eE") != std::string::npos) {
      char *end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      return std::string_view(end).find_first_not_of("fFlL") == std::string_view::npos
                 ? std::optional<Number>(Number{true, 0, value})
                 : std::nullopt;
    }
    errno = 0;
    char *end = nullptr;
    const unsigned long long value = std::strtoull(text.c_str(), &end, hex ? 16 : 10);
    if (errno != 0 || value > static_cast<unsigned long long>(INT64_MAX) ||
        std::string_view(end).find_first_not_of("uUlL") != std::string_view::npos)
      return std::nullopt;
    return Number{false, static_cast<std::int64_t>(value), 0};
  }

  const Impl &folder_;
  std::size_t file_, offset_;
  int depth_;
  std::vector<Token> tokens_;
  std::size_t at_ = 0;
};


void ConstantFolder::Impl::indexMacros(std::size_t file) {
  const std::string &code = files_[file].code();
  for (std::size_t at = code.find('#'); at != std::string::npos; at = code.find('#', at + 1)) {
    const std::size_t directive = code.find_first_not_of(" \t", at + 1);
    if (directive == std::string::npos || code.compare(directive, 6, "define") != 0)
      continue;
    const std::size_t nameAt = code.find_first_not_of(" \t", directive + 6);
    std::size_t after = nameAt;
    while (after < code.size() && isIdentifierChar(code[after]))
      ++after;
    if (after == nameAt)
      continue;
    std::size_t end = code.find('\n', after);
    while (end != std::string::npos && end > 0 && code[end - 1] == '\\')
      end = code.find('\n', end + 1);
    std::string text = code.substr(after, end == std::string::npos ? std::string::npos : end - after);
    std::replace(text.begin(), text.end(), '\\', ' ');
    std::string name = code.substr(nameAt, after - nameAt);
    if (text.empty() || text[0] != '(') {
      macros_[name].push_back({text, file, after, false});
      continue;
    }
    // `NAME(a, b) body`: the parentheses follow the name at once.
    const std::size_t close = text.find(')');
    if (close == std::string::npos)
      continue;
    FunctionMacro macro{{}, text.substr(close + 1)};
    for (const Token &token : tokensOf(std::string_view(text).substr(1, close - 1)))
      if (token.kind == Token::Name)
        macro.parameters.push_back(token.text);
      else if (token.text != ",")
        macro.parameters.push_back("..."); // variadic or malformed: never expanded
    functionMacros_[name].push_back(std::move(macro));
  }
}

Lookup ConstantFolder::Impl::macro(const std::string &name, Definition &found) const {
  auto definitions = macros_.find(name);
  if (definitions == macros_.end())
    return Lookup::Absent;
  auto spelled = [](const Definition &definition) {
    std::vector<std::string> texts;
    for (const Token &token : tokensOf(definition.text))
      texts.push_back(token.text);
    return texts;
  };
  for (const Definition &definition : definitions->second)
    if (spelled(definition) != spelled(definitions->second.front()))
      return Lookup::Unknown; // defined differently under different #if branches
  found = definitions->second.front();
  return Lookup::Found;
}

Lookup ConstantFolder::Impl::functionMacro(const std::string &name, FunctionMacro &found) const {
  auto definitions = functionMacros_.find(name);
  if (definitions == functionMacros_.end())
    return Lookup::Absent;
  auto spelled = [](const FunctionMacro &macro) {
    std::vector<std::string> texts = macro.parameters;
    for (const Token &token : tokensOf(macro.body))
      texts.push_back(token.text);
    return texts;
  };
  for (const FunctionMacro &macro : definitions->second)
    if (spelled(macro) != spelled(definitions->second.front()))
      return Lookup::Unknown;
  found = definitions->second.front();
  const bool plain = std::none_of(found.parameters.begin(), found.parameters.end(),
                                  [](const std::string &parameter) { return parameter == "..."; });
  return plain && found.body.find('#') == std::string::npos ? Lookup::Found : Lookup::Unknown; // no # or ##
}

Lookup ConstantFolder::Impl::variable(std::size_t file, std::size_t before, const std::string &name, bool fileScopeOnly,
                        Definition &found) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  const int useBlock = source.blockAt(before);
  for (std::size_t at = code.rfind(name, before); at != std::string::npos && at < before;
       at = at == 0 ? std::string::npos : code.rfind(name, at - 1)) {
    if (++examined_ > kMaxNamesExamined)
      return Lookup::Unknown; // thousands of launches through one far-away name: give up, not hang
    const std::size_t end = at + name.size();
    if ((at > 0 && isIdentifierChar(code[at - 1])) || (end < code.size() && isIdentifierChar(code[end])))
      continue;
    std::size_t previous = at;
    while (previous > 0 && isSpace(code[previous - 1]))
      --previous;
    if (previous > 0 && (code[previous - 1] == '.' || (code[previous - 1] == '>' && previous > 1 && code[previous - 2] == '-') ||
                         code[previous - 1] == ':'))
      continue; // a member or a qualified name, not this variable
    std::size_t next = end;
    while (next < code.size() && isSpace(code[next]))
      ++next;
    std::size_t typeStart = at;
    while (typeStart > 0 && (isIdentifierChar(code[typeStart - 1]) || isSpace(code[typeStart - 1]) || code[typeStart - 1] == ':')) {
      if (code[typeStart - 1] == '\n' && preprocessorLineEndsAt(code, typeStart - 1))
        break; // a `#define` line above ends without a `;`
      --typeStart;
    }
    const std::vector<std::string> type = wordsIn(std::string_view(code).substr(typeStart, at - typeStart));
    const bool declares = !type.empty() && std::all_of(type.begin(), type.end(), isTypeWord);
    if (!declares) {
      std::size_t operatorAt = next;
      if (operatorAt < code.size() && code[operatorAt] == '.') { // `threads.x = 64`
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
      if (!fileScopeOnly && (assigned || taken))
        return Lookup::Unknown; // changed before the launch: its value is not the initialiser's
      continue;
    }
    const int declaredIn = source.blockAt(at);
    if (!source.encloses(declaredIn, useBlock))
      continue; // another function's, or a closed block's
    const bool constant = std::count(type.begin(), type.end(), "const") || std::count(type.begin(), type.end(), "constexpr");
    const bool local = source.insideFunction(declaredIn);
    if ((fileScopeOnly && local) || (!local && !constant))
      return Lookup::Unknown; // a parameter, or a global the program may change
    found = {"", file, at, std::count(type.begin(), type.end(), "dim3") > 0};
    if (next < code.size() && code[next] == '=' && code.compare(next, 2, "==") != 0) {
      std::string rest = code.substr(next + 1, code.find(';', next) - next - 1);
      found.text = topLevelParts(rest).front();
    } else if (next < code.size() && (code[next] == '(' || code[next] == '{')) {
      const std::size_t close = pastClosing(code, next);
      if (close == std::string::npos)
        return Lookup::Unknown;
      const std::string inside = code.substr(next + 1, close - next - 2);
      found.text = found.dim3 ? "dim3(" + inside + ")" : inside;
    } else {
      return Lookup::Unknown; // declared without a value
    }
    return Lookup::Found;
  }
  return Lookup::Absent;
}

Lookup ConstantFolder::Impl::define(std::size_t file, std::size_t offset, const std::string &name, Definition &found) const {
  if (Lookup lookup = macro(name, found); lookup != Lookup::Absent)
    return lookup;
  if (Lookup lookup = variable(file, offset, name, false, found); lookup != Lookup::Absent)
    return lookup;
  for (std::size_t other = 0; other < files_.size(); ++other)
    if (other != file)
      if (Lookup lookup = variable(other, files_[other].code().size(), name, true, found); lookup != Lookup::Absent)
        return lookup;
  return Lookup::Absent;
}

std::optional<Number> ConstantFolder::Impl::number(std::size_t file, std::size_t offset, const std::string &text,
                                             int depth) const {
  if (depth > kMaxDepth)
    return std::nullopt;
  std::vector<Token> tokens = tokensOf(text);
  if (tokens.size() == 1 && tokens[0].kind == Token::Name) {
    Definition definition;
    if (define(file, offset, tokens[0].text, definition) != Lookup::Found || definition.dim3)
      return std::nullopt;
    return number(definition.file, definition.offset, definition.text, depth + 1);
  }
  return Parser(*this, file, offset, depth, std::move(tokens)).whole();
}

std::optional<Dim3> ConstantFolder::Impl::dimension(std::size_t file, std::size_t offset, const std::string &text, int depth) const {
  if (depth > kMaxDepth)
    return std::nullopt;
  const std::vector<Token> tokens = tokensOf(text);
  if (tokens.size() == 1 && tokens[0].kind == Token::Name) {
    Definition definition;
    if (define(file, offset, tokens[0].text, definition) != Lookup::Found)
      return std::nullopt;
    return dimension(definition.file, definition.offset, definition.text, depth + 1);
  }
  std::vector<std::string> parts{text};
  std::string_view trimmed = text;
  trimmed.remove_prefix(std::min(trimmed.size(), trimmed.find_first_not_of(" \t\r\n")));
  if (!tokens.empty() && tokens[0].text == "dim3" && tokens.size() > 2) {
    const std::size_t open = trimmed.find_first_of("({");
    const std::size_t close = trimmed.find_last_of(")}");
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
      return std::nullopt;
    parts = topLevelParts(trimmed.substr(open + 1, close - open - 1));
    if (parts.size() > 3)
      return std::nullopt;
  }
  std::uint32_t values[3] = {1, 1, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    auto value = number(file, offset, parts[i], depth + 1);
    const std::optional<std::int64_t> whole = !value ? std::nullopt : value->real ? truncated(value->value) : value->whole;
    if (!whole || *whole < 1 || *whole > INT32_MAX)
      return std::nullopt;
    values[i] = static_cast<std::uint32_t>(*whole);
  }
  return Dim3{values[0], values[1], values[2]};
}

ConstantFolder::ConstantFolder(const std::vector<CudaSourceFile> &files) : impl_(std::make_unique<Impl>(files)) {}

ConstantFolder::~ConstantFolder() = default;

const std::vector<CudaCode> &ConstantFolder::files() const { return impl_->files(); }

std::optional<Dim3> ConstantFolder::dimension(std::size_t file, std::size_t offset, const std::string &expression) const {
  if (file >= impl_->files().size())
    return std::nullopt;
  return impl_->dimension(file, offset, expression);
}

std::optional<ptx::analysis::AssumedValue> ConstantFolder::value(std::size_t file, std::size_t offset,
                                                                 const std::string &expression) const {
  if (file >= impl_->files().size())
    return std::nullopt;
  auto folded = impl_->number(file, offset, expression, 0);
  if (!folded)
    return std::nullopt;
  return folded->real ? ptx::analysis::AssumedValue::real(folded->value) : ptx::analysis::AssumedValue(folded->whole);
}

} // namespace ptxdvfs::tools
