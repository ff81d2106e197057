// CudaSymbolCopies.cpp - the values `cudaMemcpyToSymbol` copies into
// `__constant__` variables, folded where each copy is written.
#include "CudaSymbolCopies.h"

#include "CudaCode.h"
#include "CudaConstants.h"
#include "CudaStructLayout.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

namespace ptxdvfs::tools {
namespace {

using Written = std::map<std::string, SymbolWrite, std::less<>>;

/// `&name`, `&name[0]` or `name` (an array decays) as the name of what a copy reads; empty for anything else.
std::string sourceName(const std::string &argument) {
  std::string text = trimmed(argument);
  if (!text.empty() && text.front() == '&')
    text = trimmed(std::string_view(text).substr(1));
  if (const std::size_t open = text.find('['); open != std::string::npos) {
    const std::string index = trimmed(std::string_view(text).substr(open + 1));
    if (index != "0]" && index != "0 ]")
      return std::string();
    text = trimmed(std::string_view(text).substr(0, open));
  }
  const bool name = !text.empty() && !std::isdigit(static_cast<unsigned char>(text[0])) &&
                    std::all_of(text.begin(), text.end(), isIdentifierChar);
  return name ? text : std::string();
}

/// The name `--assume` takes for `bytes` into `symbol`.
std::string partName(const std::string &symbol, std::int64_t bytes) {
  return bytes == 0 ? symbol : symbol + "+" + std::to_string(bytes);
}

/// What one copy (`copy`, the runtime's function) at `call` of `file`
/// writes into `symbol` (of the CUDA type `type`, empty where the source
/// declares none), part by part; nullopt where it writes what the source
/// does not fix.
std::optional<Written> copyWrites(const ConstantFolder &folder, CudaStructs &structs, const std::string &copy,
                                  std::size_t file, std::size_t call, const std::vector<std::string> &arguments,
                                  const std::string &symbol, const std::string &type) {
  const std::string read = arguments.size() >= 2 ? sourceName(arguments[1]) : std::string();
  if (read.empty())
    return std::nullopt;
  if (arguments.size() >= 4) { // an offset into the symbol
    const std::optional<ptx::analysis::AssumedValue> offset = folder.value(file, call, arguments[3]);
    if (!offset || offset->whole() != 0)
      return std::nullopt;
  }
  const std::string at = "`" + copy + "` at " + folder.files()[file].where(call);
  Written written;
  auto add = [&](std::int64_t bytes, const std::string &expression) {
    std::string how;
    const std::optional<ptx::analysis::AssumedValue> value = folder.value(file, call, expression, &how);
    if (!value)
      return false;
    written.emplace(partName(symbol, bytes),
                    SymbolWrite{*value, at + " writes `" + expression + "` = " + value->text() +
                                            (how.empty() ? "" : "; " + how)});
    return true;
  };
  // An array's elements, each at its offset.
  if (const std::optional<std::uint64_t> count = folder.elementsOf(file, call, read); count && *count > 0) {
    const std::optional<ptx::analysis::AssumedValue> size = folder.value(file, call, "sizeof(" + read + "[0])");
    constexpr std::uint64_t kMostElements = 64;
    if (!size || !size->whole() || *size->whole() <= 0 || *count > kMostElements)
      return std::nullopt;
    for (std::uint64_t index = 0; index < *count; ++index)
      if (!add(static_cast<std::int64_t>(index) * *size->whole(), read + "[" + std::to_string(index) + "]"))
        return std::nullopt;
    return written;
  }
  // A struct's fields, laid out as the symbol's type.
  if (const std::map<std::int64_t, std::string> fields = type.empty() ? std::map<std::int64_t, std::string>()
                                                                       : structs.fieldNames(type, read);
      !fields.empty()) {
    for (const auto &[bytes, path] : fields)
      add(bytes, path); // a field the source does not fix is left out, the others kept
    return written;
  }
  if (!add(0, read))
    return std::nullopt;
  return written;
}

} // namespace

std::map<std::string, SymbolWrite, std::less<>> sourceSymbolWrites(const ptx::Module &module,
                                                                   const ConstantFolder &folder) {
  Written result;
  std::set<std::string, std::less<>> symbols;
  for (const ptx::VariableDecl &variable : module.globals)
    if (variable.space == ptx::StateSpace::Const)
      symbols.insert(variable.name);
  if (symbols.empty() || folder.files().empty())
    return result;
  std::string text;
  for (const CudaCode &file : folder.files())
    text += file.text() + "\n";
  std::map<std::string, std::string, std::less<>> types; // each symbol's CUDA type, where the source declares it
  for (const CudaDeclaration &declared : cudaConstantVariables(text))
    types.emplace(declared.name, declared.type);
  CudaStructs structs(text);
  std::map<std::string, std::optional<Written>, std::less<>> bySymbol; // nullopt: some copy is not read
  for (const char *copy : {"cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync"})
    for (const auto &[file, call] : folder.callsOf(copy)) {
      const std::string &code = folder.files()[file].code();
      const std::size_t open = code.find('(', call);
      const std::optional<std::vector<std::string>> arguments =
          open == std::string::npos ? std::nullopt : partsInParentheses(code, open);
      const std::string symbol = arguments && !arguments->empty() ? trimmed((*arguments)[0]) : std::string();
      if (!symbols.count(symbol))
        continue; // another module's, or a symbol named by a string or an expression
      const auto type = types.find(symbol);
      std::optional<Written> writes =
          copyWrites(folder, structs, copy, file, call, *arguments, symbol, type == types.end() ? "" : type->second);
      auto [known, first] = bySymbol.emplace(symbol, writes);
      if (first || !known->second)
        continue;
      if (!writes) {
        known->second.reset();
        continue;
      }
      // Two copies: the parts they agree on.
      for (auto part = known->second->begin(); part != known->second->end();) {
        const auto other = writes->find(part->first);
        const bool same = other != writes->end() && other->second.value.number() == part->second.value.number();
        part = same ? std::next(part) : known->second->erase(part);
      }
    }
  for (auto &[symbol, writes] : bySymbol)
    if (writes)
      result.merge(*writes);
  return result;
}

} // namespace ptxdvfs::tools
