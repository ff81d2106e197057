// CudaOutArguments.cpp - what a host call gives back beyond a one-`return`
// function: what it leaves in a variable it takes by reference (`void
// sizes(int n, int &blocks)`) or by address (`void sizes(int n, int
// *blocks)`, called with `&blocks`), the value the callee's body gives
// that parameter (or `*blocks`), read as any variable of it; and what a
// body of several statements returns at its end.
#include "CudaCommandLineReads.h"
#include "CudaConstantsImpl.h"
#include "CudaStatements.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

/// The name of `parameter` (one of a parameter list) where a call may
/// change what it passes there, a reference or pointer to non-const (`int
/// &blocks`, `int *blocks`; not `const int *`, `int **` or an array), and
/// whether it is a pointer; nullopt for any other parameter.
std::optional<std::pair<std::string, bool>> changingParameter(const std::string &parameter) {
  const std::vector<std::string> words = wordsIn(parameter);
  const std::optional<CudaDeclaration> declared = splitDeclaration(parameter);
  if (!declared || std::count(words.begin(), words.end(), "const") > 0)
    return std::nullopt;
  // Its declarator, without a default (`int *p = nullptr`); a prototype's may name nothing (`int &`).
  const std::string_view declarator = std::string_view(parameter).substr(0, plainAssignment(parameter));
  const bool reference = declarator.find('&') != std::string::npos && declarator.find("&&") == std::string::npos;
  const bool pointer = !reference && std::count(declarator.begin(), declarator.end(), '*') == 1 &&
                       declarator.find_first_of("[(") == std::string::npos;
  if (!reference && !pointer)
    return std::nullopt;
  return std::pair{declared->name, pointer};
}

/// Whether `parameter` is a pointer to const, one `*` written after a
/// `const` (`const Params *p`, `float const *x`; not `int *const p`).
bool pointerToConst(const std::string &parameter) {
  const std::string_view declarator = std::string_view(parameter).substr(0, plainAssignment(parameter));
  const std::size_t star = declarator.find('*');
  return star != std::string_view::npos && declarator.find('*', star + 1) == std::string_view::npos &&
         declarator.find_first_of("&[(") == std::string_view::npos &&
         readsName(declarator.substr(0, star), "const");
}

/// The parameter lists of the declarations of the function `name` in
/// `file` that are no definition (`void readSizes(int &n, int &m);`),
/// outside function bodies, each split at its commas.
std::vector<std::vector<std::string>> prototypesOf(const CudaCode &file, const std::string &name) {
  const std::string &code = file.code();
  std::vector<std::vector<std::string>> prototypes;
  if (name.empty())
    return prototypes; // nothing to look for, and code.find("") would not move on
  for (std::size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + name.size())) {
    if (!isWholeWord(code, at, name.size()) || file.functionBodyAt(at) >= 0 || afterMemberAccess(code, at))
      continue;
    const std::size_t open = code.find_first_not_of(" \t\r\n", at + name.size());
    const std::size_t end = open == std::string::npos || code[open] != '(' ? std::string::npos : pastClosing(code, open);
    const std::size_t next = end == std::string::npos ? end : code.find_first_not_of(" \t\r\n", end);
    if (next == std::string::npos || code[next] != ';' || !declaresName(returnTypeBefore(code, at)))
      continue; // a call, a definition, or no function's declaration
    prototypes.push_back(topLevelParts(std::string_view(code).substr(open + 1, end - open - 2)));
  }
  return prototypes;
}

} // namespace

const std::vector<ConstantFolder::Impl::ReferenceParameters> &
ConstantFolder::Impl::referenceParametersOf(const std::string &callee) const {
  auto cached = remembered_.referenceParameters.find(callee);
  if (cached != remembered_.referenceParameters.end())
    return cached->second;
  std::vector<ReferenceParameters> definitions;
  bool anyReference = false;
  const auto read = [&](std::size_t file, int body, const std::vector<std::string> &parameters) {
    ReferenceParameters definition{file, body, 0, {}, {}, {}};
    for (const std::string &parameter : parameters) {
      if (trimmed(parameter).empty() || trimmed(parameter) == "void")
        continue; // `f()`, `f(void)`
      definition.required += plainAssignment(parameter) == std::string::npos ? 1 : 0;
      const std::optional<std::pair<std::string, bool>> changing = changingParameter(parameter);
      definition.references.push_back(changing ? changing->first : std::string());
      definition.pointers.push_back(changing && changing->second);
      definition.pointersToConst.push_back(pointerToConst(parameter));
      anyReference = anyReference || changing || definition.pointersToConst.back();
    }
    definitions.push_back(std::move(definition));
  };
  for (std::size_t file = 0; file < files_.size(); ++file)
    for (int body : files_[file].functionBodiesNamed(callee))
      read(file, body, files_[file].parametersOf(body));
  // Defined nowhere in the files (a library's, or another file's not read): its declarations tell
  // what it may change, though not what it leaves there (body -1).
  const bool defined = !definitions.empty();
  for (std::size_t file = 0; file < files_.size() && !defined; ++file)
    for (const std::vector<std::string> &parameters : prototypesOf(files_[file], callee))
      read(file, -1, parameters);
  if (!anyReference)
    definitions.clear(); // nothing of it takes what a call passes by address: no need to look further
  return remembered_.referenceParameters.emplace(callee, std::move(definitions)).first->second;
}

std::optional<constants::OutArgument> ConstantFolder::Impl::outArgument(std::size_t file, std::size_t at,
                                                                                   std::size_t length) const {
  const std::string &code = files_[file].code();
  std::size_t previous = codeEndBefore(code, at);
  const bool address = previous > 1 && code[previous - 1] == '&' && code[previous - 2] != '&'; // `setup(n, &blocks)`
  previous = address ? codeEndBefore(code, previous - 1) : previous;
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
  if (callee.empty() || kNotCalls.count(callee) || afterMemberAccess(code, nameStart))
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
        arguments < definition.required || definition.references[index].empty() ||
        definition.pointers[index] != address)
      continue; // another overload (another number of arguments), or one that cannot change it
    // Overloads that may change it: which one the call takes is not read.
    out = out || definition.body < 0 ? OutArgument{callee, "", definition.definedIn, -1, nameStart, address}
              : OutArgument{callee, definition.references[index], definition.definedIn, definition.body, nameStart,
                            address};
  }
  return out;
}

bool ConstantFolder::Impl::onlyRead(std::size_t file, std::size_t at, std::size_t length) const {
  const std::string &code = files_[file].code();
  if (passedToBeRead(code, at, length))
    return true;
  const std::optional<CallArgument> passed = addressArgumentAt(code, at, length);
  if (!passed || !passed->whole || passed->callee.empty())
    return false; // `(&n)`: no call
  const std::size_t arguments = argumentCountAndIndex(code, passed->open, at).first;
  bool fits = false;
  for (const ReferenceParameters &definition : referenceParametersOf(passed->callee)) {
    if ((definition.definedIn != file && !seen_[file][definition.definedIn]) ||
        arguments > definition.references.size() || arguments < definition.required)
      continue; // another program's, or another overload
    if (!definition.pointersToConst[passed->index])
      return false; // one that may change it
    fits = true;
  }
  return fits;
}

std::optional<std::size_t> ConstantFolder::Impl::bodyLeftAt(std::size_t file, int body, int depth,
                                                            std::string *returned) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  const std::size_t open = source.openBraceOf(body), end = source.pastBlockOpenedAt(open);
  if (end == std::string::npos || end < open + 3 || depth >= kMaxDepth)
    return std::nullopt;
  for (std::size_t at = code.find("return", open); at < end; at = code.find("return", at + 6)) {
    if (!isWholeWord(code, at, 6) || untaken(file, at, std::string::npos, depth))
      continue; // `if (argc < 2) return;` run with arguments
    if (runsBeforeEachUse(file, at, end - 2, false, depth))
      return at;
    const std::optional<std::optional<std::string>> inLoop =
        returned ? commandLine().optionLoopReturn(file, at, depth + 1) : std::nullopt;
    if (!inLoop)
      return std::nullopt;
    if (!*inLoop)
      continue; // `if (!strcmp(argv[i], name)) return atoi(argv[i + 1]);` that no argument takes
    *returned = **inLoop;
    return at;
  }
  return end - 2; // just before the body's `}`, which blockAt() reads as outside it
}

std::optional<Definition> ConstantFolder::Impl::valueLeftBy(const OutArgument &out, std::size_t callFile,
                                                            const std::string &passed, int depth) const {
  const std::optional<std::size_t> exit = out.body < 0 ? std::nullopt : bodyLeftAt(out.definedIn, out.body, depth);
  if (!exit)
    return std::nullopt;
  // Read where the body is left, its parameters as every call passes them. Not scoped to this call: that
  // would change the calls read (readCalls()) under a fold that holds what they cache.
  Definition value(out.parameter, out.definedIn, *exit, false);
  if (const Lookup pointed =
          out.pointer ? pointee(out.definedIn, *exit, out.parameter, depth + 1, value) : Lookup::Found;
      pointed == Lookup::Absent)
    value = Definition(passed, callFile, out.callAt, false); // `if (argc < 2) return false;` before `*n = ...`
  else if (pointed != Lookup::Found)
    return std::nullopt;
  Definition left("", out.definedIn, *exit, false);
  if ((left.number = number(value.file, value.offset, value.text, depth + 1)))
    return left;
  if ((left.dims = dimension(value.file, value.offset, value.text, depth + 1))) { // `dim3 &grid`
    left.dim3 = true;
    return left;
  }
  return std::nullopt;
}

Lookup ConstantFolder::Impl::memberLeftBy(const OutArgument &out, const std::string &fields, int depth,
                                          Definition &found) const {
  const std::optional<std::size_t> exit = out.body < 0 ? std::nullopt : bodyLeftAt(out.definedIn, out.body, depth);
  Definition value; // read where the body is left, as valueLeftBy() reads a number
  if (!exit || member(out.definedIn, *exit, out.parameter + "." + fields, depth + 1, value) != Lookup::Found)
    return Lookup::Unknown;
  return foldedWhereWritten(value, depth, found);
}

Lookup ConstantFolder::Impl::foldedWhereWritten(const Definition &value, int depth, Definition &found) const {
  if (value.number || value.dims) {
    found = value;
    return Lookup::Found;
  }
  found = Definition("", value.file, value.offset, value.dim3);
  if (value.dim3)
    found.dims = dimension(value.file, value.offset, value.text, depth + 1);
  else
    found.number = number(value.file, value.offset, value.text, depth + 1);
  return found.dims || found.number ? Lookup::Found : Lookup::Unknown;
}

Lookup ConstantFolder::Impl::pointee(std::size_t file, std::size_t before, const std::string &name, int depth,
                                     Definition &found) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  const int body = source.functionBodyAt(before);
  if (body < 0 || depth >= kMaxDepth)
    return Lookup::Unknown;
  const std::size_t open = source.openBraceOf(body);
  for (const std::size_t at : source.wordsBefore(name, before)) {
    if (at <= open)
      break;
    if (++examined_ > kMaxNamesExamined)
      return Lookup::Unknown;
    if (afterMemberAccess(code, at))
      continue;
    const std::size_t previous = codeEndBefore(code, at);
    if (previous == 0 || code[previous - 1] != '*')
      return Lookup::Unknown; // the pointer itself, passed on, indexed or moved: what it points at may change
    const std::size_t star = previous - 1, beforeStar = codeEndBefore(code, star);
    if (beforeStar > 0 && code[beforeStar - 1] == '(')
      return Lookup::Unknown; // `(*blocks)++`, or inside a call or a cast: it may change there
    if (!changesAt(code, at, name.size()) || untaken(file, at, before, depth))
      continue; // read, or set where the program does not go
    const std::optional<std::string> assigned = assignedText(code, star, code.substr(star, at + name.size() - star));
    if (!assigned || readsName(*assigned, name) || !runsBeforeEachUse(file, star, before, false, depth))
      return Lookup::Unknown; // `*blocks *= 2;`, or set in a loop or a branch not known to be taken
    found = Definition(*assigned, file, star, false);
    return Lookup::Found;
  }
  return Lookup::Absent; // nothing sets it there: what the caller's variable held
}

const std::optional<FunctionReturns> &ConstantFolder::Impl::functionReturns(std::size_t caller,
                                                                            const std::string &name) const {
  auto cached = remembered_.functionReturns.find({unitOf_[caller], name});
  if (cached != remembered_.functionReturns.end())
    return cached->second;
  std::optional<FunctionReturns> found;
  std::size_t definitions = 0;
  for (std::size_t file = 0; file < files_.size(); ++file) {
    if (file != caller && !seen_[caller][file])
      continue; // another program's
    const CudaCode &source = files_[file];
    const std::string &code = source.code();
    for (const int body : source.functionBodiesNamed(name)) {
      ++definitions;
      const std::size_t open = source.openBraceOf(body), end = source.pastBlockOpenedAt(open);
      FunctionReturns read{file, body, false, {}, {}, {}};
      std::size_t stop = std::string::npos; // past the last `return`'s `;`
      for (std::size_t at = code.find("return", open); end != std::string::npos && at < end;
           at = code.find("return", at + 6))
        if (isWholeWord(code, at, 6)) {
          stop = statementEndFrom(code, at + 6);
          if (stop == std::string::npos)
            break;
          read.returns.push_back(at + 6);
          read.texts.push_back(trimmed(std::string_view(code).substr(at + 6, stop - 1 - at - 6)));
        }
      const std::size_t after = stop == std::string::npos ? stop : code.find_first_not_of(" \t\r\n", stop);
      read.endsBody = after == end - 1;
      if (after == std::string::npos || code.find_first_not_of(" \t\r\n}", after) < end)
        continue; // no return, or a last one that is not the body's last statement (or its last block's)
      // Its return type, to convert the value as C does, from the words before the name of the body's head.
      if (std::size_t nameAt = source.parameterListOf(open); nameAt != std::string::npos) {
        wordBefore(code, nameAt);
        read.type = returnTypeBefore(code, nameAt);
      }
      found = std::move(read);
    }
  }
  if (definitions != 1)
    found.reset(); // overloads, or one defined in several files: which one a call takes is not read
  return remembered_.functionReturns.emplace(std::pair{unitOf_[caller], name}, std::move(found)).first->second;
}

std::optional<ReturnedValue> ConstantFolder::Impl::reachedReturn(std::size_t caller, const std::string &name,
                                                                 int depth) const {
  const std::optional<FunctionReturns> &read = functionReturns(caller, name);
  if (!read || depth >= kMaxDepth)
    return std::nullopt;
  std::size_t reached = 0; // one that ends the body runs whenever the body ends
  std::string inLoop;      // one in an option loop, as the pass that runs it reads it
  if (read->returns.size() > 1 || !read->endsBody) {
    const std::optional<std::size_t> left = bodyLeftAt(read->file, read->body, depth, &inLoop);
    const auto found = left ? std::find(read->returns.begin(), read->returns.end(), *left + 6) : read->returns.end();
    if (found == read->returns.end())
      return std::nullopt; // a `return` in a loop, or a branch not known to be taken, or none reached
    reached = static_cast<std::size_t>(found - read->returns.begin());
  }
  return ReturnedValue{inLoop.empty() ? read->texts[reached] : inLoop, read->file, read->returns[reached], read->type};
}

} // namespace ptxdvfs::tools
