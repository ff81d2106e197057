// LaunchFlags.cpp - parsing --assume/--grid/--block, and finding parameter names in the CUDA source.
#include "LaunchFlags.h"

#include <CLI/CLI.hpp>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;

namespace {

std::string parseDim3(const std::string &text, const char *flag, ptx::analysis::Dim3 &dims) {
  std::stringstream stream(text);
  std::string part;
  std::uint32_t *fields[] = {&dims.x, &dims.y, &dims.z};
  int index = 0;
  while (std::getline(stream, part, ',')) {
    if (index == 3)
      return std::string(flag) + " takes at most three numbers, as X[,Y[,Z]]: '" + text + "'";
    try {
      std::size_t used = 0;
      unsigned long value = std::stoul(part, &used);
      if (used != part.size() || value == 0 || value > UINT32_MAX)
        throw std::invalid_argument(part);
      *fields[index++] = static_cast<std::uint32_t>(value);
    } catch (const std::exception &) {
      return std::string(flag) + " needs positive integers, as X[,Y[,Z]]: '" + text + "'";
    }
  }
  return index == 0 ? std::string(flag) + " is empty" : "";
}

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

} // namespace

void addLaunchFlags(CLI::App &command, LaunchFlags &flags) {
  const char *group = "Loop analysis (what the PTX cannot tell)";
  command.add_option("--assume", flags.assume,
                     "Value of a kernel parameter, NAME=VALUE (repeatable). NAME: the CUDA name "
                     "(found through -lineinfo's .file), the PTX name, or param_N")
      ->group(group);
  command.add_option("--grid", flags.grid, "Blocks per grid, X[,Y[,Z]] (%nctaid; default 1024)")
      ->group(group);
  command.add_option("--block", flags.block,
                     "Threads per block, X[,Y[,Z]] (%ntid; default .reqntid, else 256)")
      ->group(group);
  command.add_option("--default-trip-count", flags.defaultTripCount,
                     "Iterations of a loop whose count cannot be found")
      ->check(CLI::PositiveNumber)
      ->capture_default_str()
      ->group(group);
  command.add_option("--budget", flags.budget,
                     "Most instructions written out per kernel; longer runs sample iterations")
      ->check(CLI::PositiveNumber)
      ->capture_default_str()
      ->group(group);
  command.add_flag("--keep-loop-control", flags.keepLoopControl,
                   "Repeat counter updates, exit tests and branches in every iteration (as the "
                   "hardware runs them) instead of reading loops as full unrolling would")
      ->group(group);
}

std::string toAssumptions(const LaunchFlags &flags, const ptx::Module &module,
                          ptx::analysis::LaunchAssumptions &assumptions) {
  for (const std::string &item : flags.assume) {
    auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0)
      return "--assume needs NAME=VALUE: '" + item + "'";
    std::string value = item.substr(equals + 1);
    try {
      std::size_t used = 0;
      long long number = std::stoll(value, &used, 0);
      if (used != value.size())
        throw std::invalid_argument(value);
      assumptions.parameters[item.substr(0, equals)] = number;
    } catch (const std::exception &) {
      return "--assume needs an integer value: '" + item + "'";
    }
  }
  if (!flags.grid.empty()) {
    ptx::analysis::Dim3 dims;
    if (std::string error = parseDim3(flags.grid, "--grid", dims); !error.empty())
      return error;
    assumptions.grid = dims;
  }
  if (!flags.block.empty()) {
    ptx::analysis::Dim3 dims;
    if (std::string error = parseDim3(flags.block, "--block", dims); !error.empty())
      return error;
    assumptions.block = dims;
  }
  // Parameter names come from the CUDA source, when the PTX names a readable one.
  // nvcc writes absolute paths; a copied tree keeps the source beside the PTX.
  std::string sources;
  fs::path ptxFolder = fs::path(module.path).parent_path();
  for (const auto &[index, path] : module.files) {
    (void)index;
    for (const fs::path &candidate : {fs::path(path), ptxFolder / path, ptxFolder / fs::path(path).filename()}) {
      std::ifstream file(candidate);
      if (file) {
        std::stringstream text;
        text << file.rdbuf();
        sources += text.str() + "\n";
        break;
      }
    }
  }
  if (!sources.empty())
    for (const ptx::Function &function : module.functions) {
      auto names = cudaParameterNames(sources, baseNameOf(function.name));
      if (names.size() == function.parameters.size())
        assumptions.sourceParameterNames[function.name] = std::move(names);
    }
  return "";
}

ptx::analysis::ExpansionOptions toExpansionOptions(const LaunchFlags &flags) {
  ptx::analysis::ExpansionOptions options;
  options.budget = flags.budget;
  options.defaultTripCount = flags.defaultTripCount;
  options.keepLoopControl = flags.keepLoopControl;
  return options;
}

std::string baseNameOf(const std::string &mangled) {
  if (mangled.rfind("_Z", 0) != 0)
    return mangled;
  std::size_t at = 2;
  bool nested = at < mangled.size() && mangled[at] == 'N';
  if (nested)
    ++at;
  std::string last;
  while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at]))) {
    std::size_t length = 0;
    while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at])))
      length = length * 10 + static_cast<std::size_t>(mangled[at++] - '0');
    if (at + length > mangled.size())
      return mangled;
    last = mangled.substr(at, length);
    at += length;
    if (!nested)
      break;
  }
  return last.empty() ? mangled : last;
}

std::vector<std::string> cudaParameterNames(const std::string &source, const std::string &name) {
  for (std::size_t at = source.find(name); at != std::string::npos; at = source.find(name, at + 1)) {
    bool wholeWord = (at == 0 || !isIdentifierChar(source[at - 1])) &&
                     at + name.size() < source.size() && !isIdentifierChar(source[at + name.size()]);
    std::size_t open = source.find_first_not_of(" \t\r\n", at + name.size());
    if (!wholeWord || open == std::string::npos || source[open] != '(')
      continue;
    std::size_t lineStart = source.rfind("__global__", at);
    if (lineStart == std::string::npos || source.find(';', lineStart) < at)
      continue;
    std::vector<std::string> names;
    int depth = 0;
    std::string current;
    auto finish = [&] {
      // The last identifier of a declarator, before any `[]` or default value.
      std::string declarator = current.substr(0, current.find('='));
      declarator = declarator.substr(0, declarator.find('['));
      std::size_t end = declarator.size();
      while (end > 0 && !isIdentifierChar(declarator[end - 1]))
        --end;
      std::size_t begin = end;
      while (begin > 0 && isIdentifierChar(declarator[begin - 1]))
        --begin;
      if (end > begin)
        names.push_back(declarator.substr(begin, end - begin));
      current.clear();
    };
    for (std::size_t i = open + 1; i < source.size(); ++i) {
      char c = source[i];
      if (c == '(' || c == '<' || c == '[')
        ++depth;
      else if ((c == ')' || c == '>' || c == ']') && depth > 0)
        --depth;
      else if (c == ')' && depth == 0) {
        finish();
        return names;
      } else if (c == ',' && depth == 0) {
        finish();
        continue;
      }
      current += c;
    }
  }
  return {};
}

} // namespace ptxdvfs::tools
