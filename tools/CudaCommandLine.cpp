// CudaCommandLine.cpp - the program's command line, split and converted as
// the shell and the C library would.
#include "CudaCommandLine.h"

#include "CudaCode.h"
#include "CudaSource.h"
#include "CudaStatements.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <string>

namespace ptxdvfs::tools {

namespace {

enum class Converts { Integer, Unsigned, Real };

struct Conversion {
  std::string_view name;
  Converts to;
  bool throws;           ///< C++'s `std::sto*`: no digits is an exception, not 0
  long long lowest = 0;  ///< the range of its result type, for the integers
  unsigned long long highest = 0;
};

constexpr Conversion kConversions[] = {
    {"atoi", Converts::Integer, false, INT_MIN, INT_MAX},
    {"atol", Converts::Integer, false, LONG_MIN, LONG_MAX},
    {"atoll", Converts::Integer, false, LLONG_MIN, LLONG_MAX},
    {"strtol", Converts::Integer, false, LONG_MIN, LONG_MAX},
    {"strtoll", Converts::Integer, false, LLONG_MIN, LLONG_MAX},
    {"strtoul", Converts::Unsigned, false, 0, ULONG_MAX},
    {"strtoull", Converts::Unsigned, false, 0, ULLONG_MAX},
    {"stoi", Converts::Integer, true, INT_MIN, INT_MAX},
    {"stol", Converts::Integer, true, LONG_MIN, LONG_MAX},
    {"stoll", Converts::Integer, true, LLONG_MIN, LLONG_MAX},
    {"stoul", Converts::Unsigned, true, 0, ULONG_MAX},
    {"stoull", Converts::Unsigned, true, 0, ULLONG_MAX},
    {"atof", Converts::Real, false},
    {"strtod", Converts::Real, false},
    {"strtof", Converts::Real, false},
    {"stof", Converts::Real, true},
    {"stod", Converts::Real, true},
};

const Conversion *conversionNamed(std::string_view function) {
  for (const Conversion &conversion : kConversions)
    if (conversion.name == function)
      return &conversion;
  return nullptr;
}

} // namespace

std::optional<std::vector<std::string>> splitProgramArguments(std::string_view text, std::string &error) {
  std::vector<std::string> arguments;
  std::string current;
  bool inArgument = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (inArgument)
        arguments.push_back(std::move(current));
      current.clear();
      inArgument = false;
      continue;
    }
    inArgument = true;
    if (c == '\\') {
      if (++at == text.size()) {
        error = "a '\\' ends the arguments, escaping nothing";
        return std::nullopt;
      }
      current += text[at];
    } else if (c == '\'' || c == '"') {
      const std::size_t opened = at;
      for (++at; at < text.size() && text[at] != c; ++at) {
        if (c == '"' && text[at] == '\\' && at + 1 < text.size() && (text[at + 1] == '"' || text[at + 1] == '\\'))
          ++at;
        current += text[at];
      }
      if (at == text.size()) {
        error = std::string("the quote ") + c + " at column " + std::to_string(opened + 1) + " is never closed";
        return std::nullopt;
      }
    } else {
      current += c;
    }
  }
  if (inArgument)
    arguments.push_back(std::move(current));
  return arguments;
}

bool convertsArgument(std::string_view function) { return conversionNamed(function) != nullptr; }

std::optional<expression::Number> convertedArgument(std::string_view function, const std::string &text, int base) {
  const Conversion *conversion = conversionNamed(function);
  if (!conversion || base < 0 || base == 1 || base > 36)
    return std::nullopt;
  const char *start = text.c_str();
  char *end = nullptr;
  errno = 0;
  if (conversion->to == Converts::Real) {
    const bool single = function == "strtof" || function == "stof";
    const double value = single ? std::strtof(start, &end) : std::strtod(start, &end);
    if (errno == ERANGE || !std::isfinite(value) || (end == start && conversion->throws))
      return std::nullopt;
    return expression::Number{true, 0, value};
  }
  // A minus sign before an unsigned conversion wraps the value around, past what a size could be.
  const unsigned long long unsignedValue = conversion->to == Converts::Unsigned ? std::strtoull(start, &end, base) : 0;
  const long long value = conversion->to == Converts::Unsigned
                              ? (unsignedValue > LLONG_MAX ? -1 : static_cast<long long>(unsignedValue))
                              : std::strtoll(start, &end, base);
  if (errno == ERANGE || value < conversion->lowest ||
      (value > 0 && static_cast<unsigned long long>(value) > conversion->highest) ||
      (end == start && conversion->throws))
    return std::nullopt;
  return expression::Number{false, static_cast<std::int64_t>(value), 0};
}

std::optional<std::string> plainStringLiteral(std::string_view written) {
  const std::string literal = trimmed(written);
  if (literal.size() < 2 || literal.front() != '"' || literal.back() != '"' ||
      literal.find_first_of("\\\"", 1) != literal.size() - 1)
    return std::nullopt;
  return literal.substr(1, literal.size() - 2);
}

std::optional<std::pair<std::string, std::vector<expression::Token>>> subscripted(
    const std::vector<expression::Token> &tokens) {
  if (tokens.size() < 4 || tokens[0].kind != expression::Token::Name || tokens[1].text != "[" ||
      tokens.back().text != "]")
    return std::nullopt;
  return std::pair{tokens[0].text, std::vector<expression::Token>(tokens.begin() + 2, tokens.end() - 1)};
}

std::optional<PointerRange> pointerRange(std::string_view first, std::string_view last) {
  const auto split = [](std::string_view written) -> std::optional<std::pair<std::string, std::string>> {
    const std::size_t plus = written.find('+');
    const std::string base = trimmed(written.substr(0, plus));
    if (wordsIn(base) != std::vector<std::string>{base})
      return std::nullopt; // not one name
    return std::pair{base, plus == std::string_view::npos ? std::string() : trimmed(written.substr(plus + 1))};
  };
  const auto from = split(first), to = split(last);
  if (!from || !to || from->first != to->first || to->second.empty())
    return std::nullopt;
  return PointerRange{from->first, from->second.empty() ? "0" : from->second, to->second};
}

std::optional<expression::Number> convertedCommandLine(const expression::ExpressionNames &names,
                                                       std::string_view function,
                                                       std::vector<std::vector<expression::Token>> arguments,
                                                       int depth) {
  using expression::Token;
  if (arguments.empty() || arguments.size() > 3 || depth >= expression::kMaxDepth)
    return std::nullopt;
  int base = 10;
  if (arguments.size() == 3) { // the second is the end pointer (`strtol`) or position (`stoi`) set for the caller
    const std::optional<expression::Number> written = expression::fold(names, arguments[2], depth);
    if (!written || written->real)
      return std::nullopt;
    base = static_cast<int>(std::clamp<std::int64_t>(written->whole, -1, 37)); // out of range either way
  }
  std::vector<Token> text = std::move(arguments.front());
  std::size_t skipped = 0; // `argv[i] + 4` or `arg.substr(4)`, past a prefix (`--n=`) the program compared
  // A std::string's `.c_str()` is its text, and its `.substr(K)` the text past K characters.
  const auto endsWith = [&](std::initializer_list<std::string_view> tail) {
    return text.size() > tail.size() &&
           std::equal(tail.begin(), tail.end(), text.end() - static_cast<std::ptrdiff_t>(tail.size()),
                      [](std::string_view written, const Token &token) {
                        return written.empty() ? token.kind == Token::Number : token.text == written;
                      });
  };
  while (true) {
    if (endsWith({".", "c_str", "(", ")"})) {
      text.resize(text.size() - 4);
      continue;
    }
    if (!endsWith({".", "substr", "(", "", ")"}))
      break;
    const std::optional<expression::Number> past = expression::fold(names, {text[text.size() - 2]}, depth);
    if (!past || past->real || past->whole < 0)
      return std::nullopt;
    skipped += static_cast<std::size_t>(past->whole);
    text.resize(text.size() - 5);
  }
  if (text.size() > 2 && (text[0].text == "std::string" || text[0].text == "string") && text[1].text == "(" &&
      text.back().text == ")")
    text = std::vector<Token>(text.begin() + 2, text.end() - 1);
  if (text.size() > 2 && text[text.size() - 2].text == "+" && text.back().kind == Token::Number) {
    const std::optional<expression::Number> past = expression::fold(names, {text.back()}, depth);
    if (!past || past->real || past->whole < 0)
      return std::nullopt;
    skipped += static_cast<std::size_t>(past->whole);
    text.resize(text.size() - 2);
  }
  std::optional<std::pair<std::string, std::vector<Token>>> read = subscripted(text); // `argv[1]`
  if (!read && text.size() == 1 && text[0].kind == Token::Name)
    read = std::pair{text[0].text, std::vector<Token>()}; // `optarg`
  const std::optional<std::string> argument =
      read ? names.commandLineArgument(read->first, std::move(read->second), depth) : std::nullopt;
  if (!argument || skipped > argument->size())
    return std::nullopt; // past the text's end
  return convertedArgument(function, argument->substr(skipped), base);
}

std::optional<expression::Number> commandLineCharacter(const expression::ExpressionNames &names,
                                                       const std::string &name, std::vector<expression::Token> index,
                                                       std::vector<expression::Token> character, int depth) {
  if (depth >= expression::kMaxDepth)
    return std::nullopt;
  const std::optional<std::string> argument = names.commandLineArgument(name, std::move(index), depth);
  const std::optional<expression::Number> at =
      argument ? expression::fold(names, std::move(character), depth) : std::nullopt;
  if (!at || at->real || at->whole < 0 || static_cast<std::uint64_t>(at->whole) > argument->size())
    return std::nullopt;
  const auto code = static_cast<unsigned char>((*argument + '\0')[static_cast<std::size_t>(at->whole)]);
  if (code > 127)
    return std::nullopt;
  return expression::Number{false, code, 0};
}

namespace {

/// An argument as the samples' helpers read it: its leading dashes dropped.
std::string_view withoutDashes(std::string_view argument) {
  return argument.substr(std::min(argument.find_first_not_of('-'), argument.size()));
}

bool sameIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// What the helper `name` returns for `flag`; nullopt for another name or a value out of range.
std::optional<std::string> helperValue(std::string_view name, std::string_view flag,
                                       const std::vector<std::string> &arguments) {
  if (name == "checkCmdLineFlag") {
    const bool found = std::any_of(arguments.begin(), arguments.end(), [&](const std::string &argument) {
      const std::string_view bare = withoutDashes(argument);
      return sameIgnoringCase(bare.substr(0, bare.find('=')), flag);
    });
    return found ? "1" : "0";
  }
  const bool real = name == "getCmdLineArgumentFloat";
  if (!real && name != "getCmdLineArgumentInt")
    return std::nullopt;
  std::optional<std::string> value = "0"; // where no argument starts with the flag
  for (const std::string &argument : arguments) {
    const std::string_view bare = withoutDashes(argument);
    if (bare.size() < flag.size() || !sameIgnoringCase(bare.substr(0, flag.size()), flag))
      continue;
    std::string_view rest = bare.substr(flag.size());
    rest.remove_prefix(!rest.empty() && rest.front() == '=' ? 1 : 0);
    const std::optional<expression::Number> number = convertedArgument(real ? "atof" : "atoi", std::string(rest), 10);
    value = !number ? std::nullopt : std::optional<std::string>(real ? std::to_string(number->value)
                                                                     : std::to_string(number->whole));
  }
  return value;
}

} // namespace

void replaceWithValue(std::string &code, std::size_t from, std::size_t end, const std::string &value) {
  if (value.size() + 2 <= end - from)
    code.replace(from, end - from, ("(" + value + ")").append(end - from - value.size() - 2, ' '));
}

std::string withCommandLineHelpers(std::string code, const std::string &text,
                                   const std::vector<std::string> &arguments) {
  if (arguments.empty())
    return code;
  for (const std::string_view name : {"checkCmdLineFlag", "getCmdLineArgumentInt", "getCmdLineArgumentFloat"}) {
    for (std::size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
      const std::size_t open = code.find_first_not_of(" \t\r\n", at + name.size());
      if (!isWholeWord(code, at, name.size()) || open == std::string::npos || code[open] != '(')
        continue;
      const std::size_t end = pastClosing(code, open);
      if (end == std::string::npos)
        continue;
      const std::vector<std::string> parts = topLevelPartsAsWritten(
          std::string_view(code).substr(open + 1, end - open - 2),
          std::string_view(text).substr(open + 1, end - open - 2)); // a flag's commas are not the call's
      const std::optional<std::string> flag = parts.size() == 3 ? plainStringLiteral(parts[2]) : std::nullopt;
      if (!flag)
        continue; // a flag named by a variable, or escaped
      if (const std::optional<std::string> value = helperValue(name, *flag, arguments))
        replaceWithValue(code, at, end, *value);
    }
  }
  return code;
}

std::string withoutCommandLineCalls(std::string condition, const std::vector<std::string> &arguments) {
  const bool anOption = std::any_of(arguments.begin(), arguments.end(), [](const std::string &argument) {
    return argument.size() > 1 && argument[0] == '-';
  });
  for (std::size_t at = condition.size(); at-- > 0 && !anOption;) {
    if (condition[at] != '(' || at == 0)
      continue;
    std::size_t nameStart = at;
    const std::string name = wordBefore(condition, nameStart);
    if (name.empty())
      continue; // a cast or a grouping, not a call
    const std::size_t end = pastClosing(condition, at);
    if (end == std::string::npos)
      continue;
    const bool getopt = name == "getopt" || name == "getopt_long" || name == "getopt_long_only";
    if (!arguments.empty() && !getopt && name != "checkCmdLineFlag")
      continue; // what `atoi(argv[1])` or `strcmp(argv[1], "-v")` gives rests on the arguments
    if (readsName(std::string_view(condition).substr(at, end - at), "argv"))
      condition.replace(nameStart, end - nameStart, getopt ? "(-1)" : "0");
  }
  return condition;
}

std::optional<std::vector<expression::Number>> scannedValues(std::string_view text, std::string_view format) {
  std::vector<char> conversions; // checked whole first: a format the scan would stop before is still read
  for (std::size_t at = 0; at < format.size(); ++at) {
    if (format[at] != '%')
      continue;
    if (at + 1 < format.size() && format[at + 1] == '%') {
      ++at;
      continue;
    }
    at = format.find_first_not_of("hlzj", at + 1);
    if (at == std::string_view::npos || std::string_view("diuxfeg").find(format[at]) == std::string_view::npos)
      return std::nullopt;
    conversions.push_back(format[at]);
  }
  std::vector<expression::Number> values;
  const std::string input(text);
  const char *next = input.c_str();
  const auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t at = 0, conversion = 0; at < format.size(); ++at) {
    if (blank(format[at])) {
      while (blank(*next))
        ++next;
    } else if (format[at] != '%' || (at + 1 < format.size() && format[at + 1] == '%')) {
      at += format[at] == '%';
      if (*next != format[at])
        break; // the text stops matching: what is read so far is stored
      ++next;
    } else {
      at = format.find_first_not_of("hlzj", at + 1);
      const char kind = conversions[conversion++];
      const bool real = kind == 'f' || kind == 'e' || kind == 'g';
      const int base = kind == 'i' ? 0 : kind == 'x' ? 16 : 10;
      char *end = nullptr; // where the conversion stops; the value is the library's reading of what it read
      static_cast<void>(real ? std::strtod(next, &end) : static_cast<double>(std::strtoll(next, &end, base)));
      const std::optional<expression::Number> value =
          end == next ? std::nullopt
                      : convertedArgument(real ? "strtod" : kind == 'u' ? "strtoull" : "strtoll",
                                          std::string(next, static_cast<std::size_t>(end - next)), base);
      if (!value)
        break;
      values.push_back(*value);
      next = end;
    }
  }
  return values;
}

std::string shownArguments(const std::vector<std::string> &arguments) {
  std::string shown;
  for (const std::string &argument : arguments) {
    std::string written = argument;
    if (argument.empty() || argument.find_first_of(" \t\n'\"\\") != std::string::npos) {
      written = "'";
      for (const char c : argument)
        written += c == '\'' ? std::string("'\\''") : std::string(1, c); // close, escape, reopen
      written += "'";
    }
    shown += (shown.empty() ? "" : " ") + written;
  }
  return shown;
}

std::string programRun(const std::vector<std::string> &arguments) {
  return arguments.empty() ? "the program run without arguments"
                           : "the program run with the arguments `" + shownArguments(arguments) + "`";
}

} // namespace ptxdvfs::tools
