// CudaParameters.cpp - what a function's parameter holds: what every call
// of it passes there, the calls the program run without arguments takes,
// a default argument where a call leaves it out.
#include "CudaConstantsImpl.h"

#include "CudaCallScope.h"

#include "CudaCommandLine.h"
#include "CudaStatements.h"

#include <algorithm>
#include <string_view>

namespace ptxdvfs::tools {

using ptx::analysis::Dim3;
using namespace expression;
using namespace constants;

const std::vector<std::pair<std::size_t, std::size_t>> &ConstantFolder::Impl::callsOf(const std::string &name) const {
  if (auto bound = callsBound_.find(name); bound != callsBound_.end())
    return bound->second; // the one a CallScope reads
  if (auto read = callsRead_.find(name); read != callsRead_.end())
    return read->second; // one instance's
  return everyCallOf(name);
}

const std::vector<std::pair<std::size_t, std::size_t>> &
ConstantFolder::Impl::everyCallOf(const std::string &name) const {
  auto cached = remembered_.calls.find(name);
  if (cached == remembered_.calls.end()) {
    std::vector<std::pair<std::size_t, std::size_t>> calls;
    const bool method = std::any_of(files_.begin(), files_.end(),
                                    [&](const CudaCode &file) { return file.definesMethod(name); });
    // A constructor is called where an object is built, `Solver s(4096);`, as is a class template's type.
    const bool constructed =
        definesConstructor(name) ||
        std::any_of(files_.begin(), files_.end(), [&](const CudaCode &file) { return file.definesClassTemplate(name); });
    for (std::size_t file = 0; file < files_.size(); ++file) {
      std::vector<std::size_t> offsets = callsIn(files_[file], name, method); // `solver.step(x)`, for a method
      if (constructed) {
        const std::vector<std::size_t> built = constructionsIn(files_[file], name);
        offsets.insert(offsets.end(), built.begin(), built.end());
        std::sort(offsets.begin(), offsets.end());
      }
      for (std::size_t at : offsets)
        calls.emplace_back(file, at);
    }
    examined_ += calls.size();
    cached = remembered_.calls.emplace(name, std::move(calls)).first;
  }
  return cached->second;
}

Lookup ConstantFolder::Impl::parameter(std::size_t file, const CudaCode::ParameterList &list, std::size_t at,
                                       const std::string &name, int depth, Definition &found) const {
  const std::string &code = files_[file].code();
  const std::string function = files_[file].functionNameOf(list.body);
  const std::string_view before = std::string_view(code).substr(list.open + 1, at - list.open - 1);
  // After a `<`, a template's commas may split no parameters.
  if (function.empty() || before.find('<') != std::string_view::npos)
    return Lookup::Unknown;
  // Its type as declared: `int`, `const dim3 &` (a reference reads as the value); a pointer or an array is no size.
  const std::vector<std::string> declaredBefore = topLevelParts(before); // the parameters up to this one's name
  const std::string &declaredAs = declaredBefore.back();
  const std::size_t after = code.find_first_not_of(" \t\r\n", at + name.size());
  const std::vector<std::string> type = wordsIn(declaredAs);
  if (type.empty() || declaredAs.find_first_of("*[") != std::string::npos || after == std::string::npos ||
      code[after] == '[')
    return Lookup::Unknown; // not its declaration (a default argument's name), or not a number
  const bool dim3 = std::count(type.begin(), type.end(), "dim3") > 0;
  const std::size_t index = declaredBefore.size() - 1;
  if (function == "main") { // the command line's: read as run without arguments, or with those given
    if (index != 0 || dim3)
      return Lookup::Unknown;
    found = Definition("", file, at, false);
    found.number = Number{false, static_cast<std::int64_t>(arguments_.size()) + 1, 0};
    note({"`" + name + "` = " + std::to_string(found.number->whole) + ", " + programRun(arguments_)});
    return Lookup::Found;
  }
  const std::vector<std::string> declared = files_[file].parametersOf(list.body);
  if (index >= declared.size())
    return Lookup::Unknown;
  const std::size_t equals = declared[index].find('=');
  const std::optional<std::string> defaultArgument =
      equals == std::string::npos ? std::nullopt : std::optional<std::string>(declared[index].substr(equals + 1));
  // A default argument is folded where it is declared, as the compiler does.
  const PassedAt passed = [&](std::size_t callFile, std::size_t call) -> std::optional<PassedArgument> {
    const std::optional<std::vector<std::string>> arguments = callArguments(callFile, call, function);
    if (!arguments || arguments->size() > declared.size() || (index >= arguments->size() && !defaultArgument))
      return std::nullopt;
    return index < arguments->size() ? PassedArgument{(*arguments)[index], callFile, call}
                                     : PassedArgument{*defaultArgument, file, list.open};
  };
  found = Definition("", file, at, dim3);
  return agreedArgument({programKey(function, file), index}, function, name, type, passed,
                        "does not pass its parameters as declared (an overload?)", depth, found);
}

std::optional<std::vector<std::string>> ConstantFolder::Impl::callArguments(std::size_t callFile, std::size_t call,
                                                                           const std::string &function) const {
  const std::string &caller = files_[callFile].code();
  const bool named = caller.compare(call, function.size(), function) == 0; // not `b` of `Solver a(4), b(8);`
  const std::size_t open = named ? callArgumentsAt(caller, call, function.size()) : std::string::npos;
  return open == std::string::npos ? constructionArguments(caller, call, function.size())
                                   : partsInParentheses(caller, open);
}

std::vector<std::pair<std::size_t, std::size_t>> ConstantFolder::callsOf(const std::string &name,
                                                                         std::size_t definedIn) const {
  return definedIn < impl_->files().size() ? impl_->callsOf(name, definedIn) : impl_->callsOf(name);
}

std::optional<ConstantFolder::Impl::CallScope> ConstantFolder::Impl::callScopeAt(std::size_t file, std::size_t offset,
                                                                                 const std::string &function) const {
  if (!functionReturns(file, function) ||
      (callsBound_.count(function) != 0 && files_[file].functionNameAt(offset) == function))
    return std::nullopt; // no body of several statements to read; or its call of itself, read for the outer call
  const std::size_t end = statementEndFrom(files_[file].code(), offset);
  std::optional<std::size_t> found;
  for (const auto &[callFile, call] : everyCallOf(function)) // not only the one an outer CallScope reads
    if (callFile == file && call >= offset && call < end) {
      if (found)
        return std::nullopt; // `f(1) * f(2)`: which one the fold asks about is not known
      found = call;
    }
  if (!found)
    return std::nullopt;
  return std::optional<CallScope>(std::in_place, *this, function, file, *found);
}

std::vector<std::pair<std::size_t, std::size_t>> ConstantFolder::Impl::callsOf(const std::string &name,
                                                                                std::size_t definedIn) const {
  std::vector<std::pair<std::size_t, std::size_t>> ofThis;
  for (const auto &[callFile, call] : callsOf(name))
    if (!callsItsOwn(callFile, name, definedIn))
      ofThis.emplace_back(callFile, call);
  return ofThis;
}

bool ConstantFolder::Impl::callsItsOwn(std::size_t callFile, const std::string &function, std::size_t definedIn) const {
  if (seen_[callFile][definedIn])
    return false;
  for (std::size_t file = 0; file < files_.size(); ++file)
    if (seen_[callFile][file]) {
      auto defines = remembered_.definesFunction.find({file, function});
      if (defines == remembered_.definesFunction.end()) // a constructor's calls build objects of a class of that name
        defines = remembered_.definesFunction
                      .emplace(std::pair{file, function}, !files_[file].functionBodiesNamed(function).empty() ||
                                                              structsOf(file).dataMembers(function).has_value())
                      .first;
      if (defines->second)
        return true;
    }
  return false;
}

std::vector<std::pair<std::size_t, std::size_t>> ConstantFolder::Impl::takenCalls(const std::string &function,
                                                                                   std::size_t definedIn,
                                                                                   int depth) const {
  // Another program's calls of its own function of that name pass nothing to this one.
  const std::vector<std::pair<std::size_t, std::size_t>> ofThis = callsOf(function, definedIn);
  // A call under a branch the program does not take passes nothing (unless no call is taken).
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  for (const auto &[callFile, call] : ofThis)
    if (!untaken(callFile, call, std::string::npos, depth))
      calls.emplace_back(callFile, call);
  return calls.empty() ? ofThis : calls;
}

std::string ConstantFolder::Impl::programKey(const std::string &function, std::size_t definedIn) const {
  return function + "@" + std::to_string(unitOf_[definedIn]);
}

Lookup ConstantFolder::Impl::agreedArgument(const std::pair<std::string, std::size_t> &key, const std::string &function,
                                            const std::string &name, const std::vector<std::string> &type,
                                            const PassedAt &passed, const std::string &unreadable, int depth,
                                            Definition &found) const {
  if (depth >= kMaxDepth) {
    if (openNotes_)
      openNotes_->push_back("`" + name + "` of `" + function + "` is passed down more than " +
                            std::to_string(kMaxDepth) + " names deep");
    return Lookup::Unknown;
  }
  if (auto agreed = remembered_.parametersFound.find(key); agreed != remembered_.parametersFound.end()) {
    found = std::get<0>(agreed->second);
    note(std::get<1>(agreed->second));
    middles_ += std::get<2>(agreed->second);
    return Lookup::Found;
  }
  const std::size_t middles = middles_;
  if (!parametersOpen_.emplace(key).second)
    return Lookup::Unknown; // reached again through its own calls
  // The notes of the calls' arguments, which the value rests on too.
  std::vector<std::string> notes, *outer = notes_;
  notes_ = &notes;
  const std::vector<std::pair<std::size_t, std::size_t>> calls = takenCalls(function, found.file, depth);
  const std::string calledBy = "`" + function + "`'s ";
  std::string firstAt, firstShown; // the first call, and the value it passes
  std::string open;                // why the calls leave the parameter open
  for (const auto &[callFile, call] : calls) {
    const std::string callAt = files_[callFile].where(call);
    const std::optional<PassedArgument> argument = passed(callFile, call);
    if (!argument) {
      open = calledBy + "call at " + callAt + " " + unreadable;
      break;
    }
    std::optional<std::string> shown; // what this call passes, where the source fixes it
    bool same = true;
    if (found.dim3) {
      const std::optional<Dim3> dims = dimension(argument->file, argument->offset, argument->text, depth + 1);
      shown = dims ? std::optional<std::string>(shownDims(*dims)) : std::nullopt;
      same = !dims || !found.dims || *dims == *found.dims;
      found.dims = found.dims ? found.dims : dims;
    } else {
      std::optional<Number> value = number(argument->file, argument->offset, argument->text, depth + 1);
      value = value ? converted(*value, type) : std::nullopt; // as C passes it: converted to the parameter's type
      shown = value ? std::optional<std::string>(shownNumber(*value)) : std::nullopt;
      same = !value || !found.number || sameNumber(*value, *found.number);
      found.number = found.number ? found.number : value;
    }
    if (!shown) {
      open = calledBy + "call at " + callAt + " passes " + quotedCode(argument->text) + " for `" + name +
             "`, which the source does not fix";
      break;
    }
    if (!same) {
      open = calledBy + "calls pass `" + name + "` = " + firstShown + " at " + firstAt + ", " + *shown + " at " +
             callAt;
      break;
    }
    if (firstAt.empty()) {
      firstAt = callAt;
      firstShown = *shown;
    }
  }
  if (calls.empty())
    open = "`" + function +
           "` is called nowhere by its name in the files read (a caller in another folder is "
           "read with --host-source)";
  parametersOpen_.erase(key);
  notes_ = outer;
  if (!open.empty())
    return leftOpen(std::move(open));
  notes.push_back("`" + name + "` = " + firstShown + ", as " + calledBy +
                  (calls.size() == 1 ? "call at " + firstAt + " passes it"
                                     : std::to_string(calls.size()) + " calls pass it, the first at " + firstAt));
  note(notes);
  remembered_.parametersFound.emplace(key, std::tuple{found, std::move(notes), middles_ - middles});
  return Lookup::Found;
}

} // namespace ptxdvfs::tools
