// CudaPreprocessor.cpp - the conditional lines of a CUDA file, read as a
// build without -D flags reads them.
#include "CudaPreprocessor.h"

#include "CudaExpression.h"
#include "CudaSource.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string_view>

namespace ptxdvfs::tools {

using namespace expression;

namespace {

/// A directive line: `#if N > 2` is `if` and ` N > 2`.
struct Directive {
  std::string_view word, rest;
};

std::optional<Directive> directiveOf(std::string_view line) {
  const std::size_t hash = line.find_first_not_of(" \t");
  if (hash == std::string_view::npos || line[hash] != '#')
    return std::nullopt;
  const std::size_t word = std::min(line.find_first_not_of(" \t", hash + 1), line.size());
  std::size_t wordEnd = word;
  while (wordEnd < line.size() && std::isalpha(static_cast<unsigned char>(line[wordEnd])))
    ++wordEnd;
  return Directive{line.substr(word, wordEnd - word), line.substr(wordEnd)};
}

bool opensBranch(std::string_view word) { return word == "if" || word == "ifdef" || word == "ifndef"; }

/// The value of a condition that is a number written out alone (`0`, `1`); nullopt for any other.
std::optional<bool> literalValue(std::string_view condition) {
  const std::string number = trimmed(condition);
  if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return number.find_first_not_of('0') != std::string::npos;
}

/// Defined in nvcc's host pass on Linux, whatever the flags.
bool predefined(std::string_view name) {
  static const std::set<std::string, std::less<>> kNames{
      "__CUDACC__", "__NVCC__",  "__cplusplus", "__linux__", "__linux",  "__unix__",
      "__unix",     "__GNUC__",  "__x86_64__",  "__STDC__",  "__CUDACC_VER_MAJOR__"};
  return kNames.count(name) > 0;
}

/// A name the compiler, the C and C++ libraries or CUDA's headers may
/// define: not known to be undefined where no file read defines it.
bool headersMayDefine(std::string_view name) {
  static constexpr std::string_view kPrefixes[] = {
      "_",      "CU",    "THRUST_", "NV",   "M_",      "INT",  "UINT",  "LONG",     "ULONG",        "LLONG",
      "SHRT",   "USHRT", "CHAR",    "SCHAR", "UCHAR",  "FLT",  "DBL",   "LDBL",     "RAND_MAX",     "EXIT_",
      "SIZE_",  "PTRDIFF", "WCHAR", "EOF",  "BUFSIZ",  "FILENAME_MAX", "PATH_MAX", "NULL", "CLOCKS_PER_SEC",
      "HUGE_VAL", "INFINITY", "NAN", "MPI", "OMPI",   "GL",   "STD"};
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](std::string_view prefix) { return name.substr(0, prefix.size()) == prefix; });
}

/// The macros of one file as its lines are read, and its conditions.
class MacroReader : public ExpressionNames {
public:
  explicit MacroReader(const std::set<std::string, std::less<>> &elsewhere) : elsewhere_(elsewhere) {}

  /// Whether `name` is defined here; nullopt where that is not known.
  std::optional<bool> defined(std::string_view name) const {
    if (auto macro = macros_.find(name); macro != macros_.end())
      return macro->second.known ? std::optional<bool>(macro->second.defined) : std::nullopt;
    if (elsewhere_.count(name))
      return std::nullopt;
    if (predefined(name))
      return true;
    if (name == "__CUDA_ARCH__")
      return false; // the host pass, which launches kernels
    return headersMayDefine(name) ? std::nullopt : std::optional<bool>(false);
  }

  /// A `#if` or `#elif` condition; nullopt where it does not fold.
  std::optional<bool> holds(std::string_view condition) const {
    std::vector<Token> tokens = tokensOf(condition), read;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i].kind != Token::Name || tokens[i].text != "defined") {
        read.push_back(tokens[i]);
        continue;
      }
      const bool parenthesized = i + 1 < tokens.size() && tokens[i + 1].text == "(";
      const std::size_t nameAt = i + (parenthesized ? 2 : 1);
      if (nameAt >= tokens.size() || tokens[nameAt].kind != Token::Name ||
          (parenthesized && (nameAt + 1 >= tokens.size() || tokens[nameAt + 1].text != ")")))
        return std::nullopt;
      const std::optional<bool> isDefined = defined(tokens[nameAt].text);
      if (!isDefined)
        return std::nullopt;
      read.push_back({Token::Number, *isDefined ? "1" : "0"});
      i = nameAt + (parenthesized ? 1 : 0);
    }
    const std::optional<Number> value = fold(*this, std::move(read), 0);
    return value ? std::optional<bool>(value->asReal() != 0) : std::nullopt;
  }

  /// `#define name text` (`known`: not under a condition left undecided).
  void define(const std::string &name, std::string text, bool functionLike, bool known) {
    macros_[name] = {known, true, functionLike, std::move(text)};
  }
  void undefine(const std::string &name, bool known) { macros_[name] = {known, false, false, {}}; }

  std::optional<Number> number(const std::string &name, int depth) const override {
    if (name == "true" || name == "false")
      return Number{false, name == "true", 0};
    const auto macro = macros_.find(name);
    if (macro == macros_.end() || !macro->second.known || !macro->second.defined)
      return defined(name) == false ? std::optional<Number>(Number{}) : std::nullopt; // undefined reads as 0
    constexpr int kDeepest = 8;
    if (macro->second.functionLike || depth >= kDeepest)
      return std::nullopt;
    std::vector<Token> tokens = tokensOf(macro->second.text);
    return tokens.empty() || !spend(tokens.size()) ? std::nullopt : fold(*this, std::move(tokens), depth + 1);
  }
  std::optional<ptx::analysis::Dim3> dimension(const std::string &, int) const override { return std::nullopt; }
  Lookup functionMacro(const std::string &, FunctionMacro &) const override { return Lookup::Unknown; }
  std::optional<Number> function(const std::string &, const std::vector<Number> &, int) const override {
    return std::nullopt;
  }
  bool spend(std::size_t tokens) const override {
    constexpr std::size_t kMostTokens = 1'000'000; // a file's conditions together
    spent_ += tokens;
    return spent_ <= kMostTokens;
  }

private:
  struct Macro {
    bool known = true, defined = true, functionLike = false;
    std::string text;
  };
  const std::set<std::string, std::less<>> &elsewhere_;
  std::map<std::string, Macro, std::less<>> macros_;
  mutable std::size_t spent_ = 0;
};

/// For each `#if`/`#ifdef`/`#ifndef` line (by its offset), whether every
/// condition of its chain, to its `#endif`, is a number written out.
std::map<std::size_t, bool> literalChains(const std::string &code) {
  std::map<std::size_t, bool> chains;
  std::vector<std::size_t> open;
  for (std::size_t start = 0; start < code.size();) {
    const std::size_t end = std::min(code.find('\n', start), code.size());
    if (const std::optional<Directive> directive = directiveOf(std::string_view(code).substr(start, end - start))) {
      if (opensBranch(directive->word)) {
        open.push_back(start);
        chains[start] = directive->word == "if" && literalValue(directive->rest).has_value();
      } else if (directive->word == "elif" && !open.empty()) {
        chains[open.back()] = chains[open.back()] && literalValue(directive->rest).has_value();
      } else if (directive->word == "endif" && !open.empty()) {
        open.pop_back();
      }
    }
    start = end + 1;
  }
  return chains;
}

} // namespace

std::set<std::string, std::less<>> definedMacroNames(const std::string &code) {
  std::set<std::string, std::less<>> names;
  for (std::size_t start = 0; start < code.size();) {
    const std::size_t end = std::min(code.find('\n', start), code.size());
    if (const std::optional<Directive> directive = directiveOf(std::string_view(code).substr(start, end - start));
        directive && directive->word == "define")
      if (std::string name = firstWordOf(directive->rest); !name.empty())
        names.insert(std::move(name));
    start = end + 1;
  }
  return names;
}

CompiledLines readConditionals(std::string code, const std::set<std::string, std::less<>> &definedElsewhere) {
  struct Branch {
    bool literal = false;  ///< every condition of its chain is a number written out
    bool decided = false;  ///< every condition so far is decided
    bool taken = false;    ///< a branch so far is compiled, where decided
    bool excluded = false; ///< the present branch is not compiled, where decided
  };
  const std::map<std::size_t, bool> literal = literalChains(code);
  MacroReader macros(definedElsewhere);
  std::vector<Branch> open;
  CompiledLines lines;
  auto any = [&](std::size_t count, auto test) { return std::any_of(open.begin(), open.begin() + count, test); };
  auto never = [](const Branch &branch) { return branch.literal && branch.excluded; };
  auto leftOut = [](const Branch &branch) { return branch.decided && branch.excluded; };
  auto undecided = [](const Branch &branch) { return !branch.decided; };
  for (std::size_t start = 0; start < code.size();) {
    const std::size_t end = std::min(code.find('\n', start), code.size());
    const std::optional<Directive> directive = directiveOf(std::string_view(code).substr(start, end - start));
    bool blank = false;
    if (directive && opensBranch(directive->word)) {
      const bool chainLiteral = literal.count(start) && literal.at(start);
      // Under a branch left out, only a number written out is worth reading: `#if 0` blanks what it holds.
      std::optional<bool> value;
      if (chainLiteral)
        value = literalValue(directive->rest);
      else if (!any(open.size(), leftOut) && directive->word == "if")
        value = macros.holds(directive->rest);
      else if (!any(open.size(), leftOut)) {
        value = macros.defined(firstWordOf(directive->rest));
        if (value && directive->word == "ifndef")
          value = !*value;
      }
      blank = any(open.size(), never) || chainLiteral;
      open.push_back({chainLiteral, value.has_value(), value == true, value == false});
    } else if (directive && (directive->word == "elif" || directive->word == "else") && !open.empty()) {
      Branch &branch = open.back();
      if (branch.decided && (branch.taken || directive->word == "else")) {
        branch.excluded = branch.taken;
        branch.taken = true;
      } else if (branch.decided) {
        const std::optional<bool> value = branch.literal             ? literalValue(directive->rest)
                                          : any(open.size() - 1, leftOut) ? std::optional<bool>(false)
                                                                          : macros.holds(directive->rest);
        branch.decided = value.has_value();
        branch.taken = value == true;
        branch.excluded = value == false;
      }
      blank = any(open.size() - 1, never) || branch.literal;
    } else if (directive && directive->word == "endif" && !open.empty()) {
      blank = any(open.size() - 1, never) || open.back().literal;
      open.pop_back();
    } else {
      blank = any(open.size(), never);
      const bool out = any(open.size(), leftOut);
      if (out && (lines.leftOut.empty() || lines.leftOut.back().second + 1 < start))
        lines.leftOut.emplace_back(start, end);
      else if (out)
        lines.leftOut.back().second = end;
      const std::string name = directive ? firstWordOf(directive->rest) : std::string();
      if (!out && !name.empty() && (directive->word == "define" || directive->word == "undef")) {
        const std::size_t after = directive->rest.find(name) + name.size();
        const bool known = !any(open.size(), undecided);
        if (directive->word == "undef")
          macros.undefine(name, known);
        else
          macros.define(name, std::string(directive->rest.substr(after)),
                        after < directive->rest.size() && directive->rest[after] == '(', known);
      }
    }
    if (blank)
      std::fill(code.begin() + static_cast<std::ptrdiff_t>(start), code.begin() + static_cast<std::ptrdiff_t>(end), ' ');
    start = end + 1;
  }
  lines.code = std::move(code);
  return lines;
}

} // namespace ptxdvfs::tools
