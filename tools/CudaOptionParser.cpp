// CudaOptionParser.cpp - SHOC's OptionParser's declarations and reads; see
// CudaOptionParser.h.
#include "CudaOptionParser.h"

#include "CudaCode.h"
#include "CudaCommandLine.h"
#include "CudaSource.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace ptxdvfs::tools {

namespace {

/// The `(` of a call of the member `name` at `at` of `code`, made on a plain object (`op.name(`, `op->name(`),
/// and where that object's name starts; npos for both where it is no such call.
std::pair<std::size_t, std::size_t> memberCallAt(const std::string &code, std::size_t at, std::string_view name) {
  constexpr std::pair<std::size_t, std::size_t> none{std::string::npos, std::string::npos};
  const std::size_t open =
      isWholeWord(code, at, name.size()) ? callArgumentsAt(code, at, name.size()) : std::string::npos;
  if (open == std::string::npos)
    return none;
  std::size_t access = codeEndBefore(code, at);
  if (access >= 1 && code[access - 1] == '.')
    access -= 1;
  else if (access >= 2 && code.compare(access - 2, 2, "->") == 0)
    access -= 2;
  else
    return none;
  std::size_t object = access;
  if (wordBefore(code, object).empty() || (object > 0 && afterMemberAccess(code, object)))
    return none; // `this->op.getOptionInt(...)`: only a plain name is replaced with the call
  return {open, object};
}

/// The option of `options` named `name` (or, with `letter`, whose letter is `name`); null where none is.
const ParserOption *optionNamed(const std::vector<ParserOption> &options, std::string_view name, bool letter) {
  const auto found = std::find_if(options.begin(), options.end(), [&](const ParserOption &option) {
    return letter ? name.size() == 1 && option.letter == name[0] : option.name == name;
  });
  return found == options.end() ? nullptr : &*found;
}

/// The value the option `name` (of the type `type` where `options` does not declare it) has once `arguments` are
/// parsed; nullopt where that is not known.
std::optional<std::string> optionValue(const std::string &name, const std::string &type,
                                       const std::vector<ParserOption> &options,
                                       const std::vector<std::string> &arguments) {
  const ParserOption *declared = optionNamed(options, name, false);
  std::optional<std::string> value = declared ? std::optional<std::string>(declared->fallback) : std::nullopt;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string &argument = arguments[i];
    if (argument.size() < 2 || argument[0] != '-')
      continue; // an operand
    const bool isLong = argument[1] == '-';
    const std::string_view given = std::string_view(argument).substr(isLong ? 2 : 1);
    const ParserOption *option = optionNamed(options, given, !isLong);
    if (!option && !(isLong && given == name))
      return std::nullopt; // an option not declared: whether it takes the next argument is not known
    const bool flag = (option ? option->type : type) == "OPT_BOOL";
    if (!flag && i + 1 >= arguments.size())
      return std::nullopt; // its value missing
    const std::string found = flag ? "true" : arguments[++i];
    if ((option ? option->name : std::string(given)) == name)
      value = found;
  }
  return value;
}

} // namespace

std::vector<ParserOption> parserOptionsIn(const std::string &code, const std::string &text) {
  std::vector<ParserOption> options;
  constexpr std::string_view kAdd = "addOption";
  for (std::size_t at = code.find(kAdd); at != std::string::npos; at = code.find(kAdd, at + 1)) {
    const std::size_t open = memberCallAt(code, at, kAdd).first;
    const std::size_t close = open == std::string::npos ? open : pastClosing(code, open);
    if (close == std::string::npos)
      continue;
    const std::vector<std::string> parts =
        topLevelPartsAsWritten(std::string_view(code).substr(open + 1, close - open - 2),
                               std::string_view(text).substr(open + 1, close - open - 2));
    const std::optional<std::string> name = parts.size() >= 3 ? plainStringLiteral(parts[0]) : std::nullopt;
    const std::optional<std::string> fallback = name ? plainStringLiteral(parts[2]) : std::nullopt;
    const std::vector<std::string> typeWords = wordsIn(parts.size() >= 3 ? parts[1] : "");
    if (!fallback || typeWords.size() != 1 || typeWords[0] != parts[1])
      continue;
    ParserOption option{*name, parts[1], *fallback, '\0'};
    if (parts.size() >= 5) {
      const std::optional<int> letter = characterCode(parts[4]);
      if (!letter)
        continue; // a letter not written plainly: which arguments name it is not known
      option.letter = static_cast<char>(*letter);
    }
    options.push_back(std::move(option));
  }
  return options;
}

std::string withOptionParserReads(std::string code, const std::string &text, const std::vector<ParserOption> &options,
                                  const std::vector<std::string> &arguments,
                                  std::vector<UndeclaredOptionRead> *undeclared) {
  for (const std::string_view read : {"getOptionInt", "getOptionFloat", "getOptionBool"}) {
    const std::string type = read == "getOptionInt" ? "OPT_INT" : read == "getOptionFloat" ? "OPT_FLOAT" : "OPT_BOOL";
    for (std::size_t at = code.find(read); at != std::string::npos; at = code.find(read, at + 1)) {
      const auto [open, object] = memberCallAt(code, at, read);
      const std::size_t end = open == std::string::npos ? open : pastClosing(code, open);
      const std::optional<std::string> name =
          end == std::string::npos ? std::nullopt
                                   : plainStringLiteral(std::string_view(text).substr(open + 1, end - open - 2));
      const std::optional<std::string> value = name ? optionValue(*name, type, options, arguments) : std::nullopt;
      if (!value && name && undeclared && !optionNamed(options, *name, false))
        undeclared->push_back({at, *name});
      if (!value)
        continue;
      std::string number;
      if (read == "getOptionBool") {
        number = *value == "true" ? "1" : "0";
      } else {
        const std::optional<expression::Number> converted =
            convertedArgument(read == "getOptionInt" ? "atoi" : "atof", *value, 10);
        if (!converted)
          continue;
        char written[64];
        std::snprintf(written, sizeof written, "%.17g", converted->value);
        number = converted->real ? std::string(written) : std::to_string(converted->whole);
        if (converted->real && number.find_first_of(".e") == std::string::npos)
          number += ".0"; // still a double where the code divides by it
        if (number.find_first_of("ni") != std::string::npos)
          continue; // inf or nan: no literal says it
      }
      replaceWithValue(code, object, end, number);
    }
  }
  return code;
}

} // namespace ptxdvfs::tools
