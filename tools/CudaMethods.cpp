// CudaMethods.cpp - what a member function returns for one object, where
// its body is one `return` of arithmetic on the object's members:
// `struct Grid { int nx = 512, ny = 256; int cells() const { return nx * ny; } };`
// then `k<<<g.cells() / 256, 256>>>`.
#include "CudaConstantsImpl.h"

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

std::optional<Number> ConstantFolder::Impl::method(std::size_t file, std::size_t offset, const std::string &object,
                                                   const std::string &method, const std::vector<Number> &arguments,
                                                   int depth) const {
  ReturnFunction definition;
  if (depth >= kMaxDepth || returnFunction(file, method, definition) != Lookup::Found ||
      arguments.size() != definition.parameters.size())
    return std::nullopt;
  const CudaCode &source = files_[definition.file];
  const int classBody = source.parentOf(source.blockAt(definition.offset));
  const std::string className = classBody < 0 ? std::string() : source.classNameOf(classBody);
  if (className.empty())
    return std::nullopt; // a free function of that name: `rng.cells()` is another class's
  const StructFound members = structMembers(definition.file, className, true);
  const auto isMember = [&](const std::string &name) {
    return members.members && std::any_of(members.members->begin(), members.members->end(),
                                          [&](const StructMember &member) { return member.name == name; });
  };
  // The body's expression as written at the call: parameters by value, the object's members by path.
  std::string text;
  const std::vector<Token> &tokens = definition.expression;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token &token = tokens[i];
    const bool qualified = i > 0 && (tokens[i - 1].text == "." || tokens[i - 1].text == "::");
    const bool called = i + 1 < tokens.size() && tokens[i + 1].text == "(";
    std::string written = token.text;
    if (token.kind == Token::Name && !qualified) {
      const auto parameter =
          std::find_if(definition.parameters.begin(), definition.parameters.end(),
                       [&](const auto &declared) { return declared.second == token.text; });
      if (parameter != definition.parameters.end()) {
        const std::optional<Number> value =
            converted(arguments[static_cast<std::size_t>(parameter - definition.parameters.begin())], parameter->first);
        if (!value)
          return std::nullopt;
        written = "(" + shownNumber(*value) + ")";
      } else if (called ? source.definesMethod(token.text) : isMember(token.text)) {
        written = object + "." + token.text; // `cells()` in `blocks()` is the object's
      }
    }
    text += written + " ";
  }
  examined_ += tokens.size();
  if (examined_ > kMaxNamesExamined)
    return std::nullopt;
  const std::optional<Number> result = number(file, offset, text, depth + 1);
  return result ? converted(*result, definition.returnType) : std::nullopt;
}

} // namespace ptxdvfs::tools
