// CudaVariables.cpp - looking a name up as the compiler would see it at
// one point of a file: a variable declared before it, an enumerator, or a
// parameter of its function (CudaParameters.cpp reads what its calls pass).
#include "CudaConstantsImpl.h"
#include "CudaCommandLineReads.h"
#include "CudaLoopHeaders.h"
#include "CudaStatements.h"

#include <algorithm>
#include <string_view>

namespace ptxdvfs::tools {

using ptx::analysis::Dim3;
using namespace expression;
using namespace constants;

namespace {

/// Whether the `{` at `brace` opens the body of an unscoped `enum` (`enum
/// { A = 4 }`, `enum Size : int {`), whose names its scope sees bare.
bool opensUnscopedEnum(const std::string &code, std::size_t brace) {
  std::size_t at = brace;
  constexpr int kMostWords = 6; // `enum Name : unsigned long long {`
  for (int word = 0; word < kMostWords; ++word) {
    at = codeEndBefore(code, at);
    if (at > 0 && code[at - 1] == ':') {
      --at;
      continue;
    }
    std::size_t start = at;
    const std::string read = wordBefore(code, start);
    if (read.empty())
      return false;
    if (read == "enum") {
      const std::string after = firstWordOf(std::string_view(code).substr(at, brace - at));
      return after != "class" && after != "struct";
    }
    at = start;
  }
  return false;
}

} // namespace

Lookup ConstantFolder::Impl::enumerator(std::size_t file, int body, std::size_t at, int depth,
                                        Definition &found) const {
  const std::string &code = files_[file].code();
  const std::size_t open = files_[file].openBraceOf(body), close = files_[file].pastBlockOpenedAt(open);
  if (close == std::string::npos || depth >= kMaxDepth)
    return Lookup::Unknown;
  // Each enumerator is the one before it plus 1 (the first 0) unless it is given a value.
  std::optional<std::int64_t> value = 0;
  std::size_t start = open + 1; // the parts and their commas make up the body
  for (const std::string &part : topLevelParts(std::string_view(code).substr(open + 1, close - 2 - open))) {
    const std::size_t equals = plainAssignment(part);
    if (equals != std::string::npos) {
      const std::optional<Number> given = number(file, start + equals + 1, part.substr(equals + 1), depth + 1);
      value = given && !given->real ? std::optional<std::int64_t>(given->whole) : std::nullopt;
    }
    if (start <= at && at < start + part.size()) {
      if (!value)
        return Lookup::Unknown;
      found = Definition("", file, at, false);
      found.number = Number{false, *value, 0};
      return Lookup::Found;
    }
    if (value)
      ++*value;
    start += part.size() + 1;
  }
  return Lookup::Unknown;
}

namespace {

/// Whether `name` is changed after the named lambda whose body holds
/// `before`, in the block that defines the lambda: a call after the change
/// reads the new value of a name captured by reference (over-cautious for
/// the lambda's own names, which may be other variables).
bool changedAfterLambda(const CudaCode &source, std::size_t before, const std::string &name) {
  const int lambda = source.functionBodyAt(before);
  if (lambda < 0 || !source.insideFunction(source.parentOf(lambda)))
    return false; // no lambda: a function at file scope, in a namespace or a class
  const std::size_t from = source.pastBlockOpenedAt(source.openBraceOf(lambda));
  const std::size_t to = source.pastBlockOpenedAt(source.openBraceOf(source.parentOf(lambda)));
  return from == std::string::npos || to == std::string::npos || changedWithin(source.code(), name, from, to);
}

/// Whether a loop around the use at `use`, which does not hold the
/// definition at `definedAt`, changes `name` in its body: after the use
/// too (`for (...) { k<<<n>>>(x); n *= 2; }`), so that the use reads what
/// an earlier iteration left, not the definition's value.
std::optional<LoopHeader> changedByLoopAround(const CudaCode &source, std::size_t use, const std::string &name,
                                             std::size_t definedAt) {
  const std::string &code = source.code();
  for (const LoopHeader &loop : loopsAround(source, statementStartAround(code, use))) {
    if (loop.at <= definedAt)
      return std::nullopt; // this loop and those around it hold the definition, or come after it
    const std::size_t bodyEnd = bodyEndAfter(source, loop.headEnd);
    if (bodyEnd == std::string::npos || changedWithin(code, name, loop.headEnd + 1, bodyEnd))
      return loop;
  }
  return std::nullopt;
}

} // namespace

Lookup ConstantFolder::Impl::variable(std::size_t file, std::size_t before, const std::string &name,
                                      bool fileScopeOnly, int depth, Definition &found) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  const int useBlock = source.blockAt(before);
  if (!fileScopeOnly && changedAfterLambda(source, before, name))
    return Lookup::Unknown;
  // The members of a dim3 set after its definition (`threads.x = 128;`), the latest of each.
  std::optional<std::uint32_t> members[3];
  auto withMembers = [&](Lookup lookup) {
    if (lookup != Lookup::Found || std::none_of(std::begin(members), std::end(members),
                                                [](const auto &member) { return member.has_value(); }))
      return lookup;
    std::optional<Dim3> dims = found.dims ? found.dims : dimension(found.file, found.offset, found.text, depth + 1);
    if (!dims)
      return Lookup::Unknown;
    dims->x = members[0].value_or(dims->x);
    dims->y = members[1].value_or(dims->y);
    dims->z = members[2].value_or(dims->z);
    found.dims = dims;
    found.dim3 = true;
    return Lookup::Found;
  };
  // A data member of the class of the function around, named bare: past the function's own names, the class's.
  const std::optional<MethodScope> method = fileScopeOnly ? std::nullopt : methodAround(file, before, name);
  const int head = source.functionHeadAt(before); // where `before` is a constructor's member initializer
  for (const std::size_t at : source.wordsBefore(name, before)) {
    if (++examined_ > kMaxNamesExamined)
      return Lookup::Unknown; // thousands of launches through one far-away name: give up, not hang
    const std::size_t end = at + name.size();
    if (method && !method->hidden && thisBefore(code, at) != std::string::npos && changesAt(code, at, name.size()))
      return bodyAssignment(file, *method, name, before, depth, found); // after `this->n_ = ...;`
    if (afterMemberAccess(code, at) || afterScopeOperator(code, at))
      continue; // a member or a qualified name, not this variable (`case 0: n = 2;` is)
    if (method && at < method->parameters)
      return classMember(file, *method, name, depth, found);
    if (method && method->initializers <= at && at < method->body)
      continue; // a constructor's member initializers, which classMember() reads
    const std::size_t previous = codeEndBefore(code, at);
    if (const std::size_t list = source.blockAt(at) < 0 ? templateListAround(code, at) : std::string::npos;
        list != std::string::npos) {
      // A template parameter: the one of the function template around the use is what its calls pass,
      // that of the class template whose member function it is, what its objects' types write.
      const int body = source.outermostFunctionBodyAt(before);
      const int function = body >= 0 ? body : head;
      const std::optional<CudaCode::TemplateParameterList> own =
          fileScopeOnly ? std::nullopt : source.templateParametersOf(body);
      const int classBody = function < 0 || fileScopeOnly ? -1 : source.parentOf(function);
      const std::optional<CudaCode::TemplateParameterList> ofClass =
          own || classBody < 0 ? std::nullopt : source.templateParametersOfClass(classBody);
      const CudaCode::TemplateParameterList *read = own ? &*own : ofClass ? &*ofClass : nullptr;
      if (!read || read->open != list)
        continue; // another template's
      // `template <int B> void Solver<B>::step()`: its list repeats the class's, whose objects write them.
      const std::string outOfClass = own ? source.classOfFunction(body) : std::string();
      for (std::size_t index = 0; index < read->parameters.size(); ++index)
        if (read->parameters[index].name == name) {
          if (!own)
            return classTemplateParameter(file, source.classNameOf(classBody), *ofClass, index, depth, found);
          if (outOfClass.empty())
            return templateParameter(file, body, *own, index, depth, found);
          const std::optional<std::pair<std::size_t, CudaCode::TemplateParameterList>> declared =
              classTemplateList(file, outOfClass);
          return declared && index < declared->second.parameters.size()
                     ? classTemplateParameter(declared->first, outOfClass, declared->second, index, depth, found)
                     : Lookup::Unknown;
        }
      continue;
    }
    if (const int block = source.blockAt(at); block >= 0 && opensUnscopedEnum(code, source.openBraceOf(block))) {
      // An enumerator, seen in the scope around its `enum` (from another file, only a file-scope one's).
      const bool seen = fileScopeOnly ? source.parentOf(block) < 0 : source.encloses(source.parentOf(block), useBlock);
      if (!seen || (previous > 0 && code[previous - 1] != '{' && code[previous - 1] != ','))
        continue; // another scope's, or a use in another enumerator's value
      return enumerator(file, block, at, depth, found);
    }
    if (const std::optional<CudaCode::ParameterList> list = source.parameterListAround(at)) { // a lambda's too
      if (fileScopeOnly || (!source.encloses(list->body, useBlock) && head != list->body))
        continue; // another function's parameter (a constructor's member initializers see its own)
      return withMembers(parameter(file, *list, at, name, depth, found));
    }
    if (const std::optional<StructuredBinding> binding = structuredBindingAt(code, at)) {
      if (!source.encloses(source.blockAt(at), useBlock))
        continue;                                           // another function's, or a closed block's
      return boundMember(file, at, *binding, depth, found); // `auto [n, block] = parse(argc, argv);`
    }
    std::size_t next = end;
    while (next < code.size() && isSpace(code[next]))
      ++next;
    std::vector<std::string> type = declaredTypeBefore(code, at);
    if (type.empty())
      type = listedDeclarationType(code, at).value_or(type); // `int rows = 512, cols = 256;`
    const bool declares = !type.empty() && std::all_of(type.begin(), type.end(), isTypeWord);
    if (!declares && previous > 0 && code[previous - 1] == '&' && next < code.size() && code[next] == ':' &&
        code.compare(next, 2, "::") != 0)
      return rangeForValue(file, at, "", depth, found); // `for (const int &n : sizes)`
    if (!declares && !fileScopeOnly)
      if (const std::optional<OutArgument> out = outArgument(file, at, name.size())) {
        // Passed by reference to a function that sets it: what the call leaves there.
        if (untaken(file, out->callAt, before, depth))
          continue;
        std::optional<Definition> left = runsBeforeEachUse(file, out->callAt, before, false, depth)
                                             ? valueLeftBy(*out, file, name, depth)
                                             : std::nullopt;
        if (!left)
          return Lookup::Unknown;
        found = std::move(*left);
        const std::string shown = found.number ? shownNumber(*found.number)
                                               : std::to_string(found.dims->x) + "," + std::to_string(found.dims->y) +
                                                     "," + std::to_string(found.dims->z);
        note({"`" + name + "` = " + shown + ", as `" + out->callee + "` at " + source.where(at) + " sets it"});
        return Lookup::Found;
      }
    if (!declares) {
      if (fileScopeOnly || !changesAt(code, at, name.size()) || onlyRead(file, at, name.size()) ||
          untaken(file, at, before, depth))
        continue;
      if (queriedElsewhere(file, at, name.size(), before))
        continue; // a global's query, which the global's declaration reads
      if (const std::size_t equals = code.find_first_not_of(" \t\r\n", at + name.size());
          before > at && equals < code.size() && code[equals] == '=' && code.compare(equals, 2, "==") != 0 &&
          statementStartAround(code, at) == at && parenthesisAround(code, at) == std::string::npos &&
          code.find_first_of(";{}", at) > before)
        continue; // read in its own right side, `n = getIntArg(argc, argv, "-n", n);`: the value from before
      if (const int changedIn = source.outermostFunctionBodyAt(at);
          changedIn >= 0 && changedIn != source.outermostFunctionBodyAt(before))
        continue; // another function's change, of a global: its declaration weighs it (changedAnywhere())
      if (const std::optional<Lookup> read = commandLine().change(file, at, name, before, depth, found)) {
        if (*read == Lookup::Absent)
          continue; // a `getopt` case, or an option loop's branch, that no argument leads to
        return *read; // a `getopt` case's, an option loop's or `sscanf(argv[1], ...)`'s
      }
      if (const Lookup queried = deviceQuery(file, at, name.size(), "", before, depth, found);
          queried != Lookup::Absent)
        return queried; // `cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0)`
      // A member set by a statement of its own that runs once before each use: that member's value.
      if (const std::optional<std::pair<int, std::string>> member = memberAssignment(code, at, name)) {
        const std::optional<Number> value = runsBeforeEachUse(file, at, before, false, depth)
                                                ? number(file, at, member->second, depth + 1)
                                                : std::nullopt;
        const std::optional<std::uint32_t> dimension = value ? dimensionOf(*value) : std::nullopt;
        if (!dimension)
          return Lookup::Unknown;
        auto &latest = members[member->first];
        latest = latest ? latest : dimension;
        continue;
      }
      // Changed before the launch: its value is not the initialiser's, unless it is the counter of a loop around it.
      if (std::optional<Number> middle = counterMiddle(file, at, before, name, depth)) {
        found = Definition("", file, at, false);
        found.number = middle;
        return Lookup::Found;
      }
      // Or the one statement of a loop before it, `while (threads < n) threads *= 2;`: followed step by step.
      if (std::optional<Number> after = valueAfterLoop(file, at, before, name, depth)) {
        found = Definition("", file, at, false);
        found.number = after;
        return Lookup::Found;
      }
      // Or unless it is a plain assignment that runs, once, whenever the use does (under branches that are taken).
      std::optional<std::string> assigned = assignedText(code, at, name);
      if (!assigned) // or one in an `if`'s condition that C evaluates, `if ((n = atoi(argv[1])) <= 0)`
        assigned = conditionAssigned(file, at, name, depth);
      if (!assigned || !runsBeforeEachUse(file, at, before, readsName(*assigned, name), depth))
        return Lookup::Unknown;
      found = Definition(*assigned, file, at, false);
      return withMembers(Lookup::Found);
    }
    const int declaredIn = source.blockAt(at);
    if (!source.encloses(declaredIn, useBlock))
      continue; // another function's, or a closed block's
    const bool constant = std::count(type.begin(), type.end(), "const") || std::count(type.begin(), type.end(), "constexpr");
    const bool local = source.insideFunction(declaredIn);
    if (fileScopeOnly && local)
      return Lookup::Unknown; // a local of another file
    if (!local && !constant && changedAnywhere(name, depth)) { // a global the program may change
      const Lookup queried = queriedGlobal(name, "", depth, found); // unless only queries do
      if (queried != Lookup::Unknown || fileScopeOnly)
        return queried;
      if (const Lookup set = globalSetOnce(name, file, before, depth, found); set != Lookup::Absent)
        return set; // else no change runs, and its declaration gives its value
    }
    const bool array = next < code.size() && code[next] == '['; // `int sizes[4] = {...}`: arrayElement() reads it
    found = Definition("", file, at, !array && std::count(type.begin(), type.end(), "dim3") > 0);
    for (; next < code.size() && code[next] == '['; next = code.find_first_not_of(" \t\r\n", next))
      if ((next = pastClosing(code, next)) == std::string::npos)
        return Lookup::Unknown;
    if (array && next < code.size() && code[next] == '{') {
      const std::size_t close = pastClosing(code, next);
      if (close == std::string::npos)
        return Lookup::Unknown;
      found.text = code.substr(next, close - next); // braces kept: a list, no number
    } else if (next < code.size() && code[next] == '=' && code.compare(next, 2, "==") != 0) {
      std::string rest = code.substr(next + 1, code.find(';', next) - next - 1);
      found.text = topLevelParts(rest).front();
    } else if (next < code.size() && (code[next] == '(' || code[next] == '{')) {
      const std::size_t close = pastClosing(code, next);
      if (close == std::string::npos)
        return Lookup::Unknown;
      const std::string inside = code.substr(next + 1, close - next - 2);
      found.text = found.dim3 ? "dim3(" + inside + ")" : inside;
    } else if (next < code.size() && code[next] == ':' && code.compare(next, 2, "::") != 0) {
      return rangeForValue(file, at, "", depth, found); // `for (int n : sizes)`
    } else if (found.dim3) {
      found.dims = Dim3{}; // `dim3 threads;` is 1 x 1 x 1
    } else {
      return Lookup::Unknown; // declared without a value
    }
    return withMembers(Lookup::Found);
  }
  if (method)
    return classMember(file, *method, name, depth, found);
  // A constant of the class of the member function around, declared in its body after the function
  // (`static constexpr int kThreads = 128;`), as C++ lets a member function see it: read at the body's end.
  const int body = fileScopeOnly ? -1 : source.outermostFunctionBodyAt(before);
  const std::string className = source.classOfFunction(body);
  if (className.empty() || depth >= kMaxDepth)
    return Lookup::Absent;
  const int around = source.parentOf(body);
  if (around < 0 || source.insideFunction(around) || source.classNameOf(around) != className)
    return qualified(file, before, className + "::" + name, depth + 1, found); // defined after its class
  const std::size_t end = source.pastBlockOpenedAt(source.openBraceOf(around));
  return end == std::string::npos ? Lookup::Absent : variable(file, end - 2, name, false, depth + 1, found);
}

std::optional<Number> ConstantFolder::Impl::counterMiddle(std::size_t file, std::size_t at, std::size_t before,
                                                          const std::string &name, int depth) const {
  const std::string &code = files_[file].code();
  const std::size_t open = parenthesisAround(code, at);
  std::size_t keyword = open;
  if (open == std::string::npos || wordBefore(code, keyword) != "for" || depth >= kMaxDepth)
    return std::nullopt;
  const std::size_t close = pastClosing(code, open) - 1; // `open` is matched: `at` lies inside
  const std::size_t bodyEnd = bodyEndAfter(files_[file], close);
  const std::optional<CountedFor> counted = countedFor(std::string_view(code).substr(open + 1, close - open - 1));
  if (before <= close || bodyEnd == std::string::npos || before >= bodyEnd || !counted || counted->counter != name)
    return std::nullopt; // not read in the loop's body, or not its counter
  if (changedWithin(code, name, close, bodyEnd))
    return std::nullopt; // the body changes it too
  return counterValue(file, keyword, std::string_view(files_[file].text()).substr(keyword, close + 1 - keyword),
                      *counted, depth);
}

std::optional<Number> ConstantFolder::Impl::counterValue(std::size_t file, std::size_t loop, std::string_view header,
                                                         const CountedFor &counted, int depth) const {
  if (auto set = countersSet_.find({file, loop}); set != countersSet_.end())
    return Number{false, set->second, 0}; // one iteration's value, not one that stands for all
  auto whole = [&](const std::string &text) {
    const std::optional<Number> value = number(file, loop, text, depth + 1);
    return value && !value->real ? std::optional<std::int64_t>(value->whole) : std::nullopt;
  };
  const std::optional<CountedRange> range = countedRange(counted, whole);
  if (!range || range->count == 0)
    return std::nullopt;
  const Number value{false, range->middle, 0};
  ++middles_;
  lastMiddle_ = CounterRead{file, loop, counted.counter, quotedCode(header), *range};
  note({"`" + counted.counter + "` = " + shownNumber(value) +
        (range->scaled ? ", the mean of the " + std::to_string(range->count) + " values of " : ", the middle of ") +
        quotedCode(header) + " at " + files_[file].where(loop)});
  return value;
}

ConstantFolder::CounterScope::CounterScope(const ConstantFolder &folder, std::size_t file, std::size_t loop,
                                           std::int64_t value)
    : folder_(folder), loop_(file, loop) {
  folder_.impl_->countersSet()[loop_] = value;
  folder_.impl_->forgetParametersFound(); // found with the counter's middle
}

ConstantFolder::CounterScope::~CounterScope() {
  folder_.impl_->countersSet().erase(loop_);
  folder_.impl_->forgetParametersFound(); // a call's argument may have read the counter
}

std::optional<Number> ConstantFolder::Impl::whileCounter(std::size_t file, const LoopHeader &loop,
                                                         const std::string &name, int depth) const {
  const std::optional<CountedFor> counted = countedWhile(files_[file], loop);
  if (!counted || counted->counter != name || depth >= kMaxDepth)
    return std::nullopt;
  return counterValue(file, loop.at, loop.text(files_[file].text()), *counted, depth);
}

Lookup ConstantFolder::Impl::qualified(std::size_t file, std::size_t offset, const std::string &name, int depth,
                                       Definition &found) const {
  const std::size_t last = name.rfind("::");
  const std::string base = name.substr(last + 2);
  const std::size_t scopeStart = name.rfind("::", last == 0 ? 0 : last - 1);
  const std::string scope =
      last == 0 ? "" : name.substr(scopeStart == std::string::npos ? 0 : scopeStart + 2, last - (scopeStart == std::string::npos ? 0 : scopeStart + 2));
  if (scope.empty()) // `::kN`: the global one
    return define(file, offset, base, depth, found);
  for (std::size_t other = 0; other < files_.size(); ++other) {
    if (other != file && !seen_[file][other])
      continue;
    const CudaCode &source = files_[other];
    const std::string &code = source.code();
    // Each `namespace scope {`, `struct scope ... {` or `class scope ... {`: the name is
    // looked up as seen at the end of that body, where every member declared in it is.
    for (std::size_t at = code.find(scope); at != std::string::npos; at = code.find(scope, at + scope.size())) {
      std::size_t keyword = at;
      const std::string before = wordBefore(code, keyword);
      const std::size_t brace = code.find_first_of("{;()=", at + scope.size());
      if (!isWholeWord(code, at, scope.size()) || (before != "namespace" && before != "struct" && before != "class") ||
          brace == std::string::npos || code[brace] != '{')
        continue;
      const std::size_t end = source.pastBlockOpenedAt(brace);
      if (end == std::string::npos || end < brace + 3 || (other == file && offset <= brace))
        continue;
      if (std::size_t enumAt = keyword; wordBefore(code, enumAt) == "enum") { // `enum class E { Q = 8 }`: `E::Q`
        for (std::size_t member = code.find(base, brace); member < end; member = code.find(base, member + 1)) {
          const std::size_t previous = codeEndBefore(code, member);
          if (isWholeWord(code, member, base.size()) && previous > 0 &&
              (code[previous - 1] == '{' || code[previous - 1] == ','))
            return enumerator(other, source.blockAt(brace + 1), member, depth, found);
        }
        continue;
      }
      // Where it is used inside that body, else just before its `}` (which blockAt() reads as outside it).
      const std::size_t seenAt = other == file && offset < end - 2 ? offset : end - 2;
      if (const Lookup lookup = variable(other, seenAt, base, false, depth, found); lookup != Lookup::Absent)
        return lookup;
    }
  }
  return Lookup::Absent;
}

Lookup ConstantFolder::Impl::define(std::size_t file, std::size_t offset, const std::string &name, int depth,
                                    Definition &found) const {
  if (name.find("::") != std::string::npos)
    return qualified(file, offset, name, depth, found);
  if (Lookup lookup = macro(file, name, found); lookup != Lookup::Absent) {
    const CudaCode &defining = files_[found.file];
    if (const UndefinedKnob *knob = lookup == Lookup::Found ? defining.knobAround(found.offset) : nullptr)
      note({"`" + name + "` is defined at " + defining.where(found.offset) + " by a build without -D flags (`" +
            knob->name + "`, tested at " + defining.where(knob->at) + ", is not defined)"});
    return lookup;
  }
  if (name == "optind") // POSIX's, declared by <unistd.h>, which a `getopt` loop changes unseen
    if (const Lookup lookup = commandLine().optionIndex(file, offset, depth, found); lookup != Lookup::Absent)
      return lookup;
  if (Lookup lookup = variable(file, offset, name, false, depth, found); lookup != Lookup::Absent) {
    const std::optional<LoopHeader> loop = lookup == Lookup::Found && found.file == file
                                               ? changedByLoopAround(files_[file], offset, name, found.offset)
                                               : std::nullopt;
    if (!loop)
      return lookup;
    if (std::optional<Number> counter = whileCounter(file, *loop, name, depth)) {
      found = Definition("", file, loop->at, false);
      found.number = counter;
      return Lookup::Found;
    }
    if (openNotes_)
      openNotes_->push_back("`" + name + "` changes in the body of " +
                            quotedCode(loop->text(files_[file].text())) + " at " + files_[file].where(loop->at) +
                            ", so each iteration reads what the one before left");
    return Lookup::Unknown;
  }
  for (std::size_t other = 0; other < files_.size(); ++other)
    if (other != file && seen_[file][other])
      if (Lookup lookup = variable(other, files_[other].code().size(), name, true, depth, found);
          lookup != Lookup::Absent)
        return lookup;
  return Lookup::Absent;
}

} // namespace ptxdvfs::tools
