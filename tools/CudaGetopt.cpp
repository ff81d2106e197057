// CudaGetopt.cpp - `getopt` and `getopt_long` as GNU's C library runs
// them; see CudaGetopt.h.
#include "CudaGetopt.h"

#include "CudaCode.h"
#include "CudaCommandLine.h"
#include "CudaSource.h"

#include <algorithm>
#include <cctype>

namespace ptxdvfs::tools {

namespace {

/// The entry of `table` that `name` names: its own, or the one it starts (or several that agree, which GNU
/// takes as one); null where none does or several differ.
const LongOption *longOptionNamed(const std::vector<LongOption> &table, std::string_view name) {
  const LongOption *found = nullptr;
  for (const LongOption &option : table) {
    if (option.name == name)
      return &option;
    if (option.name.compare(0, name.size(), name) != 0 || name.empty())
      continue;
    if (found && (found->argument != option.argument || found->value != option.value))
      return nullptr; // ambiguous
    found = found ? found : &option;
  }
  return found;
}

/// The number a `struct option` field holds as written: digits, a `*_argument` constant, a character
/// literal, or a null pointer (0); nullopt for anything else.
std::optional<int> fieldValue(const std::string &written) {
  if (written == "no_argument" || written == "0" || written == "NULL" || written == "nullptr")
    return 0;
  if (written == "required_argument")
    return 1;
  if (written == "optional_argument")
    return 2;
  if (const std::optional<int> character = characterCode(written))
    return character;
  if (!written.empty() && written.size() < 6 &&
      std::all_of(written.begin(), written.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return std::stoi(written);
  return std::nullopt;
}

} // namespace

std::size_t getoptCallAt(const std::string &code, std::size_t at) {
  for (const std::size_t length : {6, 11, 16})
    if (isWholeWord(code, at, length) && (length == 6 || code.compare(at + 6, 5, "_long") == 0) &&
        (length != 16 || code.compare(at + 11, 5, "_only") == 0))
      return afterMemberAccess(code, at) ? 0 : length;
  return 0;
}

std::optional<GetoptLoop> getoptLoopOf(std::string_view condition) {
  const std::string text(condition), code = codeOf(text);
  std::size_t call = code.find("getopt");
  while (call != std::string::npos && getoptCallAt(code, call) == 0)
    call = code.find("getopt", call + 1);
  const std::size_t nameEnd = call == std::string::npos ? call : call + getoptCallAt(code, call);
  const std::string callee = call == std::string::npos ? "" : code.substr(call, nameEnd - call);
  const std::size_t open = call == std::string::npos ? call : code.find_first_not_of(" \t\r\n", nameEnd);
  const std::size_t equals = call == std::string::npos ? call : code.rfind('=', call);
  const std::size_t close =
      open != std::string::npos && code[open] == '(' ? pastClosing(code, open) : std::string::npos;
  if (close == std::string::npos || equals == std::string::npos)
    return std::nullopt;
  const std::vector<std::string> arguments =
      topLevelPartsAsWritten(std::string_view(code).substr(open + 1, close - open - 2),
                             std::string_view(text).substr(open + 1, close - open - 2));
  const std::vector<std::string> assigned = wordsIn(code.substr(0, equals));
  const std::optional<std::string> optstring = arguments.size() >= 3 ? plainStringLiteral(arguments[2]) : std::nullopt;
  if (assigned.size() != 1 || !optstring || arguments.size() != (callee == "getopt" ? 3u : 5u))
    return std::nullopt;
  GetoptLoop loop{assigned[0], *optstring, callee == "getopt" ? "" : arguments[3], callee == "getopt_long_only"};
  if (!loop.longOptions.empty() && wordsIn(loop.longOptions) != std::vector<std::string>{loop.longOptions})
    return std::nullopt; // not an array's name
  return loop;
}

std::optional<std::vector<LongOption>> longOptionsIn(const std::string &code, const std::string &text,
                                                     const std::string &name) {
  for (std::size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
    std::size_t typeAt = at;
    const std::size_t bracket = code.find_first_not_of(" \t\r\n", at + name.size());
    if (!isWholeWord(code, at, name.size()) || wordBefore(code, typeAt) != "option" || bracket == std::string::npos ||
        code[bracket] != '[')
      continue;
    const std::size_t pastBracket = pastClosing(code, bracket);
    const std::size_t equals =
        pastBracket == std::string::npos ? pastBracket : code.find_first_not_of(" \t\r\n", pastBracket);
    const std::size_t brace = equals == std::string::npos || code[equals] != '='
                                  ? std::string::npos
                                  : code.find_first_not_of(" \t\r\n", equals + 1);
    const std::size_t end = brace == std::string::npos || code[brace] != '{' ? brace : pastClosing(code, brace);
    if (end == std::string::npos)
      continue;
    std::vector<LongOption> table;
    std::size_t start = brace + 1;
    for (const std::string &entry : topLevelParts(std::string_view(code).substr(brace + 1, end - brace - 2))) {
      const std::size_t open = entry.find('{'), close = entry.rfind('}');
      const std::size_t entryAt = start;
      start += entry.size() + 1;
      if (trimmed(entry).empty())
        continue; // after a trailing comma
      if (open == std::string::npos || close == std::string::npos || close < open)
        return std::nullopt;
      const std::vector<std::string> fields =
          topLevelPartsAsWritten(std::string_view(entry).substr(open + 1, close - open - 1),
                                 std::string_view(text).substr(entryAt + open + 1, close - open - 1));
      const std::optional<int> argument = fields.size() == 4 ? fieldValue(fields[1]) : std::nullopt;
      const std::optional<int> flag = fields.size() == 4 ? fieldValue(fields[2]) : std::nullopt;
      const std::optional<int> value = fields.size() == 4 ? fieldValue(fields[3]) : std::nullopt;
      if (fields.size() == 4 && fieldValue(fields[0]) == 0)
        return table; // the all-zero entry that ends it
      const std::optional<std::string> optionName = fields.size() == 4 ? plainStringLiteral(fields[0]) : std::nullopt;
      if (!optionName || !argument || *argument > 2 || !value)
        return std::nullopt;
      table.push_back({*optionName, *argument, flag == 0 ? *value : 0});
    }
    return table;
  }
  return std::nullopt;
}

GetoptEnd getoptRun(std::string_view optstring, const std::vector<std::string> &arguments,
                    const std::vector<LongOption> *longOptions, bool longOnly) {
  const bool stopsAtOperand = !optstring.empty() && optstring.front() == '+';
  const bool inOrder = !optstring.empty() && optstring.front() == '-'; // operands returned as options, in place
  optstring.remove_prefix(stopsAtOperand || inOrder ? 1 : 0);
  const char missing = !optstring.empty() && optstring.front() == ':' ? ':' : '?';
  GetoptEnd end;
  std::vector<std::string> operands;
  std::size_t i = 0;
  for (; i < arguments.size(); ++i) {
    const std::string &argument = arguments[i];
    if (argument == "--") {
      end.permuted.push_back(argument);
      ++i;
      break;
    }
    if (argument.size() < 2 || argument[0] != '-') {
      if (stopsAtOperand)
        break;
      operands.push_back(argument); // GNU's getopt moves it past the options
      continue;
    }
    end.permuted.push_back(argument);
    const std::size_t dashes = argument[1] == '-' ? 2 : 1;
    const std::string_view named = std::string_view(argument).substr(dashes);
    // glibc's rule: `-x` is a short option where `x` is one, else `-xyz` is tried as a long one first.
    const bool shortFirst = named.size() == 1 && optstring.find(named[0]) != std::string_view::npos;
    const LongOption *const option = longOptions && (dashes == 2 || (longOnly && !shortFirst))
                                         ? longOptionNamed(*longOptions, named.substr(0, named.find('=')))
                                         : nullptr;
    if (!option && (dashes == 2 || (longOnly && longOptions && optstring.find(named[0]) == std::string_view::npos))) {
      end.options.push_back({'?', ""}); // not in the table, or no table
      continue;
    }
    if (option) {
      const char returned = option->value > 0 && option->value < 256 ? static_cast<char>(option->value) : '\0';
      const std::size_t equals = named.find('=');
      if (option->argument == 0)
        end.options.push_back({equals == std::string_view::npos ? returned : '?', ""});
      else if (equals != std::string_view::npos)
        end.options.push_back({returned, std::string(named.substr(equals + 1))});
      else if (option->argument == 2)
        end.options.push_back({returned, ""});
      else if (i + 1 < arguments.size()) {
        end.options.push_back({returned, arguments[++i]});
        end.permuted.push_back(arguments[i]);
      } else
        end.options.push_back({missing, ""});
      continue;
    }
    for (std::size_t at = 1; at < argument.size(); ++at) {
      const char option = argument[at];
      const std::size_t spec = option == ':' ? std::string_view::npos : optstring.find(option);
      if (spec == std::string_view::npos) {
        end.options.push_back({'?', ""});
        continue;
      }
      const bool takes = spec + 1 < optstring.size() && optstring[spec + 1] == ':';
      const bool optional = takes && spec + 2 < optstring.size() && optstring[spec + 2] == ':';
      if (!takes) {
        end.options.push_back({option, ""});
      } else if (at + 1 < argument.size() || optional) {
        end.options.push_back({option, argument.substr(at + 1)}); // `-n4096`; an optional one only so
      } else if (i + 1 < arguments.size()) {
        end.options.push_back({option, arguments[++i]});
        end.permuted.push_back(arguments[i]);
      } else {
        end.options.push_back({missing, ""});
      }
      if (takes)
        break;
    }
  }
  end.optind = inOrder ? arguments.size() + 1 : end.permuted.size() + 1;
  if (inOrder)
    end.permuted = arguments;
  else
    end.permuted.insert(end.permuted.end(), operands.begin(), operands.end());
  end.permuted.insert(end.permuted.end(), arguments.begin() + static_cast<std::ptrdiff_t>(i), arguments.end());
  return end;
}

} // namespace ptxdvfs::tools
