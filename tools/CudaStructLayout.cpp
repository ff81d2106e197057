// CudaStructLayout.cpp - reading a struct's members from CUDA source and
// laying them out as C does on a 64-bit host.
#include "CudaStructLayout.h"

#include "CudaCode.h"
#include "CudaSource.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

namespace {

std::int64_t alignedUp(std::int64_t offset, std::int64_t alignment) {
  return (offset + alignment - 1) / alignment * alignment;
}

struct Layout {
  std::int64_t size = 0;
  std::int64_t alignment = 1;
  /// Offsets of the leaf members and their names from this type down
  /// (`grid.x`); one unnamed leaf for a scalar.
  std::vector<std::pair<std::int64_t, std::string>> leaves;
};

Layout scalar(std::int64_t size) { return Layout{size, size, {{0, ""}}}; }

std::optional<Layout> vectorType(const std::string &name) {
  struct Vector {
    const char *name;
    std::int64_t component, count, alignment;
  };
  static const Vector kVectors[] = {
      {"char2", 1, 2, 2},   {"uchar2", 1, 2, 2},  {"char4", 1, 4, 4},   {"uchar4", 1, 4, 4},
      {"short2", 2, 2, 4},  {"ushort2", 2, 2, 4}, {"short4", 2, 4, 8},  {"ushort4", 2, 4, 8},
      {"int2", 4, 2, 8},    {"uint2", 4, 2, 8},   {"float2", 4, 2, 8},  {"int3", 4, 3, 4},
      {"uint3", 4, 3, 4},   {"float3", 4, 3, 4},  {"dim3", 4, 3, 4},    {"int4", 4, 4, 16},
      {"uint4", 4, 4, 16},  {"float4", 4, 4, 16}, {"double2", 8, 2, 16}, {"longlong2", 8, 2, 16}};
  for (const Vector &vector : kVectors)
    if (name == vector.name) {
      Layout layout{vector.component * vector.count, vector.alignment, {}};
      for (std::int64_t i = 0; i < vector.count; ++i)
        layout.leaves.emplace_back(i * vector.component, std::string(1, "xyzw"[i]));
      return layout;
    }
  return std::nullopt;
}

/// A built-in arithmetic type named by `words` (`unsigned long long int`),
/// sized for LP64.
std::optional<Layout> arithmeticType(const std::vector<std::string> &words) {
  static const std::pair<const char *, std::int64_t> kNamed[] = {
      {"int8_t", 1},  {"uint8_t", 1},   {"bool", 1},      {"int16_t", 2},   {"uint16_t", 2},
      {"__half", 2},  {"half", 2},      {"__nv_bfloat16", 2}, {"int32_t", 4}, {"uint32_t", 4},
      {"float", 4},   {"int64_t", 8},   {"uint64_t", 8},  {"size_t", 8},    {"ptrdiff_t", 8},
      {"intptr_t", 8}, {"uintptr_t", 8}, {"double", 8}};
  if (words.size() == 1)
    for (const auto &[name, size] : kNamed)
      if (words[0] == name)
        return scalar(size);
  std::multiset<std::string> set(words.begin(), words.end());
  for (const std::string &word : set)
    if (word != "int" && word != "unsigned" && word != "signed" && word != "char" && word != "short" &&
        word != "long")
      return std::nullopt;
  if (set.empty())
    return std::nullopt;
  if (set.count("char"))
    return scalar(1);
  if (set.count("short"))
    return scalar(2);
  if (set.count("long"))
    return scalar(8);
  return scalar(4);
}

/// Where a member declaration goes on past a leading access label
/// (`public:`, spaces before it allowed); 0 where it has none.
/// `body` with each function body in it, `f(...) const { ... }`, written
/// as `;` and spaces: a member function then reads as its declaration, and
/// every offset stays.
std::string withoutFunctionBodies(std::string_view body) {
  std::string text(body);
  for (std::size_t at = text.find('{'); at != std::string::npos; at = text.find('{', at)) {
    const std::size_t end = pastClosing(text, at);
    if (end == std::string::npos)
      break;
    const std::size_t initializers = memberInitializersBefore(text, at); // a constructor's `: n_(n) {`
    const std::size_t head = codeEndBefore(
        text, functionSpecifiersBefore(text, initializers == std::string::npos ? at : initializers).start);
    if (head > 0 && text[head - 1] == ')') {
      text[at] = ';';
      std::fill(text.begin() + static_cast<std::ptrdiff_t>(at) + 1, text.begin() + static_cast<std::ptrdiff_t>(end),
                ' ');
    }
    at = end;
  }
  return text;
}

/// Whether `declaration`, in the struct `name`, declares a member function
/// that stores nothing: `int cells() const`, `static int count(int n)`;
/// not a constructor or destructor, a virtual function, an operator, or a
/// data member whose type holds parentheses (`int (*f)(int)`).
bool isMemberFunction(std::string_view declaration, const std::string &name) {
  const std::size_t open = declaration.find('(');
  const std::string_view head = declaration.substr(0, open);
  const std::vector<std::string> words = wordsIn(head);
  const std::size_t end = head.find_last_not_of(" \t\r\n");
  return !words.empty() && end != std::string_view::npos && isIdentifierChar(head[end]) &&
         head.find_first_of("<~*&") == std::string_view::npos && words.back() != name &&
         std::find_if(words.begin(), words.end(), [](const std::string &word) {
           return word == "virtual" || word == "explicit" || word == "operator";
         }) == words.end();
}

std::size_t pastAccessLabel(std::string_view declaration) {
  const std::size_t start = declaration.find_first_not_of(" \t\r\n");
  for (std::string_view label : {"public:", "private:", "protected:"})
    if (start != std::string_view::npos && declaration.substr(start, label.size()) == label)
      return start + label.size();
  return 0;
}

/// Whether a member declaration, by its words, stores nothing in the
/// object: `static` members, `typedef`s and `using`s.
bool storesNothing(const std::vector<std::string> &words) {
  return !words.empty() && (words[0] == "static" || words[0] == "typedef" || words[0] == "using");
}

/// The words of a type as declared, without its qualifiers.
std::vector<std::string> typeWords(const std::string &typeText) {
  std::vector<std::string> words;
  for (std::string &word : wordsIn(typeText))
    if (word != "const" && word != "volatile" && word != "struct" && word != "class" && word != "__restrict__")
      words.push_back(std::move(word));
  return words;
}

} // namespace

std::optional<std::int64_t> builtinTypeSize(const std::string &typeText) {
  if (typeText.find_first_not_of(" \t\r\n*") != std::string::npos && trimmed(typeText).back() == '*')
    return 8;
  if (typeText.find_first_of("*&<>():[]{}") != std::string::npos)
    return std::nullopt;
  const std::vector<std::string> words = typeWords(typeText);
  if (words.empty())
    return std::nullopt;
  std::optional<Layout> layout = arithmeticType(words);
  if (!layout && words.size() == 1)
    layout = vectorType(words[0]);
  return layout ? std::optional<std::int64_t>(layout->size) : std::nullopt;
}

class CudaStructs::Reader {
public:
  explicit Reader(const std::string &source) : source_(codeOf(source)) {}

  /// layoutOf a declared type, each type text read once.
  const std::optional<Layout> &cachedLayoutOf(const std::string &typeText) {
    auto found = cache_.find(typeText);
    if (found == cache_.end())
      found = cache_.emplace(typeText, layoutOf(typeText, 0)).first;
    return found->second;
  }

  std::optional<Layout> layoutOf(const std::string &typeText, int depth) const {
    if (depth > kMaxDepth || typeText.find_first_of("*&<>():[]{}") != std::string::npos)
      return std::nullopt;
    const std::vector<std::string> words = typeWords(typeText);
    if (words.empty())
      return std::nullopt;
    if (auto arithmetic = arithmeticType(words))
      return arithmetic;
    if (words.size() != 1)
      return std::nullopt;
    if (auto vector = vectorType(words[0]))
      return vector;
    if (auto macro = definition(words[0]))
      return layoutOf(*macro, depth + 1); // `#define fp double`, as lavaMD names its reals
    return structNamed(words[0], depth);
  }

  /// The struct `name` names: `struct name {...}`, `typedef struct [tag]
  /// {...} name;`, or `typedef other name;`.
  std::optional<Layout> structNamed(const std::string &name, int depth) const {
    const StructDefinition found = definitionOf(name);
    if (found.body)
      return bodyLayout(*found.body, depth);
    return found.renamed.empty() ? std::nullopt : layoutOf(found.renamed, depth + 1);
  }

  /// The data members of the struct `name` names, in order
  /// (CudaStructs::members()), or with `byName` those it declares plainly
  /// enough to be found by name (CudaStructs::dataMembers()).
  std::optional<std::vector<StructMember>> membersOf(const std::string &name, int depth, bool byName) const {
    const StructDefinition found = definitionOf(name);
    if (found.body)
      return memberList(*found.body, name, byName);
    const std::vector<std::string> words = typeWords(found.renamed);
    return words.size() == 1 && depth < kMaxDepth ? membersOf(words[0], depth + 1, byName) : std::nullopt;
  }

private:
  static constexpr int kMaxDepth = 6;
  static constexpr std::int64_t kMaxElements = 64;
  static constexpr std::int64_t kMaxBytes = std::int64_t{1} << 40;
  static constexpr std::size_t kMaxLeaves = 4096;

  /// Where a type name is defined: the `{` of its struct's body, or the
  /// type a `typedef other name;` renames; neither where it is not found.
  struct StructDefinition {
    std::optional<std::size_t> body;
    std::string renamed;
  };

  StructDefinition definitionOf(const std::string &name) const {
    for (std::size_t at = source_.find(name); at != std::string::npos; at = source_.find(name, at + 1)) {
      const std::size_t end = at + name.size();
      if (!isWholeWord(source_, at, name.size()))
        continue;
      const std::size_t next = source_.find_first_not_of(" \t\r\n", end);
      const std::size_t before = at == 0 ? std::string::npos : source_.find_last_not_of(" \t\r\n", at - 1);
      if (next == std::string::npos || before == std::string::npos)
        continue;
      std::vector<std::string> keyword = wordsIn(std::string_view(source_).substr(
          before >= 5 ? before - 5 : 0, before >= 5 ? 6 : before + 1));
      const bool afterKeyword = !keyword.empty() && (keyword.back() == "struct" || keyword.back() == "class");
      if (afterKeyword && source_[next] == '{')
        return {next, ""};
      if (source_[before] == '}' && (source_[next] == ';' || source_[next] == ',')) {
        if (auto open = matchingOpen(before); open && precededByTypedefStruct(*open))
          return {*open, ""};
        continue;
      }
      // `typedef other name;`
      if (source_[next] == ';') {
        const std::size_t typedefAt = source_.rfind("typedef", at);
        const std::size_t statementStart = source_.find_last_of(";{}", at);
        if (typedefAt != std::string::npos && (statementStart == std::string::npos || typedefAt > statementStart))
          return {std::nullopt, source_.substr(typedefAt + 7, at - typedefAt - 7)};
      }
    }
    return {};
  }

  /// The data members declared between the brace at `open` and its match
  /// in the struct `name`; nullopt where the body holds anything that may
  /// make them other than an aggregate's members in order (a constructor,
  /// a virtual function, a nested type, an array or a bit field). Member
  /// functions store nothing (since 2026-11-28; before, they made the
  /// struct unreadable). With `byName`, what would make the body
  /// unreadable is left out instead, and so are constructors and every
  /// declaration with parentheses.
  std::optional<std::vector<StructMember>> memberList(std::size_t open, const std::string &name, bool byName) const {
    const std::size_t close = pastClosing(source_, open);
    if (close == std::string::npos)
      return std::nullopt;
    std::vector<StructMember> members;
    std::size_t start = open + 1;
    const std::string body = withoutFunctionBodies(std::string_view(source_).substr(open + 1, close - open - 2));
    for (const std::string &part : topLevelParts(body, ';')) {
      const std::size_t partAt = start;
      start += part.size() + 1;
      const std::size_t skipped = pastAccessLabel(part);
      const std::string declaration = part.substr(skipped);
      const std::vector<std::string> words = wordsIn(declaration);
      if (words.empty() || storesNothing(words))
        continue;
      const std::size_t firstInitializer = declaration.find_first_of("={");
      if (declaration.find('(') < firstInitializer && (byName || isMemberFunction(declaration, name)))
        continue; // `int cells() const`, its body blanked
      if (declaration.find_first_of("([:") < firstInitializer || words[0] == "enum" || words[0] == "struct" ||
          words[0] == "class" || words[0] == "union" || words[0] == "friend" || words[0] == "virtual") {
        if (byName)
          continue;
        return std::nullopt;
      }
      std::size_t declaratorAt = partAt + skipped;
      std::string type;
      for (const std::string &declarator : topLevelParts(declaration)) {
        const std::size_t initializer = declarator.find_first_of("={");
        const std::optional<CudaDeclaration> split = splitDeclaration(declarator.substr(0, initializer));
        if (!split && byName)
          break;
        if (!split)
          return std::nullopt;
        type = type.empty() ? trimmed(split->type) : type; // `int a, b`: the first declarator's type serves both
        StructMember member{type, split->name, "", std::string::npos};
        if (initializer != std::string::npos) {
          const bool braced = declarator[initializer] == '{';
          const std::size_t valueEnd = braced ? declarator.rfind('}') : declarator.size();
          const std::size_t valueAt = std::min(declarator.find_first_not_of(" \t\r\n", initializer + 1), valueEnd);
          member.initializer = trimmed(std::string_view(declarator).substr(valueAt, valueEnd - valueAt));
          member.initializerAt = declaratorAt + valueAt;
        }
        members.push_back(std::move(member));
        declaratorAt += declarator.size() + 1;
      }
    }
    return members;
  }

  std::optional<std::size_t> matchingOpen(std::size_t close) const {
    int depth = 0;
    for (std::size_t at = close + 1; at-- > 0;) {
      if (source_[at] == '}')
        ++depth;
      else if (source_[at] == '{' && --depth == 0)
        return at;
    }
    return std::nullopt;
  }

  bool precededByTypedefStruct(std::size_t open) const {
    const std::size_t statementStart = source_.find_last_of(";}", open == 0 ? 0 : open - 1);
    const std::size_t from = statementStart == std::string::npos ? 0 : statementStart + 1;
    std::vector<std::string> words = wordsIn(std::string_view(source_).substr(from, open - from));
    return words.size() >= 2 && words.size() <= 3 && words[0] == "typedef" &&
           (words[1] == "struct" || words[1] == "class");
  }

  /// The layout of the members between the brace at `open` and its match.
  std::optional<Layout> bodyLayout(std::size_t open, int depth) const {
    const std::size_t close = source_.find('}', open + 1);
    if (close == std::string::npos || source_.find('{', open + 1) < close)
      return std::nullopt; // a nested definition or an inline member function
    Layout layout;
    std::size_t start = open + 1;
    for (std::size_t semicolon = source_.find(';', start); semicolon < close;
         start = semicolon + 1, semicolon = source_.find(';', start))
      if (!addMembers(source_.substr(start, semicolon - start), depth, layout))
        return std::nullopt;
    if (!trimmed(std::string_view(source_).substr(start, close - start)).empty() || layout.leaves.empty())
      return std::nullopt;
    layout.size = alignedUp(layout.size, layout.alignment);
    return layout;
  }

  /// Adds the members one declaration declares (`int a, *b, c[4]`) at the
  /// end of `layout`; false where their layout is not certain.
  bool addMembers(std::string declaration, int depth, Layout &layout) const {
    declaration = trimmed(std::string_view(declaration).substr(pastAccessLabel(declaration)));
    if (declaration.empty())
      return true;
    std::vector<std::string> words = wordsIn(declaration);
    if (storesNothing(words))
      return true;
    if (declaration.find_first_of("(:{}") != std::string::npos || (!words.empty() && words[0] == "enum"))
      return false; // functions, bit fields, qualified names, enums
    std::vector<std::string> declarators;
    for (std::size_t from = 0, comma; from <= declaration.size(); from = comma + 1) {
      comma = std::min(declaration.find(',', from), declaration.size());
      declarators.push_back(declaration.substr(from, comma - from));
    }
    // The type is what precedes the first declarator's name.
    std::optional<CudaDeclaration> first = splitDeclaration(declarators[0]);
    if (!first)
      return false;
    std::string type = first->type;
    type.erase(std::remove(type.begin(), type.end(), '*'), type.end());
    declarators[0] = declarators[0].substr(first->type.size());
    if (type.size() != first->type.size())
      declarators[0] = "*" + declarators[0];
    for (const std::string &declarator : declarators)
      if (!addMember(type, declarator.substr(0, declarator.find('=')), depth, layout))
        return false;
    return true;
  }

  bool addMember(const std::string &type, const std::string &declarator, int depth, Layout &layout) const {
    const bool pointer = declarator.find('*') != std::string::npos;
    std::vector<std::string> names = wordsIn(declarator.substr(0, declarator.find('[')));
    if (names.size() != 1)
      return false;
    std::optional<Layout> element = pointer ? std::optional<Layout>(scalar(8)) : layoutOf(type, depth + 1);
    if (!element)
      return false;
    std::int64_t count = 1;
    bool array = false;
    if (std::size_t open = declarator.find('['); open != std::string::npos) {
      const std::size_t close = declarator.find(']', open);
      auto length = close == std::string::npos ? std::nullopt : arrayLength(trimmed(declarator.substr(open + 1, close - open - 1)));
      if (!length || declarator.find('[', close) != std::string::npos)
        return false; // unknown or multi-dimensional
      count = *length;
      array = true;
    }
    // Sizes past 2^40 bytes, or more names than a reason could use, are no
    // struct a kernel is given: give up rather than overflow or blow up.
    if (element->size > kMaxBytes / count ||
        layout.leaves.size() + std::min(count, kMaxElements) * element->leaves.size() > kMaxLeaves)
      return false;
    const std::int64_t offset = alignedUp(layout.size, element->alignment);
    for (std::int64_t i = 0; i < count && i < kMaxElements; ++i)
      for (const auto &[inner, path] : element->leaves) {
        std::string name = names[0] + (array ? "[" + std::to_string(i) + "]" : "");
        layout.leaves.emplace_back(offset + i * element->size + inner, path.empty() ? name : name + "." + path);
      }
    layout.size = offset + count * element->size;
    layout.alignment = std::max(layout.alignment, element->alignment);
    return true;
  }

  /// What `#define name ...` replaces `name` with; nullopt without one.
  std::optional<std::string> definition(const std::string &name) const {
    const std::string directive = "#define " + name;
    for (std::size_t at = source_.find(directive); at != std::string::npos; at = source_.find(directive, at + 1)) {
      const std::size_t end = at + directive.size();
      if (end < source_.size() && (source_[end] == ' ' || source_[end] == '\t'))
        return trimmed(std::string_view(source_).substr(end, source_.find('\n', end) - end));
    }
    return std::nullopt;
  }

  /// A literal length, or one a `#define NAME number` gives.
  std::optional<std::int64_t> arrayLength(const std::string &text) const {
    std::string value = text;
    if (!value.empty() && !std::isdigit(static_cast<unsigned char>(value[0]))) {
      auto defined = definition(text);
      if (!defined)
        return std::nullopt;
      value = *defined;
    }
    if (value.empty() || value.size() > 9 || !std::all_of(value.begin(), value.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        }))
      return std::nullopt;
    const std::int64_t length = std::stoll(value);
    return length > 0 ? std::optional<std::int64_t>(length) : std::nullopt;
  }

  std::string source_;
  std::map<std::string, std::optional<Layout>> cache_;
};

CudaStructs::CudaStructs(const std::string &source) : reader_(std::make_unique<Reader>(source)) {}

CudaStructs::~CudaStructs() = default;

std::optional<std::vector<StructMember>> CudaStructs::members(const std::string &type) const {
  const std::vector<std::string> words = typeWords(type);
  return words.size() == 1 ? reader_->membersOf(words[0], 0, false) : std::nullopt;
}

std::optional<std::vector<StructMember>> CudaStructs::dataMembers(const std::string &type) const {
  const std::vector<std::string> words = typeWords(type);
  return words.size() == 1 ? reader_->membersOf(words[0], 0, true) : std::nullopt;
}

std::map<std::int64_t, std::string> CudaStructs::fieldNames(const std::string &type,
                                                            const std::string &variable) {
  std::map<std::int64_t, std::string> names;
  const std::optional<Layout> &layout = reader_->cachedLayoutOf(type);
  if (!layout || layout->leaves.front().second.empty())
    return names; // a scalar, or not known
  for (const auto &[offset, path] : layout->leaves)
    names.emplace(offset, variable + "." + path);
  return names;
}

} // namespace ptxdvfs::tools
