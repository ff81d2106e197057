// CudaContainers.cpp - the size of a host container the code sizes where it
// declares it and never resizes: `std::vector<float> host(n, 1.0f)` then
// `k<<<(host.size() + 255) / 256, 256>>>(d, host.size())`, Thrust's host
// and device vectors, `std::array<float, N>`; and an element of a plain
// array that its declaration lists and nothing writes (`int sizes[] = {1,
// 8, 32, 64}; n = sizes[size - 1];`, the problem sizes of benchmarks).
#include "CudaConstantsImpl.h"

#include "CudaCommandLine.h"
#include "CudaStatements.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

/// What a container's declaration says of its size: the text of its
/// element count, or the number of elements its braced list holds.
struct ContainerDeclaration {
  std::string count;     ///< an expression; empty where `elements` gives the size
  std::size_t elements = 0;
  std::vector<std::string> listed; ///< the braced list's elements as written, where one gives them
};

/// The elements of the braced list `text` (`{1, 8, 32}`, spaces around
/// allowed) as written; nullopt where `text` is no braced list.
std::optional<std::vector<std::string>> bracedElements(std::string_view text) {
  const std::string list = trimmed(text);
  if (list.size() < 2 || list.front() != '{' || list.back() != '}')
    return std::nullopt;
  std::vector<std::string> listed = topLevelParts(std::string_view(list).substr(1, list.size() - 2));
  if (!listed.empty() && trimmed(listed.back()).empty())
    listed.pop_back(); // `{1, 2,}`, or `{}`
  return listed;
}

/// The elements of the braced list that opens at `open`; nullopt where it does not close.
std::optional<std::vector<std::string>> listAt(const std::string &code, std::size_t open) {
  const std::size_t end = pastClosing(code, open);
  return end == std::string::npos ? std::nullopt : bracedElements(std::string_view(code).substr(open, end - open));
}

/// The declaration of a sized container whose name starts at `at`:
/// `std::vector<T> v(n)`, `v(n, value)`, `v(p, p + n)`, `v = {a, b}`, `v{a, b}`, `v;`,
/// Thrust's `host_vector`/`device_vector` alike, `std::array<T, N> v`;
/// nullopt where `at` declares no such container (a use, another type).
std::optional<ContainerDeclaration> containerDeclaredAt(const std::string &code, std::size_t at,
                                                        std::size_t length) {
  static const std::set<std::string, std::less<>> kVectors{"vector", "host_vector", "device_vector"};
  const std::size_t typeEnd = codeEndBefore(code, at);
  if (typeEnd == 0 || code[typeEnd - 1] != '>')
    return std::nullopt;
  std::size_t template_ = openingOf(code, typeEnd - 1);
  if (code[template_] != '<')
    return std::nullopt;
  const std::vector<std::string> arguments =
      topLevelParts(std::string_view(code).substr(template_ + 1, typeEnd - template_ - 2));
  const std::string type = wordBefore(code, template_);
  std::size_t next = code.find_first_not_of(" \t\r\n", at + length);
  if (next == std::string::npos)
    return std::nullopt;
  if (type != "array" && !kVectors.count(type))
    return std::nullopt;
  if (code[next] == '=')
    next = code.find_first_not_of(" \t\r\n", next + 1);
  if (next == std::string::npos)
    return std::nullopt;
  if (type == "array") { // fixed by its type, whatever initializes it
    std::optional<std::vector<std::string>> listed = code[next] == '{' ? listAt(code, next) : std::nullopt;
    if (arguments.size() != 2)
      return std::nullopt;
    return ContainerDeclaration{arguments[1], 0, listed.value_or(std::vector<std::string>())};
  }
  if (code[next] == ';' || code[next] == ',')
    return ContainerDeclaration{"", 0, {}};
  if (code[next] == '(') { // `v(n)`, `v(n, value)`, or `v(p + k, p + n)`: the n - k elements from p
    const std::optional<std::vector<std::string>> parts = partsInParentheses(code, next);
    const std::optional<PointerRange> range =
        parts && parts->size() == 2 ? pointerRange((*parts)[0], (*parts)[1]) : std::nullopt;
    if (range)
      return ContainerDeclaration{"(" + range->to + ") - (" + range->from + ")", 0, {}};
    return parts && (parts->size() == 1 || parts->size() == 2)
               ? std::optional(ContainerDeclaration{parts->front(), 0, {}})
               : std::nullopt;
  }
  if (code[next] == '{') { // the elements it lists
    std::optional<std::vector<std::string>> listed = listAt(code, next);
    return listed ? std::optional(ContainerDeclaration{"", listed->size(), std::move(*listed)}) : std::nullopt;
  }
  return std::nullopt; // a copy, a call's result
}

/// Whether the use of a container whose name ends at `end` only reads it,
/// leaving its size as it was: an element (`v[i]`), a member call that
/// changes no size (`v.data()`, `v.size()`, `v.begin()`), or the range of
/// a `for` (`for (float &e : v)`).
bool keepsSize(const std::string &code, std::size_t start, std::size_t end) {
  static const std::set<std::string, std::less<>> kReads{"size",   "data", "begin", "end",  "cbegin",   "cend",
                                                         "rbegin", "rend", "front", "back", "at",       "empty",
                                                         "reserve", "capacity"};
  const std::size_t next = code.find_first_not_of(" \t\r\n", end);
  if (next == std::string::npos)
    return false;
  if (code[next] == '[')
    return true;
  if (code[next] == '.') {
    const std::size_t methodAt = code.find_first_not_of(" \t\r\n", next + 1);
    const std::string method = firstWordOf(std::string_view(code).substr(next + 1));
    const std::size_t call =
        methodAt == std::string::npos ? methodAt : code.find_first_not_of(" \t\r\n", methodAt + method.size());
    return kReads.count(method) && call != std::string::npos && code[call] == '(';
  }
  const std::size_t previous = codeEndBefore(code, start);
  return code[next] == ')' && previous > 0 && code[previous - 1] == ':' &&
         (previous < 2 || code[previous - 2] != ':'); // `: v)`, not `ns::v)`
}

/// A range `for`'s head that declares the name at `at`: the head, where
/// its `for` is, and where its range starts.
struct RangeForHead {
  RangeFor ranged;
  std::size_t keyword = 0, rangeAt = 0;
};

std::optional<RangeForHead> rangeForDeclaring(const std::string &code, std::size_t at) {
  const std::size_t open = parenthesisAround(code, at);
  std::size_t keyword = open;
  if (open == std::string::npos || wordBefore(code, keyword) != "for")
    return std::nullopt;
  const std::size_t close = pastClosing(code, open);
  std::optional<RangeFor> ranged =
      close == std::string::npos ? std::nullopt : rangeFor(std::string_view(code).substr(open + 1, close - open - 2));
  const std::size_t rangeAt = open + 1 + (ranged ? ranged->rangeAt : 0);
  if (!ranged || at >= rangeAt || code.compare(at, ranged->name.size(), ranged->name) != 0)
    return std::nullopt;
  return RangeForHead{std::move(*ranged), keyword, rangeAt};
}

/// How many elements a mean stands for at most: past it, the element it stands in the middle of.
constexpr std::int64_t kMostElementsMeaned = 64;

/// The mean of `values`, a whole number (rounded) where they all are;
/// nullopt where one is missing, or there are none.
std::optional<Number> meanOf(const std::vector<std::optional<Number>> &values) {
  double sum = 0;
  bool real = false;
  for (const std::optional<Number> &value : values) {
    if (!value)
      return std::nullopt;
    sum += value->asReal();
    real = real || value->real;
  }
  const double average = sum / static_cast<double>(values.size());
  if (values.empty() || !std::isfinite(average))
    return std::nullopt;
  if (real)
    return Number{true, 0, average};
  const std::optional<std::int64_t> whole = truncated(std::round(average));
  return whole ? std::optional<Number>(Number{false, *whole, 0}) : std::nullopt;
}

} // namespace

std::optional<Number> ConstantFolder::Impl::containerSize(std::size_t file, std::size_t before,
                                                          const std::string &name, int depth) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  const int useBlock = source.blockAt(before);
  if (depth >= kMaxDepth || name.empty())
    return std::nullopt;
  for (const std::size_t at : source.wordsBefore(name, before)) {
    if (++examined_ > kMaxNamesExamined)
      return std::nullopt;
    if (afterMemberAccess(code, at) || afterScopeOperator(code, at))
      continue; // another object's member, or a qualified name
    const std::optional<ContainerDeclaration> declared = containerDeclaredAt(code, at, name.size());
    if (!declared) {
      if (!keepsSize(code, at, at + name.size()))
        return std::nullopt; // `v.push_back(x)`, `v = w`, `fill(v)`: it may have another size now
      continue;
    }
    const int declaredIn = source.blockAt(at);
    if (!source.encloses(declaredIn, useBlock) || !source.insideFunction(declaredIn) ||
        source.parameterListAround(at))
      return std::nullopt; // another scope's, a global any function may resize, or a parameter
    const Number listed{false, static_cast<std::int64_t>(declared->elements), 0};
    const std::optional<Number> size =
        declared->count.empty() ? std::optional(listed) : number(file, at, declared->count, depth + 1);
    if (!size || size->real)
      return std::nullopt;
    note({"`" + name + ".size()` = " + shownNumber(*size) + ", as `" + name + "` is declared at " + source.where(at)});
    return size;
  }
  return std::nullopt;
}

std::optional<ArrayDeclaration> ConstantFolder::Impl::containerList(std::size_t file, std::size_t before,
                                                                     const std::string &name, int depth) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  for (const std::size_t at : source.wordsBefore(name, before)) {
    if (++examined_ > kMaxNamesExamined)
      return std::nullopt;
    if (afterMemberAccess(code, at) || afterScopeOperator(code, at))
      continue;
    std::optional<ContainerDeclaration> declared = containerDeclaredAt(code, at, name.size());
    bool container = declared.has_value();
    const std::size_t previous = codeEndBefore(code, at);
    const bool ranged = previous > 0 && code[previous - 1] == ':'; // `for (const Case &c : cases)` uses it
    if (const std::vector<std::string> type = declaredTypeBefore(code, at);
        !declared && !ranged && declaresName(type)) {
      // An array of a type the folder does not take for a number: `Case cases[] = {{1 << 20, 256}, ...};`
      const std::size_t open = code.find_first_not_of(" \t\r\n", at + name.size());
      const std::size_t close = open == std::string::npos || code[open] != '[' ? open : pastClosing(code, open);
      std::size_t list = close == std::string::npos ? close : code.find_first_not_of(" \t\r\n", close);
      if (list != std::string::npos && code[list] == '=')
        list = code.find_first_not_of(" \t\r\n", list + 1);
      if (list == std::string::npos || code[open] != '[' || code[list] != '{')
        return std::nullopt; // declared otherwise
      const std::string length = trimmed(std::string_view(code).substr(open + 1, close - open - 2));
      declared = ContainerDeclaration{length, 0, listAt(code, list).value_or(std::vector<std::string>())};
    }
    if (!declared)
      continue; // a use: arrayWritten() reads whether it writes
    if (!source.encloses(source.blockAt(at), source.blockAt(before)) || source.parameterListAround(at) ||
        declared->listed.empty())
      return std::nullopt; // another scope's, a parameter, or not given its elements
    const std::size_t start = statementStartAround(code, at);
    ArrayDeclaration array{file, at, wordsIn(std::string_view(code).substr(start, at - start)), declared->listed,
                           static_cast<std::int64_t>(declared->listed.size())};
    if (!declared->count.empty()) { // `std::array<int, 4>`: its length
      const std::optional<Number> count = number(file, at, declared->count, depth + 1);
      array.length = count && !count->real && count->whole >= *array.length ? std::optional(count->whole)
                                                                            : std::nullopt;
    }
    array.container = container;
    return array;
  }
  return std::nullopt;
}

std::optional<ArrayDeclaration> ConstantFolder::Impl::arrayDeclaration(std::size_t file, std::size_t before,
                                                                        const std::string &name, int depth) const {
  Definition found;
  if (depth >= kMaxDepth)
    return std::nullopt;
  if (define(file, before, name, depth, found) != Lookup::Found || found.number || found.dims)
    return containerList(file, before, name, depth);
  const std::string &code = files_[found.file].code();
  // The declarator `name[length]` (one dimension) and its braced list, which variable() keeps whole.
  const std::size_t open = code.find_first_not_of(" \t\r\n", found.offset + name.size());
  std::optional<std::vector<std::string>> listed = bracedElements(found.text);
  if (code.compare(found.offset, name.size(), name) != 0 || open == std::string::npos || code[open] != '[' || !listed)
    return std::nullopt;
  const std::size_t close = pastClosing(code, open);
  const std::size_t after = close == std::string::npos ? close : code.find_first_not_of(" \t\r\n", close);
  if (after == std::string::npos || code[after] == '[')
    return std::nullopt;
  ArrayDeclaration declared{found.file, found.offset, declaredTypeBefore(code, found.offset), std::move(*listed),
                            std::nullopt};
  const std::string length = trimmed(std::string_view(code).substr(open + 1, close - open - 2));
  const std::optional<Number> count = length.empty() ? std::nullopt : number(found.file, open, length, depth + 1);
  declared.length = length.empty() ? std::optional<std::int64_t>(declared.listed.size())
                    : count && !count->real && count->whole >= 0 ? std::optional<std::int64_t>(count->whole)
                                                                 : std::nullopt;
  return declared;
}

bool ConstantFolder::Impl::arrayWritten(const ArrayDeclaration &array, const std::string &name) const {
  if (std::count(array.type.begin(), array.type.end(), "const") ||
      std::count(array.type.begin(), array.type.end(), "constexpr"))
    return false;
  const auto known = remembered_.arraysWritten.find({array.file, array.at});
  if (known != remembered_.arraysWritten.end())
    return known->second;
  return remembered_.arraysWritten[{array.file, array.at}] = writesArray(array, name);
}

bool ConstantFolder::Impl::writesArray(const ArrayDeclaration &array, const std::string &name) const {
  // In the block that declares a local; anywhere for a global.
  const CudaCode &declaring = files_[array.file];
  const int block = declaring.blockAt(array.at);
  const bool local = declaring.insideFunction(block);
  for (std::size_t other = 0; other < files_.size(); ++other) {
    if (local && other != array.file)
      continue;
    const std::string &text = files_[other].code();
    const std::size_t from = local ? array.at + name.size() : 0;
    const std::size_t to = local ? declaring.pastBlockOpenedAt(declaring.openBraceOf(block)) : text.size();
    for (std::size_t at = text.find(name, from); at != std::string::npos && at < to;
         at = text.find(name, at + name.size())) {
      if (++examined_ > kMaxNamesExamined)
        return true;
      if (isWholeWord(text, at, name.size()) && !afterMemberAccess(text, at) && !afterScopeOperator(text, at) &&
          !(other == array.file && at == array.at) && !readsElementOnly(text, at, name.size()) &&
          !passedToBeRead(text, at, name.size()))
        return true;
    }
  }
  return false;
}

std::optional<Number> ConstantFolder::Impl::arrayElement(std::size_t file, std::size_t before, const std::string &name,
                                                         const std::string &fields, const std::string &indexText,
                                                         const std::function<std::optional<Number>()> &index,
                                                         int depth) const {
  const std::optional<ArrayDeclaration> array = arrayDeclaration(file, before, name, depth);
  if (!array || arrayWritten(*array, name))
    return std::nullopt;
  auto elementAt = [&](const std::optional<Number> &position) -> std::optional<Number> {
    return position && !position->real ? listedElement(*array, position->whole, fields, depth) : std::nullopt;
  };
  // The notes of the index and the element are set aside: a mean over a counter tells its own.
  std::vector<std::string> aside, *const outer = notes_;
  notes_ = outer ? &aside : nullptr;
  const std::size_t middlesBefore = middles_;
  lastMiddle_.reset();
  const std::optional<Number> position = index();
  const std::optional<Number> value = elementAt(position);
  const std::optional<CounterRead> counter = value && middles_ == middlesBefore + 1 ? lastMiddle_ : std::nullopt;
  // `for (s = 0; s < 4; ++s) n = sizes[s];`: each launch reads its own element, so their mean stands for them.
  std::optional<Number> mean;
  const std::string key = counter ? std::to_string(array->file) + ":" + std::to_string(array->at) + ":" +
                                        std::to_string(counter->file) + ":" + std::to_string(counter->loop) + ":" +
                                        std::to_string(position->whole) + ":" + indexText + "." + fields
                                  : std::string();
  const auto cached = remembered_.meansFound.find(key);
  if (cached != remembered_.meansFound.end()) {
    mean = cached->second;
  } else if (counter && counter->range.count <= static_cast<std::uint64_t>(kMostElementsMeaned)) {
    const CountedRange &range = counter->range;
    const std::pair<std::size_t, std::size_t> loop{counter->file, counter->loop};
    notes_ = nullptr;
    std::vector<std::optional<Number>> elements;
    std::int64_t counted = range.start;
    for (std::uint64_t step = 0; step < range.count; ++step, counted = step < range.count ? range.next(counted) : 0) {
      countersSet_[loop] = counted;
      forgetParametersFound(); // found with the counter's middle
      elements.push_back(elementAt(index())); // none past the list: no mean, and no element stands for them
    }
    countersSet_.erase(loop);
    forgetParametersFound();
    mean = meanOf(elements);
    remembered_.meansFound.emplace(key, mean);
  }
  notes_ = outer;
  if (counter && counter->range.count <= static_cast<std::uint64_t>(kMostElementsMeaned) && !mean)
    return std::nullopt;
  if (mean) {
    note({"`" + name + "[...]" + (fields.empty() ? "" : "." + fields) + "` = " + shownNumber(*mean) +
          ", the mean over the " + std::to_string(counter->range.count) + " values of `" + counter->counter +
          "` in " + counter->header + " at " + files_[counter->file].where(counter->loop)});
    return mean;
  }
  note(std::move(aside));
  if (value)
    note({"`" + name + "[" + std::to_string(position->whole) + "]" + (fields.empty() ? "" : "." + fields) + "` = " +
          shownNumber(*value) + ", as `" + name + "` is declared at " + files_[array->file].where(array->at)});
  return value;
}

std::optional<std::uint64_t> ConstantFolder::Impl::elementsOf(std::size_t file, std::size_t offset,
                                                              const std::string &range, int depth) const {
  if (const std::optional<std::vector<std::string>> listed = bracedElements(range))
    return listed->size();
  const std::string written = trimmed(range);
  if (written.empty() || !std::all_of(written.begin(), written.end(), isIdentifierChar))
    return std::nullopt;
  if (const std::optional<ArrayDeclaration> array = arrayDeclaration(file, offset, written, depth))
    return array->length && *array->length >= 0 ? std::optional<std::uint64_t>(*array->length) : std::nullopt;
  const std::optional<Number> size = containerSize(file, offset, written, depth + 1);
  return size && !size->real && size->whole >= 0 ? std::optional<std::uint64_t>(size->whole) : std::nullopt;
}

std::optional<Number> ConstantFolder::Impl::listedElement(const ArrayDeclaration &array, std::int64_t index,
                                                          const std::string &fields, int depth) const {
  const std::string type = fields.empty() ? std::string() : structNamedBy(array.type);
  if (index < 0 || (!fields.empty() && type.empty()))
    return std::nullopt;
  if (static_cast<std::size_t>(index) >= array.listed.size()) // past the list, within the array: value-initialized
    return array.length && index < *array.length ? std::optional(Number{}) : std::nullopt;
  const std::string &element = array.listed[index];
  if (fields.empty())
    return number(array.file, array.at, element, depth + 1);
  Definition member;
  if (memberOfValue(array.file, array.at, type, trimmed(element), true, fields, depth + 1, member) != Lookup::Found ||
      member.dims)
    return std::nullopt;
  return member.number ? member.number : number(member.file, member.offset, member.text, depth + 1);
}

Lookup ConstantFolder::Impl::rangeForValue(std::size_t file, std::size_t at, const std::string &fields, int depth,
                                           Definition &found) const {
  const std::optional<RangeForHead> head =
      depth < kMaxDepth ? rangeForDeclaring(files_[file].code(), at) : std::nullopt;
  if (!head)
    return Lookup::Unknown;
  const RangeFor &ranged = head->ranged;
  // Each iteration reads its own element (or its element's member): their mean stands for them, as a counter's does.
  std::vector<std::optional<Number>> elements;
  const std::string &range = ranged.range;
  if (const std::optional<std::vector<std::string>> listed = fields.empty() ? bracedElements(range) : std::nullopt) {
    for (const std::string &element : *listed)
      elements.push_back(number(file, head->rangeAt, element, depth + 1));
  } else if (const std::optional<ArrayDeclaration> array = arrayDeclaration(file, head->rangeAt, range, depth);
             array && (!fields.empty() || array->length) && !arrayWritten(*array, range)) {
    // A number is read over the array's length; a member over the elements its list gives.
    const std::int64_t count = fields.empty() ? *array->length : static_cast<std::int64_t>(array->listed.size());
    for (std::int64_t index = 0; index < count && index <= kMostElementsMeaned; ++index)
      elements.push_back(listedElement(*array, index, fields, depth));
  }
  const std::optional<Number> mean =
      static_cast<std::int64_t>(elements.size()) <= kMostElementsMeaned ? meanOf(elements) : std::optional<Number>();
  if (!mean)
    return Lookup::Unknown;
  found = Definition("", file, at, false);
  found.number = mean;
  note({"`" + ranged.name + (fields.empty() ? "" : "." + fields) + "` = " + shownNumber(*mean) +
        (fields.empty() ? ", the mean of the " : ", the mean over the ") + std::to_string(elements.size()) +
        " elements of " + quotedCode(range) + " that `for` at " + files_[file].where(head->keyword) + " reads"});
  return Lookup::Found;
}

std::optional<std::pair<std::int64_t, std::int64_t>> ConstantFolder::Impl::arrayShape(std::size_t file,
                                                                                      std::size_t before,
                                                                                      const std::string &name,
                                                                                      int depth) const {
  const std::optional<ArrayDeclaration> array = arrayDeclaration(file, before, name, depth);
  if (!array || !array->length || array->container)
    return std::nullopt; // `sizeof` of a vector is not its elements'
  std::string element;
  for (const std::string &word : array->type)
    if (word != "static" && word != "constexpr" && word != "extern")
      element += word + " ";
  const std::optional<std::int64_t> bytes = builtinTypeSize(element);
  return bytes ? std::optional(std::make_pair(*array->length, *bytes)) : std::nullopt;
}

} // namespace ptxdvfs::tools
