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

const std::vector<ConstantFolder::Impl::ReferenceParameters> &
ConstantFolder::Impl::referenceParametersOf(const std::string &callee) const {
  auto cached = referenceParameters_.find(callee);
  if (cached != referenceParameters_.end())
    return cached->second;
  std::vector<ReferenceParameters> definitions;
  bool anyReference = false;
  for (std::size_t file = 0; file < files_.size(); ++file)
    for (int body : files_[file].functionBodiesNamed(callee)) {
      ReferenceParameters definition{file, body, 0, {}};
      for (const std::string &parameter : files_[file].parametersOf(body)) {
        if (trimmed(parameter).empty() || trimmed(parameter) == "void")
          continue; // `f()`, `f(void)`
        definition.required += plainAssignment(parameter) == std::string::npos ? 1 : 0;
        const std::vector<std::string> words = wordsIn(parameter);
        const std::optional<CudaDeclaration> declared = splitDeclaration(parameter);
        const bool changes = parameter.find('&') != std::string::npos && parameter.find("&&") == std::string::npos &&
                             std::count(words.begin(), words.end(), "const") == 0 && declared;
        definition.references.push_back(changes ? declared->name : std::string());
        anyReference = anyReference || changes;
      }
      definitions.push_back(std::move(definition));
    }
  if (!anyReference)
    definitions.clear(); // nothing of it changes what a call passes: no need to look further
  return referenceParameters_.emplace(callee, std::move(definitions)).first->second;
}

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
  const std::vector<ReferenceParameters> &definitions = referenceParametersOf(callee);
  if (definitions.empty())
    return std::nullopt; // not defined in the files, or taking nothing by reference
  const auto [arguments, index] = argumentCountAndIndex(code, open, at);
  std::optional<OutArgument> out;
  for (const ReferenceParameters &definition : definitions) {
    if (definition.definedIn != file && !seen_[file][definition.definedIn])
      continue; // another program's
    if (index >= definition.references.size() || arguments > definition.references.size() ||
        arguments < definition.required || definition.references[index].empty())
      continue; // another overload (another number of arguments), or one that cannot change it
    // Overloads that may change it: which one the call takes is not read.
    out = out ? OutArgument{callee, "", definition.definedIn, -1, nameStart}
              : OutArgument{callee, definition.references[index], definition.definedIn, definition.body, nameStart};
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
