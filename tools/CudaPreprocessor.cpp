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
#include <utility>

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

/// Calls `visit(start, end, directive)` for each line of `code`: its
/// offsets without the newline, and what it directs where it is a
/// preprocessor line.
template <typename Visit> void forEachLine(const std::string &code, Visit visit) {
  for (std::size_t start = 0; start < code.size();) {
    const std::size_t end = std::min(code.find('\n', start), code.size());
    visit(start, end, directiveOf(std::string_view(code).substr(start, end - start)));
    start = end + 1;
  }
}

/// What `#define NAME ...` gives its name (the directive's rest past `name`):
/// `(a) body` for a function-like one.
std::string_view afterName(const Directive &directive, const std::string &name) {
  return directive.rest.substr(directive.rest.find(name) + name.size());
}

bool opensBranch(std::string_view word) { return word == "if" || word == "ifdef" || word == "ifndef"; }

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
  MacroReader(const std::set<std::string, std::less<>> &elsewhere, const FlagMacros &flags) : elsewhere_(elsewhere) {
    for (const auto &[name, value] : flags)
      macros_[name] = {true, value.has_value(), false, value.value_or("")};
  }

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
    if (headersMayDefine(name))
      return std::nullopt;
    if (knob_.empty())
      knob_ = std::string(name);
    return false;
  }

  /// The first macro that no file defines read since the last call, which was read as undefined.
  std::string takeKnob() { return std::exchange(knob_, std::string()); }

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
  std::optional<Number> member(const std::string &, int) const override { return std::nullopt; }
  std::optional<Number> pointee(const std::string &, int) const override { return std::nullopt; }
  std::optional<Number> element(const std::string &, std::vector<Token>, const std::string &, int) const override {
    return std::nullopt;
  }
  std::optional<std::pair<std::int64_t, std::int64_t>> arrayShape(const std::string &, int) const override {
    return std::nullopt;
  }
  std::optional<Number> containerSize(const std::string &, int) const override { return std::nullopt; }
  std::optional<Number> method(const std::string &, const std::string &, const std::vector<Number> &,
                               int) const override {
    return std::nullopt;
  }
  std::optional<std::string> commandLineArgument(const std::string &, std::vector<Token>, int) const override {
    return std::nullopt;
  }
  Lookup functionMacro(const std::string &, FunctionMacro &) const override { return Lookup::Unknown; }
  std::optional<Number> function(const std::string &, const std::optional<std::vector<Number>> &, int) const override {
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
  mutable std::string knob_;
};

} // namespace

std::string nvccFlagsFile(const std::vector<std::string> &flags) {
  std::string file;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    std::string flag = flags[i];
    for (const char *longForm : {"--define-macro", "--undefine-macro"})
      if (flag.rfind(longForm, 0) == 0)
        flag = std::string(longForm[2] == 'd' ? "-D" : "-U") + flag.substr(std::string_view(longForm).size());
    if (flag.rfind("-D", 0) != 0 && flag.rfind("-U", 0) != 0)
      continue;
    std::string macro = flag.substr(2);
    if (!macro.empty() && macro.front() == '=')
      macro.erase(0, 1); // `--define-macro=N=4`
    if (macro.empty() && i + 1 < flags.size())
      macro = flags[++i]; // `-D N=4`
    const std::size_t equals = macro.find('=');
    const std::string name = macro.substr(0, equals);
    if (name.empty() || !std::all_of(name.begin(), name.end(), isIdentifierChar))
      continue;
    file += flag[1] == 'U' ? "#undef " + name + "\n"
                           : "#define " + name + " " + (equals == std::string::npos ? "1" : macro.substr(equals + 1)) + "\n";
  }
  return file;
}

FlagMacros flagMacros(const std::string &code) {
  FlagMacros macros;
  forEachLine(code, [&](std::size_t, std::size_t, const std::optional<Directive> &directive) {
    const std::string name = directive ? firstWordOf(directive->rest) : std::string();
    if (!name.empty() && directive->word == "define")
      macros[name] = trimmed(afterName(*directive, name));
    else if (!name.empty() && directive->word == "undef")
      macros[name] = std::nullopt;
  });
  return macros;
}

std::vector<std::vector<bool>> filesSeenTogether(const std::vector<CudaSourceFile> &files) {
  const std::size_t count = files.size();
  const auto fileNameOf = [](const std::string &path) {
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
  };
  std::multimap<std::string, std::size_t> byName;
  for (std::size_t file = 0; file < count; ++file)
    byName.emplace(fileNameOf(files[file].path), file);
  std::vector<std::vector<std::size_t>> includes(count);
  std::vector<bool> included(count, false);
  for (std::size_t file = 0; file < count; ++file)
    forEachLine(files[file].text, [&](std::size_t, std::size_t, const std::optional<Directive> &directive) {
      if (!directive || directive->word != "include")
        return;
      const std::string_view rest = directive->rest;
      const std::size_t open = rest.find_first_of("\"<");
      const std::size_t close = open == std::string_view::npos ? open : rest.find_first_of("\">", open + 1);
      if (close == std::string_view::npos)
        return;
      const auto [first, last] = byName.equal_range(fileNameOf(std::string(rest.substr(open + 1, close - open - 1))));
      for (auto match = first; match != last; ++match)
        if (match->second != file) {
          includes[file].push_back(match->second);
          included[match->second] = true;
        }
    });
  const auto reachedFrom = [&](std::size_t root) {
    std::vector<bool> reached(count, false);
    std::vector<std::size_t> pending{root};
    reached[root] = true;
    while (!pending.empty()) {
      const std::size_t file = pending.back();
      pending.pop_back();
      for (std::size_t next : includes[file])
        if (!reached[next])
          pending.push_back(next), reached[next] = true;
    }
    return reached;
  };
  std::vector<std::vector<bool>> seen(count, std::vector<bool>(count, false));
  std::vector<bool> covered(count, false);
  const auto addUnit = [&](const std::vector<bool> &unit) {
    for (std::size_t file = 0; file < count; ++file)
      if (unit[file]) {
        covered[file] = true;
        for (std::size_t other = 0; other < count; ++other)
          seen[file][other] = seen[file][other] || unit[other];
      }
  };
  for (std::size_t file = 0; file < count; ++file)
    if (!included[file])
      addUnit(reachedFrom(file));
  for (std::size_t file = 0; file < count; ++file)
    if (!covered[file])
      addUnit(reachedFrom(file)); // on a cycle of includes that no other file reaches
  for (std::size_t file = 0; file < count; ++file)
    if (files[file].declared == kNvccFlagsPath)
      for (std::vector<bool> &row : seen)
        row[file] = true;
  return seen;
}

std::set<std::string, std::less<>> definedMacroNames(const std::string &code) {
  std::set<std::string, std::less<>> names;
  forEachLine(code, [&](std::size_t, std::size_t, const std::optional<Directive> &directive) {
    if (std::string name = directive && directive->word == "define" ? firstWordOf(directive->rest) : std::string();
        !name.empty())
      names.insert(std::move(name));
  });
  return names;
}

ConditionalCode readConditionals(std::string code, const std::set<std::string, std::less<>> &definedElsewhere,
                                 const FlagMacros &flags) {
  struct Branch {
    std::size_t chain = 0; ///< its `#if ... #endif`, by number
    UndefinedKnob knob;    ///< from its `#if` line; the first knob its conditions read, if any
    bool decided = false;  ///< every condition of it so far is decided
    bool taken = false;    ///< a branch of it so far is compiled, where decided
    bool excluded = false; ///< the present branch is not compiled, where decided
  };
  /// A line to blank once every chain is read: one left out, or a directive of a chain.
  struct Line {
    std::size_t start = 0, end = 0;
    bool leftOut = false;
    std::size_t chain = std::string::npos;
  };
  MacroReader macros(definedElsewhere, flags);
  std::vector<Branch> open;
  std::vector<bool> decidedChains; ///< whether every condition of each chain is decided
  std::vector<Line> lines;
  std::vector<UndefinedKnob> knobs;
  // The knob a condition just read, for the chain it decides (if nothing before did).
  auto noteKnob = [&](Branch &branch, std::size_t at) {
    std::string knob = macros.takeKnob();
    if (branch.decided && branch.knob.name.empty() && !knob.empty()) {
      branch.knob.name = std::move(knob);
      branch.knob.at = at;
    }
  };
  auto leftOutBy = [&](std::size_t count) {
    return std::any_of(open.begin(), open.begin() + static_cast<std::ptrdiff_t>(count),
                       [](const Branch &branch) { return branch.decided && branch.excluded; });
  };
  // `#ifndef G` followed by `#define G` is a header's include guard, not a
  // knob: a -D flag that skipped the header would not build. The chain
  // waiting for that `#define`, by its place in `open`.
  std::optional<std::size_t> guardAwaited;
  forEachLine(code, [&](std::size_t start, std::size_t end, const std::optional<Directive> &directive) {
    if (guardAwaited && (directive || code.find_first_not_of(" \t\r", start) < end)) {
      const std::string name = directive && directive->word == "define" ? firstWordOf(directive->rest) : std::string();
      if (Branch &guarded = open[*guardAwaited];
          !name.empty() && name == guarded.knob.name && trimmed(afterName(*directive, name)).empty())
        guarded.knob.name.clear();
      guardAwaited.reset();
    }
    const bool chainDirective =
        directive && (opensBranch(directive->word) || ((directive->word == "elif" || directive->word == "else" ||
                                                         directive->word == "endif") && !open.empty()));
    // Under a branch left out, what a condition says does not matter: its lines go too.
    const bool outer = leftOutBy(open.size() - (chainDirective && !opensBranch(directive->word) ? 1 : 0));
    if (directive && opensBranch(directive->word)) {
      std::optional<bool> value = true;
      if (!outer && directive->word == "if")
        value = macros.holds(directive->rest);
      else if (!outer)
        value = macros.defined(firstWordOf(directive->rest));
      if (!outer && value && directive->word == "ifndef")
        value = !*value;
      decidedChains.push_back(value.has_value());
      open.push_back({decidedChains.size() - 1, {start, 0, {}, 0}, value.has_value(), value == true, value == false});
      noteKnob(open.back(), start);
      if (open.back().knob.at == start && open.back().knob.name == firstWordOf(directive->rest) &&
          directive->word == "ifndef")
        guardAwaited = open.size() - 1;
    } else if (chainDirective && directive->word != "endif") {
      Branch &branch = open.back();
      if (branch.decided && (branch.taken || directive->word == "else")) {
        branch.excluded = branch.taken;
        branch.taken = true;
      } else if (branch.decided) {
        const std::optional<bool> value = outer ? std::optional<bool>(false) : macros.holds(directive->rest);
        branch.decided = value.has_value();
        branch.taken = value == true;
        branch.excluded = value == false;
        decidedChains[branch.chain] = branch.decided;
        noteKnob(branch, start);
      }
    }
    if (chainDirective) {
      lines.push_back({start, end, outer, open.back().chain});
      if (directive->word == "endif") {
        if (Branch &closed = open.back(); decidedChains[closed.chain] && !closed.knob.name.empty()) {
          closed.knob.end = end;
          knobs.push_back(std::move(closed.knob));
        }
        open.pop_back();
      }
    } else if (leftOutBy(open.size())) {
      lines.push_back({start, end, true, std::string::npos});
    } else if (const std::string name = directive ? firstWordOf(directive->rest) : std::string();
               !name.empty() && (directive->word == "define" || directive->word == "undef")) {
      const std::string_view value = afterName(*directive, name);
      const bool known = std::all_of(open.begin(), open.end(), [](const Branch &branch) { return branch.decided; });
      if (directive->word == "undef")
        macros.undefine(name, known);
      else
        macros.define(name, std::string(value), !value.empty() && value.front() == '(', known);
    }
  });
  for (const Line &line : lines)
    if (line.leftOut || (line.chain != std::string::npos && decidedChains[line.chain]))
      std::fill(code.begin() + static_cast<std::ptrdiff_t>(line.start),
                code.begin() + static_cast<std::ptrdiff_t>(line.end), ' ');
  std::sort(knobs.begin(), knobs.end(), [](const UndefinedKnob &a, const UndefinedKnob &b) { return a.start < b.start; });
  return {std::move(code), std::move(knobs)};
}

} // namespace ptxdvfs::tools
