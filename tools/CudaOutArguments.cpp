// CudaOutArguments.cpp - what a host call leaves in a variable it takes by
// reference (`void sizes(int n, int &blocks)`): the value the callee's
// body gives that parameter, read as any variable of it.
#include "CudaConstantsImpl.h"
#include "CudaStatements.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

std::optional<ConstantFolder::Impl::OutArgument> ConstantFolder::Impl::outArgument(std::size_t file, std::size_t at,
                                                                                   std::size_t length) const {
  const std::string &code = files_[file].code();
  const std::size_t previous = codeEndBefore(code, at);
  const std::size_t next = code.find_first_not_of(" \t\r\n", at + length);
  if (previous == 0 || next == std::string::npos || (code[previous - 1] != '(' && code[previous - 1] != ',') ||
      (code[next] != ')' && code[next] != ','))
    return std::nullopt;
  const std::size_t open = parenthesisAround(code, at);
  const std::size_t nameEnd = open == std::string::npos ? open : codeEndBefore(code, open);
  std::size_t nameStart = nameEnd != std::string::npos && nameEnd > 0 && code[nameEnd - 1] == '>'
                              ? openingOf(code, nameEnd - 1) // `sizes<float>(...)`
                              : open;
  const std::string callee = open == std::string::npos ? std::string() : wordBefore(code, nameStart);
  static const std::set<std::string, std::less<>> kNotCalls{"if", "while", "for", "switch", "return", "sizeof",
                                                           "catch", "__launch_bounds__"};
  if (callee.empty() || kNotCalls.count(callee) ||
      (nameStart > 0 && (code[nameStart - 1] == '.' || (nameStart > 1 && code.compare(nameStart - 2, 2, "->") == 0))))
    return std::nullopt; // no call, or a member's, whose definition is not read
  auto cached = definitions_.find(callee);
  if (cached == definitions_.end()) {
    std::vector<std::pair<std::size_t, int>> bodies;
    for (std::size_t other = 0; other < files_.size(); ++other)
      for (int body : files_[other].functionBodiesNamed(callee))
        bodies.emplace_back(other, body);
    cached = definitions_.emplace(callee, std::move(bodies)).first;
  }
  const std::size_t index = topLevelParts(std::string_view(code).substr(open + 1, at - open - 1)).size() - 1;
  const std::size_t close = pastClosing(code, open);
  const std::size_t arguments =
      close == std::string::npos ? 0 : topLevelParts(std::string_view(code).substr(open + 1, close - open - 2)).size();
  std::optional<OutArgument> out;
  for (const auto &[definedIn, body] : cached->second) {
    if (definedIn != file && !seen_[file][definedIn])
      continue; // another program's
    const CudaCode &defining = files_[definedIn];
    const std::size_t list = defining.parameterListOf(defining.openBraceOf(body));
    const std::size_t listEnd = list == std::string::npos ? list : pastClosing(defining.code(), list);
    const std::vector<std::string> parameters =
        listEnd == std::string::npos ? std::vector<std::string>{}
                                     : topLevelParts(std::string_view(defining.code()).substr(list + 1, listEnd - list - 2));
    const bool viable = parameters.size() >= arguments &&
                        std::all_of(parameters.begin() + static_cast<std::ptrdiff_t>(arguments), parameters.end(),
                                    [](const std::string &rest) { return plainAssignment(rest) != std::string::npos; });
    if (index >= parameters.size() || !viable)
      continue; // another overload: the call passes another number of arguments
    const std::string &parameter = parameters[index];
    const std::vector<std::string> words = wordsIn(parameter);
    if (parameter.find('&') == std::string::npos || parameter.find("&&") != std::string::npos ||
        std::count(words.begin(), words.end(), "const") > 0)
      continue; // by value, or a reference it cannot change
    const std::optional<CudaDeclaration> declared = splitDeclaration(parameter);
    // Overloads that may change it: which one the call takes is not read.
    out = out || !declared ? OutArgument{callee, "", definedIn, -1, nameStart}
                           : OutArgument{callee, declared->name, definedIn, body, nameStart};
  }
  return out;
}

std::optional<Definition> ConstantFolder::Impl::valueLeftBy(const OutArgument &out, int depth) const {
  if (out.body < 0)
    return std::nullopt;
  const CudaCode &defining = files_[out.definedIn];
  const std::size_t open = defining.openBraceOf(out.body);
  const std::size_t end = defining.pastBlockOpenedAt(open);
  if (end == std::string::npos || end < open + 3 || depth >= kMaxDepth)
    return std::nullopt;
  // Read just before the body's `}` (which blockAt() reads as outside it), its parameters as every call
  // passes them. Not scoped to this call: that would change the calls read (readCalls()) under a fold
  // that holds what they cache.
  Definition left("", out.definedIn, end - 2, false);
  if ((left.number = number(out.definedIn, end - 2, out.parameter, depth + 1)))
    return left;
  if ((left.dims = dimension(out.definedIn, end - 2, out.parameter, depth + 1))) { // `dim3 &grid`
    left.dim3 = true;
    return left;
  }
  return std::nullopt;
}

} // namespace ptxdvfs::tools
