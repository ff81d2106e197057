// LaunchValues.cpp - where the values a bound starts from come from: the
// launch geometry (--grid, --block, .reqntid, the source's launch, .maxntid,
// or the defaults), the kernel's parameters and its `__constant__`
// variables (--assume).
#include "ptxdvfs/ptx/analysis/Values.h"

#include "FloatSemantics.h"
#include "IntegerSemantics.h"
#include "Reasons.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Why the host code's launches left a size open, as the middle of a
/// default's reason ("...; " or nothing).
std::string openLaunch(const SourceLaunch *launch, std::string SourceLaunch::*why) {
  return launch && !(launch->*why).empty() ? launch->*why + "; " : std::string();
}

/// The reason of a value a launch gives: "the launch at main.cu:57", and
/// `how` the source fixes it where that is more than the launch's text;
/// `how` alone for the `mean` of launches that differ.
std::string launchedAt(const SourceLaunch &launch, const std::string &how, bool mean = false) {
  return mean ? how : "the launch at " + launch.at + (how.empty() ? "" : "; " + how);
}

} // namespace

std::optional<Dim3> blockDirective(const Function &function, std::string_view name) {
  for (const PerformanceDirective &directive : function.performanceDirectives)
    if (directive.name == name && !directive.values.empty())
      return Dim3{static_cast<std::uint32_t>(directive.values[0]),
                  directive.values.size() > 1 ? static_cast<std::uint32_t>(directive.values[1]) : 1,
                  directive.values.size() > 2 ? static_cast<std::uint32_t>(directive.values[2]) : 1};
  return std::nullopt;
}

Value ValueEvaluator::specialRegister(std::string_view base, std::string_view component) const {
  if (base == "%tid" || base == "%ctaid")
    return Value{0, ValueOrigin::Constant, {}, true};
  auto pick = [&](const Dim3 &dims) -> std::optional<std::int64_t> {
    if (component == "x") return dims.x;
    if (component == "y") return dims.y;
    if (component == "z") return dims.z;
    return std::nullopt;
  };
  auto described = [&](const Dim3 &dims, ValueOrigin origin, std::string source) {
    auto number = pick(dims);
    if (!number)
      return Value::unknown(std::string(base) + "." + std::string(component));
    return Value{number, origin,
                 {std::string(base) + "." + std::string(component) + " = " +
                  std::to_string(*number) + " (" + source + ")"}};
  };
  auto sourceLaunch = [&]() -> const SourceLaunch * {
    if (assumptions_.launch)
      return &*assumptions_.launch;
    auto found = assumptions_.sourceLaunches.find(graph_.function->name);
    return found == assumptions_.sourceLaunches.end() ? nullptr : &found->second;
  };
  if (base == "%ntid") {
    if (assumptions_.block)
      return described(*assumptions_.block, ValueOrigin::Assumed, "--block");
    std::optional<Dim3> required = assumptions_.requiredBlock ? assumptions_.requiredBlock
                                                              : blockDirective(*graph_.function, "reqntid");
    if (required)
      return described(*required, ValueOrigin::Constant, ".reqntid");
    const SourceLaunch *launch = sourceLaunch();
    if (launch && launch->block)
      return described(*launch->block, ValueOrigin::Assumed, launchedAt(*launch, launch->blockHow, launch->blockIsMean));
    std::optional<Dim3> maximum = assumptions_.maximumBlock ? assumptions_.maximumBlock
                                                            : blockDirective(*graph_.function, "maxntid");
    const std::string open = openLaunch(launch, &SourceLaunch::blockOpen);
    if (maximum)
      return described(*maximum, ValueOrigin::Defaulted, ".maxntid, the most the kernel allows; " + open + "set --block");
    return described(kDefaultBlock, ValueOrigin::Defaulted, "default; " + open + "set --block");
  }
  if (base == "%nctaid") {
    if (assumptions_.grid)
      return described(*assumptions_.grid, ValueOrigin::Assumed, "--grid");
    const SourceLaunch *launch = sourceLaunch();
    if (launch && launch->grid)
      return described(*launch->grid, ValueOrigin::Assumed, launchedAt(*launch, launch->gridHow, launch->gridIsMean));
    return described(kDefaultGrid, ValueOrigin::Defaulted,
                     "default; " + openLaunch(launch, &SourceLaunch::gridOpen) + "set --grid");
  }
  return Value::unknown("special register " + std::string(base) + "." + std::string(component));
}

namespace {

/// One reason written by `specialRegister`: "%ntid.y = 1 (--block)".
struct LaunchReason {
  std::string base, source;
  char component = 'x';
  std::string number;
};

std::optional<LaunchReason> parseLaunchReason(const std::string &reason) {
  LaunchReason parsed;
  for (std::string_view base : {"%ntid", "%nctaid"})
    if (reason.rfind(std::string(base) + ".", 0) == 0)
      parsed.base = base;
  const std::size_t at = parsed.base.size() + 1; // the component's letter
  if (parsed.base.empty() || reason.size() < at + 4 || reason.compare(at + 1, 3, " = ") != 0)
    return std::nullopt;
  parsed.component = reason[at];
  const std::size_t open = reason.find(" (", at + 4);
  if (std::string_view("xyz").find(parsed.component) == std::string_view::npos || open == std::string::npos ||
      reason.back() != ')')
    return std::nullopt;
  parsed.number = reason.substr(at + 4, open - (at + 4));
  parsed.source = reason.substr(open + 2, reason.size() - open - 3);
  return parsed;
}

} // namespace

void foldLaunchReasons(std::vector<std::string> &why) {
  std::vector<std::string> folded;
  std::map<std::pair<std::string, std::string>, std::pair<std::size_t, std::vector<LaunchReason>>> groups;
  for (const std::string &reason : why) {
    auto parsed = parseLaunchReason(reason);
    if (!parsed) {
      folded.push_back(reason);
      continue;
    }
    auto [group, isNew] = groups.try_emplace({parsed->base, parsed->source}, folded.size(), std::vector<LaunchReason>{});
    if (isNew)
      folded.push_back(reason);
    group->second.second.push_back(std::move(*parsed));
  }
  for (auto &[key, group] : groups) {
    auto &[slot, parts] = group;
    if (parts.size() < 2)
      continue;
    std::sort(parts.begin(), parts.end(),
              [](const LaunchReason &a, const LaunchReason &b) { return a.component < b.component; });
    std::string components, numbers;
    for (const LaunchReason &part : parts) {
      components += (components.empty() ? "" : ",") + std::string(1, part.component);
      numbers += (numbers.empty() ? "" : ",") + part.number;
    }
    folded[slot] = key.first + "." + components + " = " + numbers + " (" + key.second + ")";
  }
  why = std::move(folded);
}

std::string_view shortParameterName(std::string_view ptxName) {
  const std::size_t at = ptxName.rfind("_param_");
  return at == std::string_view::npos ? std::string_view() : ptxName.substr(at + 1);
}

std::optional<std::pair<std::string_view, std::int64_t>> splitFieldOffset(std::string_view name) {
  const std::size_t plus = name.rfind('+');
  if (plus == std::string_view::npos || plus + 1 == name.size())
    return std::nullopt;
  const std::string_view digits = name.substr(plus + 1);
  std::int64_t offset = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), offset);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.front() == '-')
    return std::nullopt;
  return std::pair{name.substr(0, plus), offset};
}

namespace {

/// Whether a load of `read` at `offset` bytes into `declared` reads part of
/// one integer (`ld.param.u8 [n+1]`: nvcc's `(n >> 8) & 0xff`), not a
/// field of a struct.
bool readsPartOfScalar(const VariableDecl &declared, std::optional<ScalarType> read, std::int64_t offset) {
  auto isInteger = [](ScalarType type) {
    return kindOf(type) != ScalarTypeKind::Float && kindOf(type) != ScalarTypeKind::Predicate;
  };
  if (!read || !declared.type || !declared.arrayDims.empty() || !isInteger(*declared.type) || !isInteger(*read))
    return false;
  const std::int64_t size = sizeInBytes(*declared.type), width = sizeInBytes(*read);
  return offset >= 0 && offset + width <= size && (offset != 0 || width < size);
}

/// `whole`'s bytes from `offset` on, as a load of `read` extends them.
Value partOfScalar(Value whole, std::int64_t offset, ScalarType read) {
  if (whole.known())
    whole.number = normalise(static_cast<std::int64_t>(static_cast<std::uint64_t>(*whole.number) >> (8 * offset)),
                             intTypeOf(read));
  return whole;
}

} // namespace

Value ValueEvaluator::parameter(std::string_view name, std::optional<ScalarType> type, std::int64_t offset) const {
  const Function &function = *graph_.function;
  std::size_t index = 0;
  while (index < function.parameters.size() && function.parameters[index].name != name)
    ++index;
  const VariableDecl *declared = index < function.parameters.size() ? &function.parameters[index] : nullptr;
  const bool part = declared && readsPartOfScalar(*declared, type, offset);
  std::vector<std::string> candidates{std::string(name)};
  if (std::string_view suffix = shortParameterName(name); !suffix.empty())
    candidates.emplace_back(suffix);
  if (auto names = assumptions_.sourceParameterNames.find(function.name);
      names != assumptions_.sourceParameterNames.end() && index < names->second.size())
    candidates.push_back(names->second[index]);
  bool field = offset != 0 && !part;
  if (field)
    for (std::string &candidate : candidates)
      candidate += "+" + std::to_string(offset);
  if (auto fields = assumptions_.sourceFieldNames.find(function.name);
      !part && fields != assumptions_.sourceFieldNames.end() && index < fields->second.size())
    if (auto cudaName = fields->second[index].find(offset); cudaName != fields->second[index].end()) {
      candidates.push_back(cudaName->second); // `d_dim.number_boxes`, which reasons then use
      field = true;
    }
  for (const std::string &candidate : candidates)
    if (auto given = assumptions_.parameters.find(candidate); given != assumptions_.parameters.end())
      return assumedLoad("parameter " + candidate, given->second, part ? declared : nullptr, type, offset);
  // A kernel's own parameter (not a called function's), as its launches pass it.
  auto launch = assumptions_.sourceLaunches.find(function.name);
  const SourceLaunch *launched = launch != assumptions_.sourceLaunches.end() ? &launch->second : nullptr;
  if (launched && !field && index < launched->arguments.size() && launched->arguments[index])
    return assumedLoad("parameter " + candidates.back(), *launched->arguments[index], part ? declared : nullptr,
                       type, offset,
                       launchedAt(*launched, index < launched->argumentsHow.size() ? launched->argumentsHow[index]
                                                                                    : std::string()));
  // A field; at offset 0 without a CUDA name it reads as the parameter (`field` is false).
  if (launched && !part && index < launched->fields.size())
    if (auto given = launched->fields[index].find(offset); given != launched->fields[index].end())
      return assumedLoad("parameter " + candidates.back(), given->second, nullptr, type, offset,
                         "the launch at " + launched->at);
  // Why the launch leaves it open: for a field, why it leaves its struct open.
  const std::string open = launched && index < launched->argumentsOpen.size() &&
                                   !launched->argumentsOpen[index].empty()
                               ? "; " + launched->argumentsOpen[index]
                               : std::string();
  return Value::unknown("parameter " + candidates.back() +
                        (field ? " (a field of a struct passed by value; no --assume " : " (no --assume ") +
                        candidates.back() + "=VALUE" + open + ")");
}

Value ValueEvaluator::constantVariable(const VariableDecl &variable, std::optional<ScalarType> type,
                                       std::int64_t offset) const {
  const bool part = readsPartOfScalar(variable, type, offset);
  std::vector<std::string> names{variable.name + (offset != 0 && !part ? "+" + std::to_string(offset) : "")};
  if (auto fields = assumptions_.constantFieldNames.find(variable.name);
      !part && fields != assumptions_.constantFieldNames.end())
    if (auto cudaName = fields->second.find(offset); cudaName != fields->second.end())
      names.push_back(cudaName->second); // `d_common.no_points`, which reasons then use
  for (const std::string &candidate : names)
    if (auto given = assumptions_.parameters.find(candidate); given != assumptions_.parameters.end())
      return assumedLoad("constant-memory variable " + candidate, given->second, part ? &variable : nullptr, type,
                         offset);
  // The host wrote it before the launch that a launch file records: that value, over the initializer.
  for (const std::string &candidate : names)
    if (auto given = assumptions_.launchConstants.find(candidate); given != assumptions_.launchConstants.end())
      return assumedLoad("constant-memory variable " + candidate, given->second, part ? &variable : nullptr, type,
                         offset, "the launch at " + assumptions_.launchConstantsAt);
  for (const std::string &candidate : names)
    if (auto given = assumptions_.sourceConstants.find(candidate); given != assumptions_.sourceConstants.end()) {
      const auto how = assumptions_.sourceConstantsHow.find(candidate);
      return assumedLoad("constant-memory variable " + names.back(), given->second, part ? &variable : nullptr, type,
                         offset, how != assumptions_.sourceConstantsHow.end() ? how->second : "the host code");
    }
  const std::string &name = names.back();
  const std::string label = "constant-memory variable " + name;
  const unsigned width = type ? sizeInBytes(*type) : 0;
  auto bytes = initialBytes(variable);
  if (bytes && width > 0 && width <= 8 && offset >= 0 && static_cast<std::uint64_t>(offset) + width <= bytes->size()) {
    std::uint64_t bits = 0;
    for (unsigned byte = 0; byte < width; ++byte)
      bits |= std::uint64_t{(*bytes)[offset + byte]} << (8 * byte);
    const std::int64_t number = kindOf(*type) == ScalarTypeKind::Signed
                                    ? normalise(static_cast<std::int64_t>(bits), intTypeOf(*type))
                                    : static_cast<std::int64_t>(bits);
    auto real = kindOf(*type) == ScalarTypeKind::Float ? decodeFloat(number, *type) : std::nullopt;
    return Value{number, ValueOrigin::Constant,
                 {label + " = " + (real ? shortestDecimal(*real, *type) : std::to_string(number)) +
                  " (as the PTX initializes it; --assume " + name + "=VALUE if the host writes it)"}};
  }
  const std::string open =
      assumptions_.launchConstantsAt.empty() ? "" : "; " + assumptions_.launchConstantsAt + " gives no value for it";
  return Value::unknown(label + " (set by the host; no --assume " + name + "=VALUE" + open + ")");
}

Value ValueEvaluator::assumedLoad(const std::string &label, const AssumedValue &given, const VariableDecl *partOf,
                                  std::optional<ScalarType> type, std::int64_t offset,
                                  const std::string &source) const {
  if (!partOf)
    return assumed(label, given, type, source);
  return partOfScalar(assumed(label, given, partOf->type, source), offset, *type);
}

Value ValueEvaluator::assumed(const std::string &label, const AssumedValue &given, std::optional<ScalarType> type,
                              const std::string &source) const {
  std::string reason = label + " = " + given.text() + " (" + source + ")";
  if (type && kindOf(*type) == ScalarTypeKind::Float) {
    if (auto bits = encodeFloat(given.number(), *type))
      return Value{bits, ValueOrigin::Assumed, {std::move(reason)}};
    return Value::unknown(reason + ", read as " + std::string(toString(*type)) +
                          ", a type the analysis does not follow");
  }
  if (auto whole = given.whole())
    return Value{whole, ValueOrigin::Assumed, {std::move(reason)}};
  return Value::unknown(reason + " is not a whole number, but the PTX reads it as an integer");
}

AssumedValue AssumedValue::real(double number) {
  // Within int64's range a whole double converts exactly; 2^63 itself does not fit.
  constexpr double kInt64End = 9223372036854775808.0;
  if (std::isfinite(number) && number == std::trunc(number) && number >= -kInt64End &&
      number < kInt64End)
    return AssumedValue(number, static_cast<std::int64_t>(number));
  return AssumedValue(number, std::nullopt);
}

std::string AssumedValue::text() const {
  return whole_ ? std::to_string(*whole_) : shortestDecimal(real_);
}

} // namespace ptxdvfs::ptx::analysis
