// LaunchFile.cpp - reading, writing and applying launch.json.
#include "LaunchFile.h"

#include "CudaLaunches.h"
#include "CudaSource.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <variant>

namespace ptxdvfs::tools {

namespace {

using nlohmann::json;

/// Thrown while reading; caught once, where the file's name is added. A
/// parsed document keeps no positions, so only syntax errors have a line.
struct LaunchFileError {
  std::string message;
};

std::string joined(const std::vector<std::string> &names) {
  std::string list;
  for (const std::string &name : names)
    list += (list.empty() ? "" : ", ") + name;
  return list;
}

void onlyKeys(const json &object, const std::vector<std::string> &known, const std::string &where) {
  for (const auto &item : object.items())
    if (std::find(known.begin(), known.end(), item.key()) == known.end())
      throw LaunchFileError{"unknown key '" + item.key() + "'" + where + " (known: " + joined(known) + ")"};
}

ptx::analysis::Dim3 dimensionsOf(const json &value, const std::string &what) {
  const std::string shape = what + " takes one to three positive integers, as [X, Y, Z] or X";
  std::vector<json> parts = value.is_array() ? value.get<std::vector<json>>() : std::vector<json>{value};
  if (parts.empty() || parts.size() > 3)
    throw LaunchFileError{shape};
  std::uint32_t numbers[3] = {1, 1, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i].is_number_integer() || parts[i].get<std::int64_t>() < 1 ||
        parts[i].get<std::int64_t>() > std::numeric_limits<std::uint32_t>::max())
      throw LaunchFileError{shape + ": " + value.dump()};
    numbers[i] = static_cast<std::uint32_t>(parts[i].get<std::int64_t>());
  }
  return {numbers[0], numbers[1], numbers[2]};
}

ptx::analysis::AssumedValue argumentOf(const json &value, const std::string &what) {
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > std::numeric_limits<std::int64_t>::max())
    throw LaunchFileError{what + " is out of range: " + value.dump()};
  if (value.is_number_integer())
    return ptx::analysis::AssumedValue(value.get<std::int64_t>());
  if (value.is_number_float() && std::isfinite(value.get<double>()))
    return ptx::analysis::AssumedValue::real(value.get<double>());
  throw LaunchFileError{what + " needs a number: " + value.dump()};
}

/// `{"NAME": number, ...}`; `what` names the object, `each` one of its values.
NamedValues namedValuesOf(const json &object, const std::string &what, const std::string &each,
                          const std::string &where) {
  if (!object.is_object())
    throw LaunchFileError{what + " needs an object of NAME: number"};
  NamedValues values;
  for (const auto &item : object.items())
    values.emplace_back(item.key(), argumentOf(item.value(), each + " '" + item.key() + "'" + where));
  return values;
}

KernelLaunch kernelLaunchOf(const std::string &kernel, const json &entry) {
  const std::string where = " in kernel '" + kernel + "'";
  if (!entry.is_object())
    throw LaunchFileError{"kernel '" + kernel + "' needs an object of grid, block, launches and arguments"};
  onlyKeys(entry, {"grid", "block", "launches", "arguments"}, where);
  KernelLaunch launch;
  launch.kernel = kernel;
  if (entry.contains("grid"))
    launch.grid = dimensionsOf(entry["grid"], "grid" + where);
  if (entry.contains("block")) {
    launch.block = dimensionsOf(entry["block"], "block" + where);
    if (!fitsOneBlock(*launch.block))
      throw LaunchFileError{"block" + where + " has more than " + std::to_string(kMaxThreadsPerBlock) + " threads"};
  }
  if (entry.contains("launches")) {
    const json &launches = entry["launches"];
    if (!launches.is_number_integer() || launches.get<std::int64_t>() < 1)
      throw LaunchFileError{"launches" + where + " takes a positive integer: " + launches.dump()};
    launch.launches = static_cast<std::uint64_t>(launches.get<std::int64_t>());
  }
  if (entry.contains("arguments"))
    launch.arguments = namedValuesOf(entry["arguments"], "arguments" + where, "argument", where);
  return launch;
}

LaunchFile launchFileOf(const json &document) {
  if (!document.is_object())
    throw LaunchFileError{"not a launch file (a JSON object with \"format\" and \"kernels\" is expected)"};
  onlyKeys(document, {"format", "kernels", "constants"}, "");
  if (!document.contains("format") || document["format"] != kLaunchFileFormat)
    throw LaunchFileError{std::string("\"format\" must be \"") + kLaunchFileFormat + "\"" +
                          (document.contains("format") ? ", not " + document["format"].dump() : "")};
  if (!document.contains("kernels") || !document["kernels"].is_object())
    throw LaunchFileError{"\"kernels\" needs an object: kernel name -> its launch"};
  LaunchFile file;
  for (const auto &item : document["kernels"].items())
    file.kernels.push_back(kernelLaunchOf(item.key(), item.value()));
  if (document.contains("constants"))
    file.constants = namedValuesOf(document["constants"], "\"constants\"", "constant", "");
  return file;
}

/// nlohmann's message without its "[json.exception.parse_error.101] parse
/// error at line 2, column 48: " prefix, which the location says as line:col.
std::string withoutId(std::string message) {
  const std::size_t syntax = message.find("syntax error");
  if (syntax != std::string::npos)
    return message.substr(syntax);
  const std::size_t id = message.find("] ");
  return id == std::string::npos ? message : message.substr(id + 2);
}

/// Line and column (from 1) of the byte before `offset`, where nlohmann
/// reports a syntax error.
ptx::SourceLocation locationOf(std::string_view text, std::size_t offset) {
  offset = std::min(offset == 0 ? 0 : offset - 1, text.size());
  ptx::SourceLocation location{1, 1};
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++location.line;
      location.column = 1;
    } else {
      ++location.column;
    }
  }
  return location;
}

json namedValuesJson(const NamedValues &values) {
  json object = json::object();
  for (const auto &[name, value] : values)
    if (value.whole())
      object[name] = *value.whole();
    else
      object[name] = value.number();
  return object;
}

json dimensionsJson(const ptx::analysis::Dim3 &dims) {
  json value = json::array({dims.x});
  if (dims.y != 1 || dims.z != 1)
    value.push_back(dims.y);
  if (dims.z != 1)
    value.push_back(dims.z);
  return value;
}

/// The kernels of `module` that `name` denotes: the one of that PTX name,
/// else those whose mangled name demangles to it.
std::vector<const ptx::Function *> kernelsNamed(const ptx::Module &module, const std::string &name) {
  std::vector<const ptx::Function *> exact, byBase;
  for (const ptx::Function *kernel : module.kernels()) {
    if (kernel->name == name)
      exact.push_back(kernel);
    else if (baseNameOf(kernel->name) == name)
      byBase.push_back(kernel);
  }
  return exact.empty() ? byBase : exact;
}

/// The names a launch file may give `function`'s parameter `index`.
std::vector<std::string> parameterNames(const ptx::Function &function, std::size_t index,
                                        const ptx::analysis::LaunchAssumptions &assumptions) {
  const std::string &name = function.parameters[index].name;
  std::vector<std::string> names{name};
  if (std::string_view suffix = ptx::analysis::shortParameterName(name); !suffix.empty())
    names.emplace_back(suffix);
  if (auto cuda = assumptions.sourceParameterNames.find(function.name);
      cuda != assumptions.sourceParameterNames.end() && index < cuda->second.size())
    names.push_back(cuda->second[index]);
  return names;
}

/// Where a launch file's argument goes: a parameter, or a field of a
/// struct passed by value.
struct ArgumentSlot {
  std::size_t parameter = 0;
  std::optional<std::int64_t> field; ///< bytes into the struct
};

/// The bytes of a parameter declared as an array (a struct passed by
/// value: `.param .align 8 .b8 p[40]`); nullopt for a scalar.
std::optional<std::int64_t> aggregateBytes(const ptx::VariableDecl &parameter) {
  return parameter.arrayDims.empty() ? std::nullopt : ptx::declaredBytes(parameter);
}

/// The CUDA names of the fields of `kernel`'s parameter `index`, by offset
/// (addSourceKnowledge() reads them); empty when the source gives none.
const std::map<std::int64_t, std::string> &fieldNames(const ptx::Function &kernel, std::size_t index,
                                                      const ptx::analysis::LaunchAssumptions &assumptions) {
  static const std::map<std::int64_t, std::string> kNone;
  auto fields = assumptions.sourceFieldNames.find(kernel.name);
  return fields != assumptions.sourceFieldNames.end() && index < fields->second.size() ? fields->second[index]
                                                                                       : kNone;
}

/// The parameter or field `name` denotes in `kernel`, as `--assume` would
/// read it: a parameter's name (parameterNames()), NAME+BYTES for the field
/// at that offset of a struct passed by value, or the field's CUDA name
/// (`d_dim.number_boxes`). Else what is wrong, to follow "kernel 'K' ".
std::variant<ArgumentSlot, std::string> slotNamed(const ptx::Function &kernel, const std::string &name,
                                                  const ptx::analysis::LaunchAssumptions &assumptions) {
  const std::size_t count = kernel.parameters.size();
  auto named = [&](std::size_t index, std::string_view candidate) {
    std::vector<std::string> names = parameterNames(kernel, index, assumptions);
    return std::find(names.begin(), names.end(), candidate) != names.end();
  };
  for (std::size_t index = 0; index < count; ++index)
    if (named(index, name))
      return ArgumentSlot{index, std::nullopt};
  for (std::size_t index = 0; index < count; ++index)
    for (const auto &[offset, field] : fieldNames(kernel, index, assumptions))
      if (field == name)
        return ArgumentSlot{index, offset};
  if (auto split = ptx::analysis::splitFieldOffset(name))
    for (std::size_t index = 0; index < count; ++index) {
      const auto [base, offset] = *split;
      if (!named(index, base))
        continue;
      const std::optional<std::int64_t> bytes = aggregateBytes(kernel.parameters[index]);
      if (!bytes)
        return "argument '" + name + "': parameter " + std::string(base) +
               " is not a struct passed by value; give it as '" + std::string(base) + "'";
      if (offset >= *bytes)
        return "argument '" + name + "': parameter " + std::string(base) + " has " + std::to_string(*bytes) +
               " bytes; +" + std::to_string(offset) + " is past its end";
      return ArgumentSlot{index, offset};
    }
  std::vector<std::string> known;
  for (std::size_t index = 0; index < count; ++index) {
    known.push_back(parameterNames(kernel, index, assumptions).back());
    for (const auto &field : fieldNames(kernel, index, assumptions))
      known.push_back(field.second);
  }
  return "has no parameter '" + name + "' (its parameters: " + (known.empty() ? std::string("none") : joined(known)) +
         ")";
}

/// Whether the launch file's constant `name` is one of `module`'s
/// `__constant__` variables: its PTX name, NAME+BYTES within it, or a
/// field's CUDA name. An error for NAME+BYTES past the variable's end.
std::variant<bool, std::string> namesConstant(const ptx::Module &module, const std::string &name,
                                              const ptx::analysis::LaunchAssumptions &assumptions) {
  const auto split = ptx::analysis::splitFieldOffset(name);
  for (const ptx::VariableDecl &variable : module.globals) {
    if (variable.space != ptx::StateSpace::Const)
      continue;
    if (variable.name == name)
      return true;
    if (auto fields = assumptions.constantFieldNames.find(variable.name); fields != assumptions.constantFieldNames.end())
      for (const auto &field : fields->second)
        if (field.second == name)
          return true;
    if (split && split->first == variable.name) {
      const std::optional<std::int64_t> bytes = ptx::declaredBytes(variable);
      if (bytes && split->second >= *bytes)
        return "constant '" + name + "': " + variable.name + " has " + std::to_string(*bytes) + " bytes; +" +
               std::to_string(split->second) + " is past its end";
      return true;
    }
  }
  return false;
}

} // namespace

ptx::Expected<LaunchFile> readLaunchFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return ptx::Expected<LaunchFile>::failure(
        ptx::Diagnostic{path, {}, ptx::Severity::Error, "cannot be read"});
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parseLaunchFile(buffer.str(), path);
}

ptx::Expected<LaunchFile> parseLaunchFile(std::string_view text, const std::string &path) {
  auto failure = [&](const std::string &message, ptx::SourceLocation location = {}) {
    return ptx::Expected<LaunchFile>::failure(ptx::Diagnostic{path, location, ptx::Severity::Error, message});
  };
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error &error) {
    return failure("not valid JSON: " + withoutId(error.what()), locationOf(text, error.byte));
  } catch (const json::exception &error) { // a number beyond a double: "number overflow parsing '1e400'"
    return failure("not valid JSON: " + withoutId(error.what()));
  }
  try {
    LaunchFile file = launchFileOf(document);
    file.path = path;
    return file;
  } catch (const LaunchFileError &error) {
    return failure(error.message);
  } catch (const json::exception &error) {
    return failure(error.what());
  }
}

std::string launchFileText(const std::vector<KernelLaunch> &kernels, const NamedValues &constants) {
  json entries = json::object();
  for (const KernelLaunch &launch : kernels) {
    json entry = json::object();
    if (launch.grid)
      entry["grid"] = dimensionsJson(*launch.grid);
    if (launch.block)
      entry["block"] = dimensionsJson(*launch.block);
    if (launch.launches != 1)
      entry["launches"] = launch.launches;
    if (!launch.arguments.empty())
      entry["arguments"] = namedValuesJson(launch.arguments);
    entries[launch.kernel] = std::move(entry);
  }
  json document{{"format", kLaunchFileFormat}, {"kernels", std::move(entries)}};
  if (!constants.empty())
    document["constants"] = namedValuesJson(constants);
  return document.dump(2) + "\n";
}

std::string applyLaunchFile(const LaunchFile &file, const ptx::Module &module,
                            ptx::analysis::LaunchAssumptions &assumptions, std::vector<bool> &used) {
  for (std::size_t entry = 0; entry < file.kernels.size(); ++entry) {
    const KernelLaunch &given = file.kernels[entry];
    std::vector<const ptx::Function *> kernels = kernelsNamed(module, given.kernel);
    if (kernels.empty())
      continue;
    if (kernels.size() > 1) {
      std::vector<std::string> names;
      for (const ptx::Function *kernel : kernels)
        names.push_back(kernel->name);
      return file.path + ": kernel '" + given.kernel + "' could be any of " + joined(names) +
             "; name one by its PTX name";
    }
    const ptx::Function &kernel = *kernels.front();
    const std::size_t count = kernel.parameters.size();
    ptx::analysis::SourceLaunch launch;
    launch.at = file.path;
    launch.grid = given.grid;
    launch.block = given.block;
    launch.launches = given.launches;
    if (!given.grid)
      launch.gridOpen = file.path + " gives no grid";
    if (!given.block)
      launch.blockOpen = file.path + " gives no block";
    launch.arguments.assign(count, std::nullopt);
    launch.fields.assign(count, {});
    launch.argumentsOpen.assign(count, file.path + " gives no value for it");
    for (const auto &[name, value] : given.arguments) {
      auto slot = slotNamed(kernel, name, assumptions);
      if (const std::string *problem = std::get_if<std::string>(&slot))
        return file.path + ": kernel '" + given.kernel + "' " + *problem;
      const ArgumentSlot &at = std::get<ArgumentSlot>(slot);
      if (at.field) {
        launch.fields[at.parameter].insert_or_assign(*at.field, value);
        continue; // the struct's other fields stay open
      }
      launch.arguments[at.parameter] = value;
      launch.argumentsOpen[at.parameter].clear();
    }
    assumptions.sourceLaunches.insert_or_assign(kernel.name, std::move(launch));
    used[entry] = true;
  }
  for (std::size_t c = 0; c < file.constants.size(); ++c) {
    const auto &[name, value] = file.constants[c];
    auto found = namesConstant(module, name, assumptions);
    if (const std::string *problem = std::get_if<std::string>(&found))
      return file.path + ": " + *problem;
    if (!std::get<bool>(found))
      continue; // another input's, or none: unusedLaunches() says which
    assumptions.launchConstants.insert_or_assign(name, value);
    assumptions.launchConstantsAt = file.path;
    used[file.kernels.size() + c] = true;
  }
  return "";
}

std::string unusedLaunches(const LaunchFile &file, const std::vector<bool> &used, const LaunchNames &known,
                           const std::string &where) {
  auto listed = [](const std::vector<std::string> &names) {
    return names.empty() ? std::string("none") : joined(names);
  };
  std::vector<std::string> kernels, constants;
  for (std::size_t entry = 0; entry < file.kernels.size(); ++entry)
    if (!used[entry])
      kernels.push_back("'" + file.kernels[entry].kernel + "'");
  for (std::size_t c = 0; c < file.constants.size(); ++c)
    if (!used[file.kernels.size() + c])
      constants.push_back("'" + file.constants[c].first + "'");
  std::string message;
  if (!kernels.empty())
    message = file.path + ": no kernel named " + joined(kernels) + " " + where + " (its kernels: " +
              listed(known.kernels) + ")";
  if (!constants.empty())
    message += (message.empty() ? file.path + ": no" : "; no") + std::string(" __constant__ variable named ") +
               joined(constants) + " " + where + " (its __constant__ variables: " + listed(known.constants) + ")";
  return message;
}

std::string LaunchFileApplication::apply(const LaunchTarget &target) {
  if (!file_) {
    auto file = readLaunchFile(path_);
    if (!file) {
      const ptx::Diagnostic &first = file.diagnostics().front();
      return first.where() + ": " + first.message;
    }
    file_ = std::move(*file);
    used_.assign(file_->entries(), false);
  }
  if (std::string problem = applyLaunchFile(*file_, *target.module, *target.assumptions, used_); !problem.empty())
    return problem;
  for (const ptx::Function *kernel : target.module->kernels())
    known_.kernels.push_back(kernel->name);
  for (const ptx::VariableDecl &variable : target.module->globals)
    if (variable.space == ptx::StateSpace::Const)
      known_.constants.push_back(variable.name);
  return "";
}

std::string LaunchFileApplication::unused(const std::string &where) const {
  return file_ ? unusedLaunches(*file_, used_, known_, where) : "";
}

std::string applyLaunchFileAt(const std::string &path, const std::vector<LaunchTarget> &targets,
                              const std::string &where, std::string &unused) {
  LaunchFileApplication application(path);
  for (const LaunchTarget &target : targets)
    if (std::string problem = application.apply(target); !problem.empty())
      return problem;
  unused = application.unused(where);
  return "";
}

std::string launchFileBeside(const std::string &ptxFolder, const std::vector<CudaSourceFile> &sources) {
  std::vector<std::filesystem::path> folders{ptxFolder};
  for (const CudaSourceFile &source : sources)
    folders.push_back(std::filesystem::path(source.path).parent_path());
  for (const std::filesystem::path &folder : folders)
    if (std::filesystem::is_regular_file(folder / kLaunchFileName))
      return (folder / kLaunchFileName).string();
  return "";
}

} // namespace ptxdvfs::tools
