// CudaTemplates.cpp - the parameters of host function templates: what the
// calls of a template pass for them, and reading the calls of one
// instance at a time.
#include "CudaConstantsImpl.h"

#include <algorithm>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

/// The index of the parameter `name` in `list`; npos where none is named so.
std::size_t indexOf(const CudaCode::TemplateParameterList &list, const std::string &name) {
  const auto named = std::find_if(list.parameters.begin(), list.parameters.end(),
                                  [&](const CudaCode::TemplateParameter &parameter) { return parameter.name == name; });
  return named == list.parameters.end() ? std::string::npos
                                        : static_cast<std::size_t>(named - list.parameters.begin());
}

/// What the call of `function` at `call` of `callFile` (its code
/// `callerCode`) writes for parameter `index` of `list`, the template's
/// list in `file`: the argument, folded at the call, or else the
/// parameter's default, folded where the template declares it; nullopt
/// where it writes none and there is no default.
std::optional<PassedArgument> passedFor(const std::string &callerCode, std::size_t callFile, std::size_t call,
                                        const std::string &function, const CudaCode::TemplateParameterList &list,
                                        std::size_t index, std::size_t file) {
  const std::vector<std::string> arguments = templateArgumentsAt(callerCode, call, function.size());
  if (index < arguments.size())
    return PassedArgument{trimmed(arguments[index]), callFile, call};
  if (!list.parameters[index].defaultText.empty())
    return PassedArgument{list.parameters[index].defaultText, file, list.open};
  return std::nullopt;
}

} // namespace

Lookup ConstantFolder::Impl::templateParameter(std::size_t file, int body, const CudaCode::TemplateParameterList &list,
                                               std::size_t index, int depth, Definition &found) const {
  const CudaCode::TemplateParameter &parameter = list.parameters[index];
  const std::string function = files_[file].functionNameOf(body);
  if (parameter.type || function.empty())
    return Lookup::Unknown; // a type is no number
  const PassedAt passed = [&](std::size_t callFile, std::size_t call) {
    return passedFor(files_[callFile].code(), callFile, call, function, list, index, file);
  };
  found = Definition("", file, list.open, false);
  return agreedArgument({programKey(function, file) + "<>", index}, function, parameter.name, parameter.declaredAs, passed,
                        "does not write its template arguments (deduced from its arguments?)", depth, found);
}

std::optional<std::pair<std::size_t, CudaCode::TemplateParameterList>>
ConstantFolder::Impl::classTemplateList(std::size_t file, const std::string &className) const {
  for (std::size_t other = 0; other < files_.size(); ++other) {
    const CudaCode &source = files_[other];
    if ((other != file && !seen_[file][other]) || !source.definesClassTemplate(className))
      continue;
    for (int block = 0; block < source.blocks(); ++block)
      if (!source.isFunctionBody(block) && source.classNameOf(block) == className)
        if (std::optional<CudaCode::TemplateParameterList> list = source.templateParametersOfClass(block))
          return std::pair{other, std::move(*list)};
  }
  return std::nullopt;
}

Lookup ConstantFolder::Impl::classTemplateParameter(std::size_t file, const std::string &className,
                                                    const CudaCode::TemplateParameterList &list, std::size_t index,
                                                    int depth, Definition &found) const {
  const CudaCode::TemplateParameter &parameter = list.parameters[index];
  if (parameter.type || className.empty())
    return Lookup::Unknown; // a type is no number
  const PassedAt passed = [&](std::size_t callFile, std::size_t call) -> std::optional<PassedArgument> {
    const std::string &code = files_[callFile].code();
    std::size_t typeAt = call; // `b` of `Solver<128> a(1), b(2);` has the type written before `a`
    if (code.compare(call, className.size(), className) != 0) {
      typeAt = code.rfind(className, call);
      if (typeAt == std::string::npos || code.find(';', typeAt) < call)
        return std::nullopt;
    }
    return passedFor(code, callFile, typeAt, className, list, index, file);
  };
  found = Definition("", file, list.open, false);
  return agreedArgument({programKey(className, file) + "<>", index}, className, parameter.name, parameter.declaredAs,
                        passed, "does not write its template arguments", depth, found);
}

std::optional<std::string> ConstantFolder::Impl::templateArgument(std::size_t file, std::size_t offset,
                                                                  const std::string &name, int depth) const {
  const CudaCode &source = files_[file];
  const int body = source.outermostFunctionBodyAt(offset);
  const std::optional<CudaCode::TemplateParameterList> list = source.templateParametersOf(body);
  const std::string function = source.functionNameOf(body);
  const std::size_t index = list ? indexOf(*list, name) : std::string::npos;
  if (index == std::string::npos || function.empty() || depth >= kMaxDepth)
    return std::nullopt;
  const std::pair<std::string, std::size_t> key{programKey(function, file) + "<type>", index};
  if (!parametersOpen_.insert(key).second)
    return std::nullopt; // reached again through its own calls
  const CudaCode::TemplateParameter &parameter = list->parameters[index];
  std::optional<std::string> agreed;
  bool open = false;
  for (const auto &[callFile, call] : takenCalls(function, file, depth)) {
    const CudaCode &caller = files_[callFile];
    if (caller.functionNameAt(call) == function)
      continue; // a call of itself passes what its own calls do
    const std::optional<PassedArgument> passed = passedFor(caller.code(), callFile, call, function, *list, index, file);
    const bool written = passed && !passed->text.empty();
    std::optional<std::string> form = written ? builtinTemplateArgument(passed->text) : std::nullopt;
    if (written && !form) // the caller's own template parameter
      form = templateArgument(passed->file, passed->offset, passed->text, depth + 1);
    if (written && !form && !parameter.type) {
      const std::optional<Number> value = number(passed->file, passed->offset, passed->text, depth + 1);
      if (value && !value->real)
        form = "value:" + std::to_string(value->whole);
    }
    open = !form || (agreed && *agreed != *form);
    if (open)
      break;
    agreed = form;
  }
  parametersOpen_.erase(key);
  return open ? std::nullopt : agreed;
}

std::optional<TemplateCalls> ConstantFolder::Impl::templateCallsAround(std::size_t file, std::size_t offset) const {
  const CudaCode &source = files_[file];
  const int body = source.outermostFunctionBodyAt(offset);
  const std::string function = source.functionNameOf(body);
  if (function.empty() || !source.templateParametersOf(body))
    return std::nullopt;
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  for (const auto &[callFile, call] : callsOf(function))
    if (files_[callFile].functionNameAt(call) != function)
      calls.emplace_back(callFile, call); // not its calls of itself, which run as it does
  return TemplateCalls{{function, std::move(calls)}};
}

void ConstantFolder::Impl::readCalls(TemplateCalls calls) const {
  if (calls == callsRead_)
    return;
  callsRead_ = std::move(calls);
  ++callsChanged_;
  forgetParametersFound(); // agreed on by other calls
  remembered_.switches.clear();        // whose labels may name a template parameter
}

std::optional<std::string> ConstantFolder::templateArgument(std::size_t file, std::size_t offset,
                                                            const std::string &name) const {
  return file < impl_->files().size() ? impl_->templateArgument(file, offset, trimmed(name), 0) : std::nullopt;
}

std::optional<TemplateCalls> ConstantFolder::templateCallsAround(std::size_t file, std::size_t offset) const {
  return file < impl_->files().size() ? impl_->templateCallsAround(file, offset) : std::nullopt;
}

std::size_t ConstantFolder::callsChanged() const { return impl_->callsChanged(); }

std::size_t ConstantFolder::namesExamined() const { return impl_->namesExamined(); }

ConstantFolder::InstanceScope::InstanceScope(const ConstantFolder &folder, TemplateCalls calls)
    : folder_(folder), changes_(!calls.empty()) {
  if (!changes_)
    return; // most statements run from every call: nothing to copy
  outer_ = folder.impl_->callsRead();
  TemplateCalls read = outer_;
  for (auto &[function, called] : calls)
    read[function] = std::move(called);
  folder_.impl_->readCalls(std::move(read));
}

ConstantFolder::InstanceScope::~InstanceScope() {
  if (changes_)
    folder_.impl_->readCalls(std::move(outer_));
}

} // namespace ptxdvfs::tools
