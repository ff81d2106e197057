// CudaExpression.cpp - the recursive-descent reader of one constant
// expression (its tokens and conversions: CudaExpressionTokens.cpp).
#include "CudaExpression.h"

#include "CudaCode.h"
#include "CudaCommandLine.h"
#include "CudaSource.h"
#include "CudaStructLayout.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <set>

namespace ptxdvfs::tools::expression {

namespace {

/// A recursive-descent reading of one constant expression.
class Parser {
public:
  Parser(const ExpressionNames &names, int depth, std::vector<Token> tokens)
      : names_(names), depth_(depth), tokens_(std::move(tokens)) {}

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
      if (op == '%' || op == '&' || op == '|' || op == '^')
        return std::nullopt; // of whole numbers only
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
    case '&':
      result.whole = a.whole & b.whole;
      break;
    case '|':
      result.whole = a.whole | b.whole;
      break;
    case '^':
      result.whole = a.whole ^ b.whole;
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
      const bool decided = value->asReal() != 0 ? matched == "||" : matched == "&&";
      const std::size_t rightStart = at_;
      auto right = unevaluated(decided, next);
      if (decided && !right) { // C does not evaluate it: `argc > 1 && atoi(argv[1]) > 0`
        at_ = rightStart;
        skipOperand({"&&", "||", "?", ":", ","});
        value = Number{false, matched == "||" ? 1 : 0, 0};
        continue;
      }
      const bool arithmeticOperator = matched.size() == 1
                                          ? std::string_view("+-*/%&|^").find(matched[0]) != std::string_view::npos
                                          : matched == "<<" || matched == ">>";
      if (!right)
        return std::nullopt;
      value = arithmeticOperator ? arithmetic(matched[0], *value, *right) : truth(matched, *value, *right);
    }
    return value;
  }

  /// Moves past the operand that starts here, which C does not evaluate:
  /// up to one of `stops` outside brackets and nested `?:`, or the bracket
  /// that closes around it.
  void skipOperand(std::initializer_list<std::string_view> stops) {
    int depth = 0, pending = 0; // brackets open; `?`s waiting for their `:`
    for (; at_ < tokens_.size(); ++at_) {
      const std::string &text = tokens_[at_].text;
      if (tokens_[at_].kind != Token::Punct)
        continue;
      if (text == "(" || text == "[" || text == "{")
        ++depth;
      else if (text == ")" || text == "]" || text == "}") {
        if (depth-- == 0)
          return;
      } else if (depth > 0)
        continue;
      else if (text == ":" && pending > 0)
        --pending;
      else if (std::find(stops.begin(), stops.end(), text) != stops.end())
        return;
      else if (text == "?")
        ++pending;
    }
  }

  /// `c ? a : b`: the side taken, where it folds (the other, which C does
  /// not evaluate, may not: `argc > 1 ? atoi(argv[1]) : 64`), in C's
  /// common type of the two where both fold.
  std::optional<Number> conditional() {
    auto condition = logicalOr();
    if (!condition || !accept("?"))
      return condition;
    const bool first = condition->asReal() != 0;
    const std::size_t takenStart = at_;
    auto taken = unevaluated(!first, &Parser::conditional);
    if (!taken && !first) {
      at_ = takenStart;
      skipOperand({":"});
    }
    if ((first && !taken) || !accept(":"))
      return std::nullopt;
    const std::size_t otherStart = at_;
    auto other = unevaluated(first, &Parser::conditional);
    if (!other && first) {
      at_ = otherStart;
      skipOperand({",", ":"});
    }
    if (!first && !other)
      return std::nullopt;
    Number chosen = first ? *taken : *other;
    if ((taken && taken->real) || (other && other->real))
      chosen = Number{true, 0, chosen.asReal()}; // C's common type of the two
    return chosen;
  }

  /// `next()`, its reads noted nowhere where C does not evaluate it (`skipped`): parsed, for its type.
  template <typename Next> std::optional<Number> unevaluated(bool skipped, Next next) {
    if (skipped)
      names_.quiet(true);
    auto value = (this->*next)();
    if (skipped)
      names_.quiet(false);
    return value;
  }

  std::optional<Number> logicalOr() { return leftAssociative({"||"}, &Parser::logicalAnd); }
  std::optional<Number> logicalAnd() { return leftAssociative({"&&"}, &Parser::bitwiseOr); }
  std::optional<Number> bitwiseOr() { return leftAssociative({"|"}, &Parser::bitwiseXor); }
  std::optional<Number> bitwiseXor() { return leftAssociative({"^"}, &Parser::bitwiseAnd); }
  std::optional<Number> bitwiseAnd() { return leftAssociative({"&"}, &Parser::equality); }
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
    if (accept("~")) { // of a 64-bit signed number: `(n + 255) & ~255` rounds up as C's does
      auto value = unary();
      return value && !value->real ? std::optional<Number>(Number{false, ~value->whole, 0}) : std::nullopt;
    }
    if (accept("*")) { // `*threads`, what a pointer parameter points at
      if (at_ >= tokens_.size() || tokens_[at_].kind != Token::Name)
        return std::nullopt;
      return names_.pointee(tokens_[at_++].text, depth_ + 1);
    }
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
    if (accept(")"))
      return values; // `elements()`
    do {
      auto value = conditional();
      if (!value)
        return std::nullopt;
      values.push_back(*value);
    } while (accept(","));
    return accept(")") ? std::optional<std::vector<Number>>(values) : std::nullopt;
  }

  /// The tokens of each argument of the call whose `(` is at `at_`, split
  /// at its top-level commas (`NAME()` has one, empty), read past its `)`;
  /// nullopt where it is not closed.
  std::optional<std::vector<std::vector<Token>>> argumentTokens() {
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
    if (at_ >= tokens_.size())
      return std::nullopt;
    ++at_; // the closing parenthesis
    return arguments;
  }

  /// `NAME(arguments)` expanded as the preprocessor does: each parameter
  /// replaced by its argument's tokens, the result read where it is used.
  std::optional<Number> expanded(const FunctionMacro &macro) {
    std::optional<std::vector<std::vector<Token>>> written = argumentTokens();
    if (!written || depth_ >= kMaxDepth)
      return std::nullopt;
    std::vector<std::vector<Token>> &arguments = *written;
    if (macro.parameters.empty() && arguments.size() == 1 && arguments[0].empty())
      arguments.clear(); // `NAME()`
    if (arguments.size() != macro.parameters.size())
      return std::nullopt;
    std::vector<Token> tokens;
    for (const Token &token : macro.body) {
      auto parameter = std::find(macro.parameters.begin(), macro.parameters.end(), token.text);
      if (token.kind == Token::Name && parameter != macro.parameters.end()) {
        const std::vector<Token> &argument = arguments[static_cast<std::size_t>(parameter - macro.parameters.begin())];
        tokens.insert(tokens.end(), argument.begin(), argument.end());
      } else {
        tokens.push_back(token);
      }
    }
    // Macros that expand to many copies of themselves share the lookups' budget.
    if (!names_.spend(tokens.size()))
      return std::nullopt;
    return Parser(names_, depth_ + 1, std::move(tokens)).whole();
  }

  /// The tokens up to the `]` that closes the `[` just read (not taken).
  std::vector<Token> bracketed() {
    std::vector<Token> inside;
    for (int nested = 0; at_ < tokens_.size(); inside.push_back(tokens_[at_++])) {
      const std::string &text = tokens_[at_].text;
      if (text == "]" && nested-- == 0)
        break;
      nested += text == "[";
    }
    return inside;
  }

  static bool isSelector(const std::string &text) { return text == "[" || text == "(" || text == "." || text == "->"; }

  std::optional<Number> call(std::string name) {
    if (FunctionMacro macro; tokens_[at_].text == "(") {
      const Lookup lookup = names_.functionMacro(name, macro);
      if (lookup == Lookup::Found)
        return expanded(macro);
      if (lookup == Lookup::Unknown)
        return std::nullopt;
    }
    if (name.rfind("std::", 0) == 0)
      name = name.substr(5);
    if (name == "sizeof") { // of a type the host's layout fixes: `sizeof(float)`, `sizeof(float4)`
      std::string type;
      std::vector<Token> inside;
      for (int depth = 0; ++at_ < tokens_.size();) {
        const std::string &text = tokens_[at_].text;
        depth += text == "(" ? 1 : text == ")" ? -1 : 0;
        if (depth < 0)
          break;
        type += text + " ";
        inside.push_back(tokens_[at_]);
      }
      std::optional<std::int64_t> size = accept(")") ? builtinTypeSize(type) : std::nullopt;
      if (inside.size() > 2 && inside[0].text == "(" && inside[2].text == ")")
        inside.erase(inside.begin() + 2), inside.erase(inside.begin()); // `(a)[0]` of a macro's `(x)[0]`
      if (!size && !inside.empty() && inside[0].kind == Token::Name && !isTypeWord(inside[0].text) &&
          (inside.size() == 1 || (inside[1].text == "[" && inside.back().text == "]"))) {
        // An array's, or one element's: `sizeof(sizes) / sizeof(sizes[0])` counts its elements.
        if (const auto shape = names_.arrayShape(inside[0].text, depth_ + 1))
          size = inside.size() == 1 ? shape->first * shape->second : shape->second;
      }
      return size ? std::optional<Number>(Number{false, *size, 0}) : std::nullopt;
    }
    const bool minOrMax = name == "min" || name == "max";
    std::vector<std::string> type; // `static_cast<int>`'s, or `std::min<std::size_t>`'s, which both arguments take
    if (name == "static_cast" || (minOrMax && at_ < tokens_.size() && tokens_[at_].text == "<")) {
      if (!accept("<"))
        return std::nullopt;
      while (at_ < tokens_.size() && tokens_[at_].kind == Token::Name && isTypeWord(tokens_[at_].text))
        type.push_back(tokens_[at_++].text);
      if (type.empty() || !accept(">"))
        return std::nullopt;
    }
    if (name == "static_cast") {
      auto values = arguments();
      return values && values->size() == 1 ? converted(values->front(), type) : std::nullopt;
    }
    if (convertsArgument(name)) { // `atoi(argv[1])`: the command line's
      const std::optional<std::vector<std::vector<Token>>> written = argumentTokens();
      return written ? convertedCommandLine(names_, name, *written, depth_ + 1) : std::nullopt;
    }
    const std::size_t open = at_;
    auto values = arguments();
    if (!values) { // `parse(argc, argv)`: a body of several statements reads its parameters at its calls
      at_ = open;
      const bool closed = !castsFunctionally(name) && type.empty() && argumentTokens();
      return closed && depth_ < kMaxDepth ? names_.function(name, std::nullopt, depth_ + 1) : std::nullopt;
    }
    if (castsFunctionally(name) && values->size() == 1) // `size_t(n)`, `float(n)`
      return converted(values->front(), {name});
    for (Number &value : *values) {
      const std::optional<Number> typed = type.empty() ? value : converted(value, type);
      if (!typed)
        return std::nullopt;
      value = *typed;
    }
    if (const std::optional<Number> computed = libraryFunction(name, *values))
      return computed;
    return depth_ < kMaxDepth ? names_.function(name, *values, depth_ + 1) : std::nullopt;
  }

  /// Whether `name` (without `std::`) is a type that converts a value written after it, `int(x)` or `int{x}`.
  static bool castsFunctionally(const std::string &name) {
    static const std::set<std::string, std::less<>> kTypes{"int",      "long",    "short",    "char",   "unsigned",
                                                           "signed",   "size_t",  "float",    "double", "uint",
                                                           "uint32_t", "int32_t", "uint64_t", "int64_t"};
    return kTypes.count(name) > 0;
  }

  /// Whether the name just read is a call given its type (`static_cast<int>(x)`, `std::min<long>(a, b)`), not
  /// compared (`min < 4`).
  bool explicitlyTyped(const std::string &name) const {
    if (name == "static_cast")
      return at_ < tokens_.size() && tokens_[at_].text == "<";
    if (name != "min" && name != "max" && name != "std::min" && name != "std::max")
      return false;
    std::size_t at = at_;
    if (at >= tokens_.size() || tokens_[at].text != "<")
      return false;
    while (++at < tokens_.size() && tokens_[at].kind == Token::Name && isTypeWord(tokens_[at].text)) {
    }
    return at > at_ + 1 && at + 1 < tokens_.size() && tokens_[at].text == ">" && tokens_[at + 1].text == "(";
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
    const std::string_view next = at_ < tokens_.size() ? std::string_view(tokens_[at_].text) : std::string_view();
    if (next == "{") { // `std::size_t{1}`; another name's `{`, as before, is no number
      const std::string unqualified = token.text.rfind("std::", 0) == 0 ? token.text.substr(5) : token.text;
      if (castsFunctionally(unqualified) && accept("{")) {
        const std::optional<Number> value = conditional();
        return value && accept("}") ? converted(*value, {unqualified}) : std::nullopt;
      }
    }
    if (next == "(" || (next == "<" && explicitlyTyped(token.text)))
      return call(token.text); // `n < 4` is a comparison, `static_cast<int>(x)` and `std::min<int>(a, b)` calls
    const bool self = token.text == "this" && at_ < tokens_.size() && tokens_[at_].text == "->";
    if (at_ < tokens_.size() && (tokens_[at_].text == "." || self)) {
      std::string path = token.text; // `this->n_` reads as the path `this.n_`
      while (accept(".") || (path == "this" && accept("->"))) {
        if (at_ >= tokens_.size() || tokens_[at_].kind != Token::Name)
          return std::nullopt;
        path += "." + tokens_[at_++].text;
      }
      // A container's size, `v.size()`, or what a method returns, `g.cells()`.
      if (const std::size_t dot = path.rfind('.'); at_ < tokens_.size() && tokens_[at_].text == "(") {
        const std::string object = path.substr(0, dot), method = path.substr(dot + 1);
        if (method == "size" && object.find('.') == std::string::npos && accept("(") && accept(")"))
          return names_.containerSize(object, depth_ + 1);
        const bool none = at_ + 1 < tokens_.size() && tokens_[at_ + 1].text == ")";
        const std::optional<std::vector<Number>> values = none ? (at_ += 2, std::vector<Number>()) : arguments();
        return values ? names_.method(object, method, *values, depth_ + 1) : std::nullopt;
      }
      // An element of an array member at a literal index, `prop.maxGridSize[0]`.
      if (at_ + 2 < tokens_.size() && tokens_[at_].text == "[" && tokens_[at_ + 1].kind == Token::Number &&
          tokens_[at_ + 2].text == "]") {
        path += "[" + tokens_[at_ + 1].text + "]";
        at_ += 3;
      }
      return names_.member(path, depth_ + 1);
    }
    if (accept("[")) { // an element of an array, `sizes[size - 1]`; one index only
      std::vector<Token> index = bracketed();
      if (index.empty() || !accept("]"))
        return std::nullopt;
      if (accept("[")) { // a character of a command-line argument, `argv[1][1]`
        std::vector<Token> character = bracketed();
        if (character.empty() || !accept("]") || (at_ < tokens_.size() && isSelector(tokens_[at_].text)))
          return std::nullopt;
        return commandLineCharacter(names_, token.text, std::move(index), std::move(character), depth_ + 1);
      }
      std::string fields; // a member of a struct element, `cases[i].n`
      while (accept(".")) {
        if (at_ >= tokens_.size() || tokens_[at_].kind != Token::Name)
          return std::nullopt;
        fields += (fields.empty() ? "" : ".") + tokens_[at_++].text;
      }
      if (at_ < tokens_.size() && (tokens_[at_].text == "(" || tokens_[at_].text == "["))
        return std::nullopt; // a method called on it, or an array member's element
      return names_.element(token.text, std::move(index), fields, depth_ + 1);
    }
    if (token.text == "true" || token.text == "false") // C++'s, and C's from <stdbool.h>
      return Number{false, token.text == "true" ? 1 : 0, 0};
    return names_.number(token.text, depth_ + 1);
  }

  static std::optional<Number> literal(std::string text) {
    text.erase(std::remove(text.begin(), text.end(), '\''), text.end()); // C++14's separators: 1'000'000
    const bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
    const bool binary = text.rfind("0b", 0) == 0 || text.rfind("0B", 0) == 0;
    if (!hex && !binary && text.find_first_of(".eE") != std::string::npos) {
      char *end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      return std::string_view(end).find_first_not_of("fFlL") == std::string_view::npos
                 ? std::optional<Number>(Number{true, 0, value})
                 : std::nullopt;
    }
    errno = 0;
    char *end = nullptr;
    // C's octal is a 0 followed by digits: 010 is 8.
    const int base = hex ? 16 : binary ? 2 : text.size() > 1 && text[0] == '0' ? 8 : 10;
    const unsigned long long value = std::strtoull(text.c_str() + (binary ? 2 : 0), &end, base);
    if (errno != 0 || value > static_cast<unsigned long long>(INT64_MAX) ||
        std::string_view(end).find_first_not_of("uUlL") != std::string_view::npos)
      return std::nullopt;
    return Number{false, static_cast<std::int64_t>(value), 0};
  }

  const ExpressionNames &names_;
  int depth_;
  std::vector<Token> tokens_;
  std::size_t at_ = 0;
};

} // namespace

std::optional<Number> fold(const ExpressionNames &names, std::vector<Token> tokens, int depth) {
  return Parser(names, depth, std::move(tokens)).whole();
}

} // namespace ptxdvfs::tools::expression
