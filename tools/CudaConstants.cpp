// CudaConstants.cpp - folding the expression a name stands for: its
// macros, the one-`return` functions it calls, and the public entry points.
#include "CudaConstants.h"

#include "CudaConstantsImpl.h"

#include "CudaCallScope.h"
#include "CudaCommandLineReads.h"
#include "CudaExpression.h"
#include "CudaFolderNotes.h"
#include "CudaOptionParser.h"
#include "CudaPreprocessor.h"
#include "CudaStatements.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

namespace ptxdvfs::tools {

using ptx::analysis::Dim3;
using namespace expression;
using namespace constants;

std::optional<std::uint32_t> constants::dimensionOf(const Number &value) {
  const std::optional<std::int64_t> whole = value.real ? truncated(value.value) : value.whole;
  if (!whole || *whole < 1 || *whole > INT32_MAX)
    return std::nullopt;
  return static_cast<std::uint32_t>(*whole);
}

namespace {

/// The definition of `name` that starts at `at` of `source`, if it is one
/// of a function at file scope that only returns an expression of its
/// arithmetic parameters; nullopt for a call, a prototype, or anything else.
std::optional<ReturnFunction> returnFunctionAt(const CudaCode &source, std::size_t file, std::size_t at,
                                               const std::string &name) {
  const std::string &code = source.code();
  if (source.insideFunction(source.blockAt(at)) || (at > 0 && std::string_view(".:>").find(code[at - 1]) != std::string_view::npos))
    return std::nullopt; // a call, a member, a qualified name
  const std::size_t open = code.find_first_not_of(" \t\r\n", at + name.size());
  if (open == std::string::npos || code[open] != '(')
    return std::nullopt;
  const std::size_t close = pastClosing(code, open);
  const std::size_t brace = close == std::string::npos ? close : code.find_first_of("{;", close);
  if (brace == std::string::npos || code[brace] != '{' ||
      codeEndBefore(code, functionSpecifiersBefore(code, brace).start) != close)
    return std::nullopt; // a declaration, or more than specifiers before the body: `f(int n) : n_(n) {`
  const std::size_t end = pastClosing(code, brace);
  if (end == std::string::npos)
    return std::nullopt;
  std::vector<Token> body = tokensOf(std::string_view(code).substr(brace + 1, end - brace - 2));
  if (body.size() < 3 || body.front().text != "return" || body.back().text != ";" ||
      std::any_of(body.begin() + 1, body.end() - 1, [](const Token &token) { return token.text == ";"; }))
    return std::nullopt;
  ReturnFunction function;
  function.expression.assign(body.begin() + 1, body.end() - 1);
  function.file = file;
  function.offset = brace + 1;
  function.returnType = returnTypeBefore(code, at);
  auto arithmetic = [](const std::vector<std::string> &type) {
    return !type.empty() && std::all_of(type.begin(), type.end(), isTypeWord) &&
           std::find(type.begin(), type.end(), "dim3") == type.end() && std::find(type.begin(), type.end(), "auto") == type.end();
  };
  const std::string inside = code.substr(open + 1, close - open - 2);
  if (!arithmetic(function.returnType) || inside.find_first_of("*&[=.") != std::string::npos)
    return std::nullopt;
  for (const std::string &part : topLevelParts(inside)) {
    std::vector<std::string> words = wordsIn(part);
    if (words.empty() || (words.size() == 1 && words[0] == "void"))
      continue; // `f()`, `f(void)`
    std::string parameter = words.back();
    words.pop_back();
    if (!arithmetic(words))
      return std::nullopt;
    function.parameters.emplace_back(std::move(words), std::move(parameter));
  }
  return function;
}

} // namespace

ConstantFolder::Impl::Impl(const std::vector<CudaSourceFile> &files, const TargetDevice *device,
                           std::vector<std::string> arguments)
    : device_(device), arguments_(std::move(arguments)) {
  // Which macros each file defines, for the conditions of the files that see it, and those the build's
  // flags set (a .cu input's nvcc flags, read as a file of their own), which every file sees from its
  // first line.
  std::vector<std::set<std::string, std::less<>>> defines;
  FlagMacros flags;
  std::vector<std::string> codes; // each file blanked of comments and literals, once
  std::vector<ParserOption> parserOptions; // SHOC's, which one file declares and another reads
  for (const CudaSourceFile &file : files) {
    codes.push_back(codeOf(file.text));
    const std::vector<ParserOption> declared = parserOptionsIn(codes.back(), file.text);
    parserOptions.insert(parserOptions.end(), declared.begin(), declared.end());
  }
  for (std::size_t file = 0; file < files.size(); ++file) {
    const std::string &text = files[file].text;
    std::vector<UndeclaredOptionRead> undeclared;
    codes[file] = withOptionParserReads(withCommandLineHelpers(std::move(codes[file]), text, arguments_), text,
                                        parserOptions, arguments_, &undeclared);
    for (UndeclaredOptionRead &read : undeclared)
      undeclaredOptions_.push_back({file, read.offset, std::move(read.name)});
    defines.push_back(definedMacroNames(codes[file]));
    if (files[file].declared == kNvccFlagsPath)
      flags.merge(flagMacros(text));
  }
  seen_ = filesSeenTogether(files);
  std::map<std::vector<bool>, std::size_t> units;
  for (const std::vector<bool> &row : seen_)
    unitOf_.push_back(units.emplace(row, units.size()).first->second);
  for (std::size_t file = 0; file < files.size(); ++file) {
    std::set<std::string, std::less<>> elsewhere; // defined by another file this one sees
    for (std::size_t other = 0; other < files.size(); ++other)
      if (other != file && seen_[file][other])
        for (const std::string &name : defines[other])
          if (!flags.count(name))
            elsewhere.insert(name);
    files_.emplace_back(files[file], std::move(codes[file]), elsewhere,
                        files[file].declared == kNvccFlagsPath ? FlagMacros{} : flags);
    indexMacros(file);
  }
}

/// The names of an expression written at one offset of one file.
class ConstantFolder::Impl::NamesAt : public ExpressionNames {
public:
  NamesAt(const Impl &folder, std::size_t file, std::size_t offset) : folder_(folder), file_(file), offset_(offset) {}

  std::optional<Number> number(const std::string &name, int depth) const override {
    return folder_.number(file_, offset_, name, depth);
  }
  std::optional<Number> member(const std::string &path, int depth) const override {
    return folder_.memberNumber(file_, offset_, path, depth);
  }
  std::optional<Number> pointee(const std::string &name, int depth) const override {
    Definition found;
    if (folder_.pointee(file_, offset_, name, depth, found) != Lookup::Found)
      return std::nullopt;
    return folder_.number(found.file, found.offset, found.text, depth + 1);
  }
  std::optional<Number> element(const std::string &name, std::vector<Token> index, const std::string &fields,
                                int depth) const override {
    std::string written;
    for (const Token &token : index)
      written += token.text + " ";
    return folder_.arrayElement(file_, offset_, name, fields, written, [&] { return fold(*this, index, depth); },
                                depth);
  }
  std::optional<std::pair<std::int64_t, std::int64_t>> arrayShape(const std::string &name, int depth) const override {
    return folder_.arrayShape(file_, offset_, name, depth);
  }
  std::optional<Number> containerSize(const std::string &name, int depth) const override {
    return folder_.containerSize(file_, offset_, name, depth);
  }
  std::optional<Number> method(const std::string &object, const std::string &method,
                               const std::vector<Number> &arguments, int depth) const override {
    return folder_.method(file_, offset_, object, method, arguments, depth);
  }
  std::optional<std::string> commandLineArgument(const std::string &name, std::vector<Token> index,
                                                 int depth) const override {
    return folder_.commandLine().argument(file_, offset_, name, [&] { return fold(*this, index, depth); }, depth);
  }
  Lookup functionMacro(const std::string &name, FunctionMacro &found) const override {
    return folder_.functionMacro(file_, name, found);
  }
  std::optional<Number> function(const std::string &name, const std::optional<std::vector<Number>> &arguments,
                                 int depth) const override {
    return folder_.function(file_, offset_, name, arguments, depth);
  }
  bool spend(std::size_t tokens) const override {
    folder_.examined_ += tokens;
    return folder_.examined_ <= kMaxNamesExamined;
  }
  void quiet(bool on) const override {
    if (on) {
      folder_.quieted_.emplace_back(folder_.notes_, folder_.openNotes_);
      folder_.notes_ = folder_.openNotes_ = nullptr; // a fold that collects its own (a parameter's) still does
    } else {
      std::tie(folder_.notes_, folder_.openNotes_) = folder_.quieted_.back();
      folder_.quieted_.pop_back();
    }
  }

private:
  const Impl &folder_;
  std::size_t file_, offset_;
};

/// The names of a function's body, its parameters bound to the call's values.
class ConstantFolder::Impl::BoundNames : public NamesAt {
public:
  BoundNames(const Impl &folder, const ReturnFunction &function, std::map<std::string, Number> parameters)
      : NamesAt(folder, function.file, function.offset), parameters_(std::move(parameters)) {}

  std::optional<Number> number(const std::string &name, int depth) const override {
    auto parameter = parameters_.find(name);
    return parameter != parameters_.end() ? std::optional<Number>(parameter->second) : NamesAt::number(name, depth);
  }

private:
  std::map<std::string, Number> parameters_;
};

Lookup ConstantFolder::Impl::returnFunction(std::size_t caller, const std::string &name, ReturnFunction &found) const {
  auto cached = remembered_.returnFunctions.find({unitOf_[caller], name});
  if (cached == remembered_.returnFunctions.end()) {
    Lookup lookup = Lookup::Absent;
    ReturnFunction first;
    // The caller's program's definitions; where it has none, any file's (one compiled apart and linked).
    for (const bool ownProgram : {true, false}) {
      if (!ownProgram && lookup != Lookup::Absent)
        break;
      for (std::size_t file = 0; file < files_.size() && lookup != Lookup::Unknown; ++file) {
        if (ownProgram != seen_[caller][file])
          continue;
        const std::string &code = files_[file].code();
        for (std::size_t at = code.find(name); at != std::string::npos && lookup != Lookup::Unknown;
             at = code.find(name, at + 1)) {
          if (++examined_ > kMaxNamesExamined)
            lookup = Lookup::Unknown;
          if (!isWholeWord(code, at, name.size()))
            continue;
          std::optional<ReturnFunction> definition = returnFunctionAt(files_[file], file, at, name);
          if (!definition)
            continue;
          if (lookup == Lookup::Absent) {
            first = std::move(*definition);
            lookup = Lookup::Found;
          } else if (definition->expression != first.expression || definition->parameters != first.parameters ||
                     definition->returnType != first.returnType) {
            lookup = Lookup::Unknown; // overloads, or #if branches
          }
        }
      }
    }
    cached =
        remembered_.returnFunctions.emplace(std::pair{unitOf_[caller], name}, std::pair{lookup, std::move(first)})
            .first;
  }
  found = cached->second.second;
  return cached->second.first;
}

std::optional<Number> ConstantFolder::Impl::function(std::size_t caller, std::size_t offset, const std::string &name,
                                                     const std::optional<std::vector<Number>> &arguments,
                                                     int depth) const {
  ReturnFunction definition;
  const Lookup lookup = returnFunction(caller, name, definition);
  // Its calls are this one alone (a global `main` sets after it, as it reads it); its parameters are bound below.
  const std::optional<CallScope> scope = depth < kMaxDepth ? callScopeAt(caller, offset, name) : std::nullopt;
  if (lookup == Lookup::Absent && depth < kMaxDepth) {
    const std::optional<ReturnedValue> returned = reachedReturn(caller, name, depth);
    const std::optional<Number> value =
        returned ? number(returned->file, returned->offset, returned->text, depth + 1) : std::nullopt;
    return value && std::count(returned->type.begin(), returned->type.end(), "auto") == 0
               ? converted(*value, returned->type)
               : value;
  }
  if (lookup != Lookup::Found || !arguments || arguments->size() != definition.parameters.size())
    return std::nullopt;
  std::map<std::string, Number> parameters;
  for (std::size_t i = 0; i < arguments->size(); ++i) {
    std::optional<Number> value = converted((*arguments)[i], definition.parameters[i].first);
    if (!value)
      return std::nullopt;
    parameters[definition.parameters[i].second] = *value; // as C passes it: converted to the parameter's type
  }
  std::vector<Token> tokens = definition.expression;
  examined_ += tokens.size();
  if (examined_ > kMaxNamesExamined)
    return std::nullopt;
  std::optional<Number> result = fold(BoundNames(*this, definition, std::move(parameters)), std::move(tokens), depth);
  return result ? converted(*result, definition.returnType) : std::nullopt;
}

std::optional<Number> ConstantFolder::Impl::number(std::size_t file, std::size_t offset, const std::string &text,
                                             int depth) const {
  if (depth > kMaxDepth)
    return std::nullopt;
  std::vector<Token> tokens = tokensOf(text);
  if (const std::string path = memberPathOf(tokens); !path.empty())
    return memberNumber(file, offset, path, depth);
  if (tokens.size() == 1 && tokens[0].kind == Token::Name && tokens[0].text != "true" && tokens[0].text != "false") {
    Definition definition; // a name defined somewhere; `true` and `false` fold as numbers
    if (define(file, offset, tokens[0].text, depth, definition) != Lookup::Found || definition.dim3)
      return std::nullopt;
    if (definition.number)
      return definition.number;
    return number(definition.file, definition.offset, definition.text, depth + 1);
  }
  return fold(NamesAt(*this, file, offset), std::move(tokens), depth);
}

std::optional<Dim3> ConstantFolder::Impl::dimension(std::size_t file, std::size_t offset, const std::string &text, int depth) const {
  if (depth > kMaxDepth)
    return std::nullopt;
  const std::vector<Token> tokens = tokensOf(text);
  const std::string path = memberPathOf(tokens);
  if ((tokens.size() == 1 && tokens[0].kind == Token::Name) || (!path.empty() && componentOf(path) < 0)) {
    Definition definition;
    const Lookup lookup = path.empty() ? define(file, offset, tokens[0].text, depth, definition)
                                       : member(file, offset, path, depth, definition);
    if (lookup != Lookup::Found)
      return std::nullopt;
    if (definition.dims)
      return definition.dims;
    if (definition.number) {
      const std::optional<std::uint32_t> x = dimensionOf(*definition.number);
      return x ? std::optional<Dim3>(Dim3{*x, 1, 1}) : std::nullopt;
    }
    return dimension(definition.file, definition.offset, definition.text, depth + 1);
  }
  if (tokens.size() > 2 && tokens[0].kind == Token::Name && tokens[0].text != "dim3" && tokens[1].text == "(" &&
      tokens.back().text == ")") {
    const std::optional<CallScope> scope = callScopeAt(file, offset, tokens[0].text);
    if (const std::optional<ReturnedValue> returned = reachedReturn(file, tokens[0].text, depth)) // `gridFor(n)`
      if (const std::optional<Dim3> dims = dimension(returned->file, returned->offset, returned->text, depth + 1))
        return dims;
  }
  std::vector<std::string> parts{text};
  std::string_view trimmed = text;
  trimmed.remove_prefix(std::min(trimmed.size(), trimmed.find_first_not_of(" \t\r\n")));
  if (!tokens.empty() && tokens[0].text == "dim3" && tokens.size() > 2) {
    const std::size_t open = trimmed.find_first_of("({");
    const std::size_t close = trimmed.find_last_of(")}");
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
      return std::nullopt;
    parts = topLevelParts(trimmed.substr(open + 1, close - open - 1));
    if (parts.size() > 3)
      return std::nullopt;
  }
  std::uint32_t values[3] = {1, 1, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::optional<Number> value = number(file, offset, parts[i], depth + 1);
    const std::optional<std::uint32_t> dimension = value ? dimensionOf(*value) : std::nullopt;
    if (!dimension)
      return std::nullopt;
    values[i] = *dimension;
  }
  return Dim3{values[0], values[1], values[2]};
}

ConstantFolder::ConstantFolder(const std::vector<CudaSourceFile> &files, const TargetDevice *device,
                               std::vector<std::string> arguments)
    : impl_(std::make_unique<Impl>(files, device, std::move(arguments))) {}

ConstantFolder::~ConstantFolder() = default;

const std::vector<CudaCode> &ConstantFolder::files() const { return impl_->files(); }

const std::vector<std::string> &ConstantFolder::arguments() const { return impl_->arguments(); }

std::vector<std::string> ConstantFolder::undeclaredOptionReads() const {
  std::vector<std::string> reads;
  std::set<std::string, std::less<>> named;
  for (const auto &[file, offset, name] : impl_->undeclaredOptions())
    if (named.insert(name).second)
      reads.push_back("`" + name + "` (" + impl_->files()[file].where(offset) + ")");
  return reads;
}

bool ConstantFolder::sees(std::size_t file, std::size_t other) const { return impl_->sees(file, other); }

void ConstantFolder::Impl::note(std::vector<std::string> notes) const {
  if (!notes_)
    return;
  for (std::string &note : notes)
    if (std::find(notes_->begin(), notes_->end(), note) == notes_->end())
      notes_->push_back(std::move(note));
}

Lookup ConstantFolder::Impl::leftOpen(std::string why) const {
  if (openNotes_ && std::find(openNotes_->begin(), openNotes_->end(), why) == openNotes_->end())
    openNotes_->push_back(std::move(why));
  return Lookup::Unknown;
}

std::optional<Dim3> ConstantFolder::dimension(std::size_t file, std::size_t offset, const std::string &expression,
                                              std::string *how) const {
  if (file >= impl_->files().size())
    return std::nullopt;
  Impl::Notes notes(*impl_, how);
  return notes.told(impl_->dimension(file, offset, expression));
}

const std::vector<std::pair<std::size_t, std::size_t>> &ConstantFolder::callsOf(const std::string &name) const {
  return impl_->callsOf(name);
}

std::optional<bool> ConstantFolder::branchTaken(std::size_t file, const LoopHeader &header, std::string *how) const {
  if (file >= impl_->files().size())
    return std::nullopt;
  Impl::Notes notes(*impl_, how);
  return notes.told(impl_->branchTaken(file, header));
}

std::optional<std::uint64_t> ConstantFolder::elementsOf(std::size_t file, std::size_t offset,
                                                        const std::string &range) const {
  return file < impl_->files().size() ? impl_->elementsOf(file, offset, range, 0) : std::nullopt;
}

std::optional<ptx::analysis::AssumedValue> ConstantFolder::value(std::size_t file, std::size_t offset,
                                                                 const std::string &expression,
                                                                 std::string *how) const {
  if (file >= impl_->files().size())
    return std::nullopt;
  Impl::Notes notes(*impl_, how);
  const std::optional<Number> folded = notes.told(impl_->number(file, offset, expression, 0));
  if (!folded)
    return std::nullopt;
  return folded->real ? ptx::analysis::AssumedValue::real(folded->value) : ptx::analysis::AssumedValue(folded->whole);
}

} // namespace ptxdvfs::tools
