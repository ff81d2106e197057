// CudaMembers.cpp - a member of a struct variable as the compiler sees it
// at one point of a file: `p.n` after `p.n = 4096;`, or as `Params p =
// {4096, 256};` and the struct's definition give it, the way CUDA samples
// fill a `cudaLaunchConfig_t` and applications keep their sizes in a
// struct of options.
#include "CudaCallScope.h"
#include "CudaCommandLineReads.h"
#include "CudaConstantsImpl.h"
#include "CudaStatements.h"
#include "CudaStructLayout.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;
using ptx::analysis::Dim3;

/// `p.grid.x` for the tokens of a member path written so; empty for any other tokens.
std::string constants::memberPathOf(const std::vector<Token> &tokens) {
  if (tokens.size() < 3 || tokens.size() % 2 == 0)
    return "";
  std::string path;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const bool self = i == 1 && tokens[0].text == "this" && tokens[1].text == "->"; // `this->grid_.x`
    if (i % 2 == 0 ? tokens[i].kind != Token::Name : tokens[i].text != "." && !self)
      return "";
    if (self) {
      path += ".";
      continue;
    }
    path += tokens[i].text;
  }
  return path;
}

int constants::componentOf(const std::string &path) {
  const std::size_t size = path.size();
  return size > 2 && path[size - 2] == '.' && std::string_view("xyz").find(path.back()) != std::string_view::npos
             ? path.back() - 'x'
             : -1;
}

namespace {

/// The members the CUDA runtime's own structs have, for the sources that
/// fill one without defining it.
const std::vector<StructMember> *runtimeStruct(const std::string &type) {
  static const std::vector<StructMember> kLaunchConfig{{"dim3", "gridDim", "", std::string::npos},
                                                       {"dim3", "blockDim", "", std::string::npos},
                                                       {"size_t", "dynamicSmemBytes", "", std::string::npos},
                                                       {"cudaStream_t", "stream", "", std::string::npos},
                                                       {"cudaLaunchAttribute *", "attrs", "", std::string::npos},
                                                       {"unsigned int", "numAttrs", "", std::string::npos}};
  return type == "cudaLaunchConfig_t" || type == "cudaLaunchConfig_st" ? &kLaunchConfig : nullptr;
}

} // namespace

std::string constants::structNamedBy(const std::vector<std::string> &words) {
  static const std::set<std::string, std::less<>> kQualifiers{"const",  "constexpr", "static", "struct", "class",
                                                              "volatile", "register", "extern", "inline", "auto"};
  return !words.empty() && !kQualifiers.count(words.back()) ? words.back() : std::string();
}

namespace {

/// The members written after a name, `.grid.x` as `grid.x`, from `from`
/// (the first also after `->`, a pointer parameter's `o->n`); `end` moves
/// past them, and `deeper` tells whether `->`, `[` or a call reaches
/// further in.
std::string memberChainAt(const std::string &code, std::size_t from, std::size_t &end, bool &deeper) {
  std::string chain;
  end = from;
  for (;;) {
    std::size_t dot = code.find_first_not_of(" \t", end);
    if (chain.empty() && dot != std::string::npos && code.compare(dot, 2, "->") == 0)
      ++dot; // read past its `-`, as `.`
    else if (dot == std::string::npos || code[dot] != '.' || (dot + 1 < code.size() && code[dot + 1] == '.'))
      break;
    const std::size_t name = code.find_first_not_of(" \t\r\n", dot + 1);
    std::size_t nameEnd = name;
    while (nameEnd < code.size() && isIdentifierChar(code[nameEnd]))
      ++nameEnd;
    if (name == std::string::npos || nameEnd == name)
      break;
    chain += (chain.empty() ? "" : ".") + code.substr(name, nameEnd - name);
    end = nameEnd;
  }
  const std::size_t next = code.find_first_not_of(" \t\r\n", end);
  deeper = !chain.empty() && next != std::string::npos &&
           (code[next] == '[' || code[next] == '(' || code.compare(next, 2, "->") == 0);
  return chain;
}

/// Whether one member path holds the other (`grid` holds `grid.x`), or they are the same.
bool overlaps(const std::string &a, const std::string &b) {
  const std::string &shorter = a.size() < b.size() ? a : b, &longer = a.size() < b.size() ? b : a;
  return longer.compare(0, shorter.size(), shorter) == 0 &&
         (longer.size() == shorter.size() || longer[shorter.size()] == '.' || longer[shorter.size()] == '[');
}

/// `{a, b}` -> `a, b`; nullopt for text that is no braced list.
std::optional<std::string> bracedInside(const std::string &text) {
  const std::string written = trimmed(text);
  if (written.size() < 2 || written.front() != '{' || pastClosing(written, 0) != written.size())
    return std::nullopt;
  return written.substr(1, written.size() - 2);
}

} // namespace

std::optional<Number> ConstantFolder::Impl::memberNumber(std::size_t file, std::size_t offset, const std::string &path,
                                                         int depth) const {
  if (depth > kMaxDepth)
    return std::nullopt;
  if (const int component = componentOf(path); component >= 0)
    if (const std::optional<Dim3> dims = dimension(file, offset, path.substr(0, path.size() - 2), depth + 1))
      return Number{false, component == 0 ? dims->x : component == 1 ? dims->y : dims->z, 0};
  Definition definition;
  if (member(file, offset, path, depth, definition) != Lookup::Found || definition.dim3)
    return std::nullopt;
  if (definition.number)
    return definition.number;
  return number(definition.file, definition.offset, definition.text, depth + 1);
}

const CudaStructs &ConstantFolder::Impl::structsOf(std::size_t file) const {
  auto cached = remembered_.structs.find(file);
  if (cached == remembered_.structs.end())
    cached = remembered_.structs.emplace(file, std::make_unique<CudaStructs>(files_[file].code())).first;
  return *cached->second;
}

constants::StructFound ConstantFolder::Impl::structMembers(std::size_t file, const std::string &type,
                                                                      bool byName) const {
  for (std::size_t other = 0; other < files_.size(); ++other) {
    if (other != file && !seen_[file][other])
      continue;
    auto known = remembered_.structMembers.find({other, type, byName});
    if (known == remembered_.structMembers.end())
      known = remembered_.structMembers
                  .emplace(std::tuple{other, type, byName},
                           byName ? structsOf(other).dataMembers(type) : structsOf(other).members(type))
                  .first;
    if (known->second)
      return {&*known->second, other};
  }
  return {runtimeStruct(type), file};
}

Lookup ConstantFolder::Impl::memberOfValue(std::size_t file, std::size_t at, std::string type, const std::string &value,
                                           bool zeroed, const std::string &path, int depth, Definition &found) const {
  std::string written = trimmed(value);
  if (depth >= kMaxDepth)
    return Lookup::Unknown;
  if (const std::string copied = isName(written) ? written : memberPathOf(tokensOf(written)); !copied.empty())
    return member(file, at, copied + "." + path, depth + 1, found); // a copy of another: `Params p = defaults;`
  if (const std::size_t open = written.find('('); open != std::string::npos && open > 0 &&
                                                  pastClosing(written, open) == written.size()) {
    // A function's result, `Options o = parse(argc, argv);`: the variable its one `return` gives back.
    const std::string callee = trimmed(written.substr(0, open));
    if (!isName(callee))
      return Lookup::Unknown;
    // Folded in the call's scope, where its parameters are what this call passes.
    const std::optional<CallScope> scope = callScopeAt(file, at, callee);
    const std::optional<ReturnedValue> returned = reachedReturn(file, callee, depth);
    Definition value;
    if (!returned || !isName(returned->text) ||
        member(returned->file, returned->offset, returned->text + "." + path, depth + 1, value) != Lookup::Found)
      return Lookup::Unknown;
    if (!scope) {
      found = value;
      return Lookup::Found;
    }
    return foldedWhereWritten(value, depth, found);
  }
  if (const std::size_t brace = written.find('{'); brace != std::string::npos && brace > 0) {
    const std::string named = trimmed(written.substr(0, brace)); // `Params{4096, 256}`
    if (!isName(named))
      return Lookup::Unknown;
    type = named;
    written = written.substr(brace);
  }
  const std::optional<std::string> inside = written.empty() ? std::optional<std::string>("") : bracedInside(written);
  const StructFound definition = type.empty() ? StructFound{} : structMembers(file, type);
  const std::vector<StructMember> *members = definition.members;
  if (!inside || !members)
    return Lookup::Unknown; // a call, a constructor, a struct the files do not define
  zeroed = zeroed || !written.empty(); // a braced list value-initializes what it leaves out
  const std::size_t dot = path.find('.');
  const std::string field = path.substr(0, dot);
  const auto target = std::find_if(members->begin(), members->end(),
                                   [&](const StructMember &member) { return member.name == field; });
  if (target == members->end())
    return Lookup::Unknown;
  std::vector<std::string> elements = inside->find_first_not_of(" \t\r\n") == std::string::npos
                                          ? std::vector<std::string>()
                                          : topLevelParts(*inside);
  std::optional<std::string> element;
  const bool designated =
      std::any_of(elements.begin(), elements.end(), [](const std::string &e) { return trimmed(e).rfind('.', 0) == 0; });
  if (designated) { // `{.gridDim = grid, .blockDim = 256}`
    for (const std::string &each : elements) {
      const std::string part = trimmed(each);
      const std::size_t equals = plainAssignment(part);
      if (part.rfind('.', 0) != 0 || equals == std::string::npos)
        return Lookup::Unknown;
      if (trimmed(std::string_view(part).substr(1, equals - 1)) == field)
        element = trimmed(std::string_view(part).substr(equals + 1));
    }
  } else {
    if (elements.size() > members->size())
      return Lookup::Unknown;
    const std::size_t index = static_cast<std::size_t>(target - members->begin());
    if (index < elements.size())
      element = trimmed(elements[index]);
  }
  const bool dim3 = wordsIn(target->type) == std::vector<std::string>{"dim3"};
  if (dot != std::string::npos) { // a member of a member: read in its own value, a braced list or a name
    if (element)
      return memberOfValue(file, at, structNamedBy(wordsIn(target->type)), *element, zeroed, path.substr(dot + 1),
                           depth + 1, found);
    if (!target->initializer.empty())
      return memberOfValue(definition.file, target->initializerAt, structNamedBy(wordsIn(target->type)),
                           target->initializer, zeroed, path.substr(dot + 1), depth + 1, found);
    return Lookup::Unknown;
  }
  if (element) {
    const std::optional<std::string> braced = bracedInside(*element);
    found = Definition(braced ? (dim3 ? "dim3(" + *braced + ")" : *braced) : *element, file, at, dim3);
    return Lookup::Found;
  }
  if (!target->initializer.empty()) { // `struct Params { int n = 1024; };`
    found = Definition(dim3 ? "dim3(" + target->initializer + ")" : target->initializer, definition.file,
                       target->initializerAt, dim3);
    return Lookup::Found;
  }
  if (!zeroed)
    return Lookup::Unknown; // a local left uninitialized
  found = Definition(dim3 ? "dim3()" : "0", file, at, dim3);
  if (dim3)
    found.dims = Dim3{};
  return Lookup::Found;
}

bool ConstantFolder::Impl::onlyConstMethods(const std::string &name) const {
  if (auto known = remembered_.constMethods.find(name); known != remembered_.constMethods.end())
    return known->second;
  std::size_t defined = 0, constant = 0;
  for (const CudaCode &source : files_) {
    const auto [all, constOnes] = source.constMethodsNamed(name);
    defined += all;
    constant += constOnes;
  }
  return remembered_.constMethods.emplace(name, defined > 0 && constant == defined).first->second;
}

Lookup ConstantFolder::Impl::boundMember(std::size_t file, std::size_t at, const StructuredBinding &binding, int depth,
                                         Definition &found) const {
  const std::string &written = binding.initializer;
  std::string type;
  if (const std::size_t open = written.find('(');
      open != std::string::npos && open > 0 && pastClosing(written, open) == written.size()) {
    const std::optional<FunctionReturns> &returns = functionReturns(file, trimmed(written.substr(0, open)));
    type = returns ? structNamedBy(returns->type) : ""; // `auto [n, block] = parse(argc, argv);`
  } else if (const std::size_t brace = written.find('{'); brace != std::string::npos && brace > 0) {
    type = trimmed(written.substr(0, brace)); // `auto [n, block] = Sizes{4096, 256};`
  }
  const StructFound definition = isName(type) ? structMembers(file, type) : StructFound{};
  if (definition.members == nullptr || binding.index >= definition.members->size() || depth >= kMaxDepth)
    return Lookup::Unknown;
  return memberOfValue(file, at, type, written, false, (*definition.members)[binding.index].name, depth + 1, found);
}

Lookup ConstantFolder::Impl::member(std::size_t file, std::size_t before, const std::string &path, int depth,
                                    Definition &found) const {
  const std::size_t dot = path.find('.');
  if (dot == std::string::npos || depth >= kMaxDepth)
    return Lookup::Unknown;
  const std::string base = path.substr(0, dot), fields = path.substr(dot + 1);
  if (base == "this") { // `this->n_`: the member, whatever the function's own names hide
    const std::size_t next = fields.find('.');
    const std::string field = fields.substr(0, next);
    const std::optional<MethodScope> method = methodAround(file, before, field);
    if (!method)
      return Lookup::Unknown;
    if (next != std::string::npos)
      return classMemberField(file, *method, field, fields.substr(next + 1), depth, found);
    return before > method->body ? bodyAssignment(file, *method, field, before, depth, found) // in order there
                                 : classMember(file, *method, field, depth, found);
  }
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  const int useBlock = source.blockAt(before);
  // A data member of the class of the function around, named bare: past the function's own names, the class's.
  const std::optional<MethodScope> method = methodAround(file, before, base);
  const int head = source.functionHeadAt(before); // where `before` is a constructor's member initializer
  for (const std::size_t at : source.wordsBefore(base, before)) {
    if (++examined_ > kMaxNamesExamined)
      return Lookup::Unknown;
    if (afterMemberAccess(code, at) || afterScopeOperator(code, at))
      continue; // a member or qualified name of that name
    if (method && at < method->parameters)
      return classMemberField(file, *method, base, fields, depth, found);
    if (method && method->initializers <= at && at < method->body)
      continue; // a constructor's member initializers, which classMember() reads
    std::size_t end = 0;
    bool deeper = false;
    const std::string chain = memberChainAt(code, at + base.size(), end, deeper);
    if (!chain.empty()) {
      if (const std::size_t dot = chain.rfind('.'); deeper && code[code.find_first_not_of(" \t\r\n", end)] == '(') {
        // A method called on it, `p.setLarge()`, may change what it is called on, unless it is `const` or
        // its class's member functions leave the member alone.
        const std::string object = dot == std::string::npos ? "" : chain.substr(0, dot);
        const std::string method = dot == std::string::npos ? chain : chain.substr(dot + 1);
        if ((object.empty() || overlaps(object, fields)) && !onlyConstMethods(method) &&
            !(object.empty() && methodsLeave(method, fields.substr(0, fields.find('.')))) &&
            !untaken(file, at, before, depth))
          return Lookup::Unknown;
        continue;
      }
      if (!overlaps(chain, fields) || !changesMembersAt(code, at, end, deeper) || untaken(file, at, before, depth))
        continue; // another member, or a read
      if (chain != fields || deeper)
        return Lookup::Unknown; // a part of it, or all of it, changed another way: `p.grid.x = 4;`, `p.v[0] = 1;`
      const std::string written = code.substr(at, end - at); // `o.n`, `o->n`
      if (source.outermostFunctionBodyAt(at) == source.outermostFunctionBodyAt(before))
        if (const std::optional<Lookup> read = commandLine().change(file, at, written, before, depth, found)) {
          if (*read == Lookup::Absent)
            continue;   // an option loop's branch, or a `getopt` case, that no argument leads to
          return *read; // `o.n = atoi(argv[++i]);` in an option loop
        }
      const std::optional<std::string> assigned = assignedText(code, at, written);
      if (!assigned || !runsBeforeEachUse(file, at, before, readsName(*assigned, base), depth))
        return Lookup::Unknown;
      found = Definition(*assigned, file, at, false); // `p.n *= 2` reads as `p.n * (2)`, looked up from here
      return Lookup::Found;
    }
    if (const std::optional<CudaCode::ParameterList> list = source.parameterListAround(at)) { // a lambda's too
      if (!source.encloses(list->body, useBlock) && head != list->body)
        continue; // another function's parameter (a constructor's member initializers see its own)
      return structParameter(file, *list, at, base, fields, depth, found);
    }
    std::vector<std::string> type = declaredTypeBefore(code, at);
    if (type.empty())
      type = listedDeclarationType(code, at, true).value_or(type); // `Params a = {64, 1}, b = {64, 2};`
    const std::size_t after = code.find_first_not_of(" \t\r\n", at + base.size());
    const std::size_t previous = codeEndBefore(code, at);
    if (after != std::string::npos && code[after] == ':' && code.compare(after, 2, "::") != 0 &&
        (declaresName(type) || (previous > 0 && code[previous - 1] == '&')))
      return rangeForValue(file, at, fields, depth, found); // `for (const Case &c : cases)`
    if (!declaresName(type)) {
      const std::optional<OutArgument> out = outArgument(file, at, base.size()); // to a function that may set it
      const bool passed = out.has_value();
      if (!(passed || changesAt(code, at, base.size())) || onlyRead(file, at, base.size()) ||
          untaken(file, at, before, depth))
        continue;
      if (queriedElsewhere(file, at, base.size(), before))
        continue; // a global's query, which the global's declaration reads
      if (const Lookup queried = deviceQuery(file, at, base.size(), fields, before, depth, found);
          queried != Lookup::Absent)
        return queried; // `cudaGetDeviceProperties(&prop, 0)`
      if (passed) {     // by reference to a function of the files, `parse(argc, argv, o)`: what it leaves there
        if (!runsBeforeEachUse(file, out->callAt, before, false, depth) ||
            memberLeftBy(*out, fields, depth, found) != Lookup::Found)
          return Lookup::Unknown;
        note({"`" + path + "` = " + (found.number ? shownNumber(*found.number) : "a dim3") + ", as `" + out->callee +
              "` at " + source.where(at) + " sets it"});
        return Lookup::Found;
      }
      const std::optional<std::string> assigned = assignedText(code, at, base);
      if (!assigned || !runsBeforeEachUse(file, at, before, false, depth))
        return Lookup::Unknown;
      return memberOfValue(file, at, "", *assigned, false, fields, depth, found); // `p = q;`, `p = Params{...};`
    }
    const int declaredIn = source.blockAt(at);
    if (!source.encloses(declaredIn, useBlock))
      continue; // another function's, or a closed block's
    const bool constant = std::count(type.begin(), type.end(), "const") || std::count(type.begin(), type.end(), "constexpr");
    const bool local = source.insideFunction(declaredIn);
    if (!local && !constant && changedAnywhere(base, depth))
      return queriedGlobal(base, fields, depth, found); // a global the program may change, unless only queries do
    if (const std::string className = structNamedBy(type); local && definesConstructor(className))
      return objectMember(file, at, className, fields, depth, found); // `Grid g(512, 256);`
    const std::size_t next = code.find_first_not_of(" \t\r\n", at + base.size());
    std::string value;
    if (next != std::string::npos && code[next] == '=' && code.compare(next, 2, "==") != 0) {
      const std::size_t end = statementEndFrom(code, next + 1);
      if (end == std::string::npos)
        return Lookup::Unknown;
      value = topLevelParts(std::string_view(code).substr(next + 1, end - next - 2)).front();
    } else if (next != std::string::npos && code[next] == '{') {
      const std::size_t close = pastClosing(code, next);
      if (close == std::string::npos)
        return Lookup::Unknown;
      value = code.substr(next, close - next);
    } else if (next == std::string::npos || (code[next] != ';' && code[next] != ',')) {
      return Lookup::Unknown; // `Params p(4096);`: a constructor
    }
    const bool zeroed = !local || std::count(type.begin(), type.end(), "static");
    return memberOfValue(file, at, structNamedBy(type), value, zeroed, fields, depth, found);
  }
  return method ? classMemberField(file, *method, base, fields, depth, found) : Lookup::Absent;
}

Lookup ConstantFolder::Impl::structParameter(std::size_t file, const CudaCode::ParameterList &list, std::size_t at,
                                             const std::string &base, const std::string &fields, int depth,
                                             Definition &found) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  const std::string function = source.functionNameOf(list.body);
  const std::string_view before = std::string_view(code).substr(list.open + 1, at - list.open - 1);
  if (function.empty() || function == "main" || before.find('<') != std::string_view::npos)
    return Lookup::Unknown; // after a `<`, a template's commas may split no parameters
  const std::vector<std::string> declaredBefore = topLevelParts(before);
  const std::size_t index = declaredBefore.size() - 1;
  // A pointer to one struct (`Options *o`, read as `o->n`) is what its calls pass the address of (`&o`).
  const std::string &declared = declaredBefore.back();
  const bool pointer = std::count(declared.begin(), declared.end(), '*') == 1;
  if ((!pointer && declared.find('*') != std::string::npos) || declared.find('[') != std::string::npos ||
      index >= source.parametersOf(list.body).size())
    return Lookup::Unknown; // a pointer to pointers, an array, or not its declaration
  // The member's type, for the value as C converts it to that type, and whether it is a dim3.
  std::string type = structNamedBy(wordsIn(declaredBefore.back()));
  std::vector<std::string> memberType;
  // The runtime's `cudaDeviceProp`, which the files do not define: a size member (`prop.multiProcessorCount`).
  const bool properties = type == "cudaDeviceProp" && targetDeviceNamed(kDefaultTargetGpu)->property(fields);
  if (properties)
    memberType = {"int"};
  for (std::size_t from = 0; !properties && from <= fields.size();) {
    const std::size_t dot = std::min(fields.find('.', from), fields.size());
    const StructFound definition = type.empty() ? StructFound{} : structMembers(file, type, true);
    const std::string field = fields.substr(from, dot - from);
    const auto member = definition.members == nullptr
                            ? std::vector<StructMember>::const_iterator()
                            : std::find_if(definition.members->begin(), definition.members->end(),
                                           [&](const StructMember &each) { return each.name == field; });
    if (definition.members == nullptr || member == definition.members->end())
      return Lookup::Unknown; // a struct the files do not define
    memberType = wordsIn(member->type);
    type = structNamedBy(memberType);
    from = dot + 1;
  }
  const PassedAt passed = [&](std::size_t callFile, std::size_t call) -> std::optional<PassedArgument> {
    const std::optional<std::vector<std::string>> arguments = callArguments(callFile, call, function);
    if (!arguments || index >= arguments->size())
      return std::nullopt;
    std::string argument = trimmed((*arguments)[index]);
    if (pointer && (argument.empty() || argument[0] != '&'))
      return std::nullopt; // a pointer variable: what it points at is not read
    argument = pointer ? trimmed(std::string_view(argument).substr(1)) : argument;
    const std::string variable = isName(argument) ? argument : memberPathOf(tokensOf(argument));
    if (variable.empty())
      return std::nullopt; // a braced list or a call's result: not read here
    return PassedArgument{variable + "." + fields, callFile, call};
  };
  found = Definition("", file, at, memberType == std::vector<std::string>{"dim3"});
  return agreedArgument({programKey(function, file) + "." + fields, index}, function, base + "." + fields,
                        memberType, passed, "passes no variable for it (a braced list, a call's result)", depth,
                        found);
}

} // namespace ptxdvfs::tools
