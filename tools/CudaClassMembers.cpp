// CudaClassMembers.cpp - a class's data member named bare in its member
// functions, as C++ classes keep a solver's sizes:
// `Solver(int n) : n_(n), blocks_((n + 255) / 256) {}` then
// `void step(float *u) { k<<<blocks_, 256>>>(u, n_); }`. Its value is what
// the constructor leaves, its parameters read as every object built passes them.
#include "CudaCommandLineReads.h"
#include "CudaConstantsImpl.h"
#include "CudaStatements.h"

#include <algorithm>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

const StructMember *memberNamed(const std::vector<StructMember> *members, const std::string &name) {
  if (members == nullptr)
    return nullptr;
  const auto found = std::find_if(members->begin(), members->end(),
                                  [&](const StructMember &member) { return member.name == name; });
  return found == members->end() ? nullptr : &*found;
}

/// The declarations of objects found so far in one file, by name and the
/// block of the use: where one was declared in that very block, every
/// later use there names it (a block declares a name once).
using DeclarationsSeen = std::map<std::pair<std::string, int>, std::pair<std::size_t, std::vector<std::string>>>;

/// The type words of the variable whose member is written at `member`
/// (`p` of `p.n = 8;`), as its declaration in a block around gives them;
/// empty where the object is no plain variable or no declaration is found
/// among the 256 uses of its name before it (each change of the member
/// asks: an unbounded walk grew with the square of the uses).
std::vector<std::string> objectTypeAt(const CudaCode &source, std::size_t member, DeclarationsSeen &seen) {
  constexpr int kMostUses = 256;
  const std::string &code = source.code();
  std::size_t objectAt = member;
  const std::string object = objectBefore(code, member, objectAt);
  if (object.empty() || object == "this" || afterScopeOperator(code, objectAt))
    return {};
  const int used = source.blockAt(member);
  if (auto known = seen.find({object, used}); known != seen.end() && known->second.first < objectAt)
    return known->second.second;
  int uses = 0;
  for (std::size_t at = code.rfind(object, objectAt == 0 ? 0 : objectAt - 1); at != std::string::npos && at > 0;
       at = code.rfind(object, at - 1)) {
    if (!isWholeWord(code, at, object.size()) || afterMemberAccess(code, at))
      continue;
    if (++uses > kMostUses)
      return {};
    if (const std::optional<CudaCode::ParameterList> parameter = source.parameterListAround(at)) {
      if (!source.encloses(parameter->body, used))
        return {}; // the nearest is another function's parameter
      const std::size_t start = code.find_last_of("(,", at); // `Params &q`: its words before the name
      return wordsIn(std::string_view(code).substr(start + 1, at - start - 1));
    }
    const std::vector<std::string> type = declaredTypeBefore(code, at);
    if (!declaresName(type))
      continue;
    if (!source.encloses(source.blockAt(at), used))
      return {}; // the nearest is not seen here
    if (source.blockAt(at) == used)
      seen[{object, used}] = {at, type};
    return type;
  }
  return {};
}

/// Just past the last code of the body `block` of `source`, where names
/// are read as its statements leave them; npos where it is not closed.
std::size_t endOfBody(const CudaCode &source, int block) {
  const std::size_t close = source.pastBlockOpenedAt(source.openBraceOf(block));
  return close == std::string::npos ? close : codeEndBefore(source.code(), close - 1);
}

} // namespace

bool ConstantFolder::Impl::anotherClass(const std::vector<std::string> &type, const std::string &className) const {
  const std::string named = structNamedBy(type);
  if (named.empty() || named == className)
    return false;
  auto known = remembered_.classesNamed.find(named);
  if (known == remembered_.classesNamed.end()) {
    bool defined = false; // by a body of its own, not a typedef that may rename the class
    for (const CudaCode &source : files_)
      for (int block = 0; !defined && block < source.blocks(); ++block)
        defined = !source.isFunctionBody(block) && source.classNameOf(block) == named;
    known = remembered_.classesNamed.emplace(named, defined).first;
  }
  return known->second;
}

Lookup ConstantFolder::Impl::bodyAssignment(std::size_t file, const MethodScope &method,
                                                   const std::string &name, std::size_t before, int depth,
                                                   Definition &found) const {
  const std::string &code = files_[file].code();
  for (const std::size_t at : files_[file].wordsBefore(name, before)) {
    if (at <= method.body)
      break;
    if (++examined_ > kMaxNamesExamined)
      return Lookup::Unknown;
    const std::size_t self = thisBefore(code, at);
    if (afterScopeOperator(code, at) ||
        (self == std::string::npos && (method.hidden || afterMemberAccess(code, at))))
      continue; // another name, another object's member, or the parameter
    const bool passed = outArgument(file, at, name.size()).has_value();
    if ((!passed && !changesAt(code, at, name.size())) || onlyRead(file, at, name.size()) ||
        untaken(file, at, before, depth))
      continue;
    const std::size_t start = self == std::string::npos ? at : self;
    const std::string written = code.substr(start, at + name.size() - start);
    if (const std::optional<Lookup> read =
            passed ? std::nullopt : commandLine().change(file, start, written, before, depth, found)) {
      if (*read == Lookup::Absent)
        continue;   // an option loop's branch that no argument leads to
      return *read; // `n = atoi(argv[++i]);` in an option loop of the constructor's
    }
    const std::optional<std::string> assigned = passed ? std::nullopt : assignedText(code, start, written);
    if (!assigned || !runsBeforeEachUse(file, start, before, readsName(*assigned, name), depth))
      return Lookup::Unknown;
    found = Definition(*assigned, file, start, wordsIn(memberNamed(structMembers(file, method.className, true).members,
                                                                  name)->type) == std::vector<std::string>{"dim3"});
    return Lookup::Found;
  }
  return classMember(file, method, name, depth, found);
}

bool ConstantFolder::Impl::methodsLeave(const std::string &method, const std::string &member) const {
  bool any = false;
  for (std::size_t file = 0; file < files_.size(); ++file)
    for (const int body : files_[file].functionBodiesNamed(method)) {
      const std::string className = files_[file].classOfFunction(body);
      if (className.empty() || !memberNamed(structMembers(file, className, true).members, member))
        return false; // a free function's name, or a class without that member: not read
      const MemberChanges &changes = memberChanges(className, member);
      if (changes.other || changes.setter)
        return false;
      any = true;
    }
  return any;
}

bool ConstantFolder::Impl::definesConstructor(const std::string &className) const {
  return !className.empty() && std::any_of(files_.begin(), files_.end(), [&](const CudaCode &file) {
    return file.definesConstructor(className);
  });
}

Lookup ConstantFolder::Impl::objectMember(std::size_t file, std::size_t at, const std::string &className,
                                          const std::string &fields, int depth, Definition &found) const {
  const MethodScope outside{className, -1, 0, 0, 0, false, false}; // read from no member function of it
  const std::size_t dot = fields.find('.');
  if (dot != std::string::npos)
    return classMemberField(file, outside, fields.substr(0, dot), fields.substr(dot + 1), depth, found);
  const std::vector<std::pair<std::size_t, std::size_t>> built = callsOf(className, file);
  const auto construction = std::find_if(built.begin(), built.end(), [&](const auto &call) {
    return call.first == file && constructedVariable(files_[file].code(), call.second, className) == at;
  });
  if (construction == built.end())
    return Lookup::Unknown;
  // Folded here, while the constructor's parameters are what this object's construction passes.
  const TemplateCalls outer = callsRead_;
  TemplateCalls calls = outer;
  calls[className] = {*construction};
  readCalls(std::move(calls));
  Definition value;
  Lookup lookup = classMember(file, outside, fields, depth, value);
  if (lookup == Lookup::Found)
    lookup = foldedWhereWritten(value, depth, found);
  readCalls(outer);
  return lookup;
}

std::optional<ConstantFolder::Impl::MethodScope>
ConstantFolder::Impl::methodAround(std::size_t file, std::size_t before, const std::string &name) const {
  const CudaCode &source = files_[file];
  int body = source.outermostFunctionBodyAt(before);
  if (body < 0)
    body = source.functionHeadAt(before); // a constructor's member initializer
  const std::string className = body < 0 ? std::string() : source.classOfFunction(body);
  if (className.empty() || !memberNamed(structMembers(file, className, true).members, name))
    return std::nullopt;
  const std::size_t brace = source.openBraceOf(body);
  const std::size_t colon = memberInitializersBefore(source.code(), brace);
  // A parameter or a local of the member's name hides it: there only `this->name` surely is the member.
  const std::vector<std::string> parameters = source.parametersOf(body);
  bool hidden = std::any_of(parameters.begin(), parameters.end(), [&](const std::string &parameter) {
    const std::vector<std::string> words = wordsIn(parameter.substr(0, parameter.find('=')));
    return !words.empty() && words.back() == name;
  });
  const std::string &code = source.code();
  const std::size_t close = source.pastBlockOpenedAt(brace);
  for (std::size_t at = code.find(name, brace); !hidden && at < close; at = code.find(name, at + 1))
    hidden = isWholeWord(code, at, name.size()) && !afterMemberAccess(code, at) &&
             declaresName(declaredTypeBefore(code, at));
  return MethodScope{className, body, source.parameterListOf(brace), colon == std::string::npos ? brace : colon,
                     brace, source.isConstructor(body), hidden};
}

Lookup ConstantFolder::Impl::classMemberField(std::size_t file, const MethodScope &method, const std::string &base,
                                              const std::string &fields, int depth, Definition &found) const {
  const StructMember *member = memberNamed(structMembers(file, method.className, true).members, base);
  Definition value;
  if (member == nullptr || classMember(file, method, base, depth, value) != Lookup::Found)
    return Lookup::Unknown;
  return memberOfValue(value.file, value.offset, structNamedBy(wordsIn(member->type)), value.text, false, fields,
                       depth + 1, found);
}

const ConstantFolder::Impl::MemberChanges &ConstantFolder::Impl::memberChanges(const std::string &className,
                                                                              const std::string &name) const {
  if (auto known = remembered_.membersChanged.find({className, name}); known != remembered_.membersChanged.end())
    return known->second;
  MemberChanges changes;
  for (std::size_t file = 0; file < files_.size() && !changes.other; ++file) {
    const CudaCode &source = files_[file];
    const std::string &code = source.code();
    DeclarationsSeen declarations;
    for (const std::size_t at : source.wordsNamed(name)) {
      if (changes.other)
        break;
      if (++examined_ > kMaxNamesExamined) {
        changes.other = std::pair{file, at}; // not read to the end: not known to be unchanged
        break;
      }
      int body = -1;
      if ((!changesAt(code, at, name.size()) || onlyRead(file, at, name.size())) &&
          !outArgument(file, at, name.size()))
        continue; // a read, the most of them: checked first
      const bool member = afterMemberAccess(code, at) && thisBefore(code, at) == std::string::npos;
      if (member && anotherClass(objectTypeAt(source, at, declarations), className))
        continue; // `p.n = 8` where `p` is declared of another struct: its own member
      if (!member) {
        // Bare or after `this->`, it is this member only in the class's own functions.
        body = source.outermostFunctionBodyAt(at);
        if (body < 0 || source.classOfFunction(body) != className || source.isConstructor(body) ||
            declaresName(declaredTypeBefore(code, at)))
          continue; // another function's name, a constructor's (read in order there), a local's declaration
      }
      // A setter assigns it outright, once: not `n_ *= 2` or `++n_`, which each call would change again.
      const std::size_t start = thisBefore(code, at) == std::string::npos ? at : thisBefore(code, at);
      const std::optional<std::string> assigned =
          body < 0 ? std::nullopt : assignedText(code, start, code.substr(start, at + name.size() - start));
      if (assigned && !readsName(*assigned, name) &&
          (!changes.setter || *changes.setter == std::pair{file, body})) {
        changes.setter = std::pair{file, body}; // so far the one member function that sets it
        changes.setterAt = changes.setterAt == std::string::npos ? at : changes.setterAt;
      } else {
        changes.other = std::pair{file, at}; // `x.n_ = 8` counts where `x`'s class is not read
      }
    }
  }
  return remembered_.membersChanged.emplace(std::pair{className, name}, changes).first->second;
}

Lookup ConstantFolder::Impl::classMember(std::size_t file, const MethodScope &method, const std::string &name,
                                         int depth, Definition &found) const {
  const StructFound members = structMembers(file, method.className, true);
  const StructMember *member = memberNamed(members.members, name);
  if (member == nullptr || depth >= kMaxDepth)
    return Lookup::Unknown;
  const std::string shown = "`" + method.className + "::" + name + "`";
  const MemberChanges &changes = memberChanges(method.className, name);
  if (changes.other)
    return leftOpen(shown + " changes at " + files_[changes.other->first].where(changes.other->second) +
                ", outside its constructor and any one member function that sets it");
  const bool dim3 = wordsIn(member->type) == std::vector<std::string>{"dim3"};
  const std::string setter =
      changes.setter ? files_[changes.setter->first].functionNameOf(changes.setter->second) : std::string();
  if (changes.setter && *changes.setter != std::pair{file, method.block} &&
      !callsOf(setter, changes.setter->first).empty()) {
    // What the one member function that sets it leaves, taken to run before those that read it (`s.init(n)`).
    const std::size_t end = endOfBody(files_[changes.setter->first], changes.setter->second);
    if (end == std::string::npos)
      return Lookup::Unknown;
    note({shown + " is what `" + setter + "` leaves in it (set at " +
          files_[changes.setter->first].where(changes.setterAt) +
          "), taken to run before the member functions that read it"});
    found = Definition("this->" + name, changes.setter->first, end, dim3);
    return Lookup::Found;
  }
  // The class's constructors, in the files `file` sees.
  std::vector<std::pair<std::size_t, int>> constructors;
  for (std::size_t other = 0; other < files_.size(); ++other)
    if (other == file || seen_[file][other])
      for (const int body : files_[other].functionBodiesNamed(method.className))
        if (files_[other].isConstructor(body) && files_[other].classOfFunction(body) == method.className)
          constructors.emplace_back(other, body);
  std::size_t initializedIn = file;
  int constructor = -1;
  if (method.constructor) {
    constructor = method.block;
  } else if (constructors.size() > 1) {
    return leftOpen("`" + method.className + "` has " + std::to_string(constructors.size()) +
                " constructors, and which one built the object is not read");
  } else if (constructors.size() == 1) {
    // What the constructor leaves at the end of its body, its statements read in order there.
    const CudaCode &source = files_[constructors[0].first];
    const std::size_t end = endOfBody(source, constructors[0].second);
    if (end == std::string::npos)
      return Lookup::Unknown;
    if (end > source.openBraceOf(constructors[0].second) + 1) {
      found = Definition("this->" + name, constructors[0].first, end, dim3); // the member, whatever hides its name
      return Lookup::Found;
    }
    std::tie(initializedIn, constructor) = constructors[0]; // an empty body: its member initializers
  } else {
    // An aggregate: built with values, its members are those values, for each object.
    for (std::size_t other = 0; other < files_.size(); ++other)
      for (const std::size_t at : constructionsIn(files_[other], method.className))
        if (const auto arguments = constructionArguments(files_[other].code(), at, method.className.size());
            arguments && !arguments->empty())
          return leftOpen("`" + method.className + "` is built with values at " + files_[other].where(at));
  }
  if (constructor >= 0)
    for (const CudaCode::MemberInitializer &initializer : files_[initializedIn].memberInitializersOf(constructor))
      if (initializer.member == name) {
        const std::string text =
            files_[initializedIn].code().substr(initializer.open + 1, initializer.close - initializer.open - 1);
        found = Definition(dim3 ? "dim3(" + text + ")" : text, initializedIn, initializer.open + 1, dim3);
        note({shown + " = " + quotedCode(text) + ", as its constructor at " +
              files_[initializedIn].where(initializer.open) + " sets it"});
        return Lookup::Found;
      }
  if (member->initializer.empty()) {
    // Default-initialized: a dim3 is 1 x 1 x 1, a struct has its own members' defaults (memberOfValue()).
    const std::string type = structNamedBy(wordsIn(member->type));
    if (!dim3 && structMembers(file, type).members == nullptr)
      return leftOpen(shown + " is given no value where the object is built");
    found = Definition("", members.file, members.file == file ? method.body : 0, dim3);
    if (dim3)
      found.dims = ptx::analysis::Dim3{};
    return Lookup::Found;
  }
  found = Definition(dim3 ? "dim3(" + member->initializer + ")" : member->initializer, members.file,
                     member->initializerAt, dim3);
  note({shown + " = " + quotedCode(member->initializer) + ", its default member initializer at " +
        files_[members.file].where(member->initializerAt)});
  return Lookup::Found;
}

} // namespace ptxdvfs::tools
