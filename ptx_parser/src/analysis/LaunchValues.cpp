// LaunchValues.cpp - where the values a bound starts from come from: the
// launch geometry (--grid, --block, .reqntid, or the defaults) and the
// kernel's parameters (--assume).
#include "ptxdvfs/ptx/analysis/Values.h"

namespace ptxdvfs::ptx::analysis {

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
  if (base == "%ntid") {
    if (assumptions_.block)
      return described(*assumptions_.block, ValueOrigin::Assumed, "--block");
    for (const PerformanceDirective &directive : graph_.function->performanceDirectives)
      if (directive.name == "reqntid" && !directive.values.empty()) {
        Dim3 dims{static_cast<std::uint32_t>(directive.values[0]),
                  directive.values.size() > 1 ? static_cast<std::uint32_t>(directive.values[1]) : 1,
                  directive.values.size() > 2 ? static_cast<std::uint32_t>(directive.values[2]) : 1};
        return described(dims, ValueOrigin::Constant, ".reqntid");
      }
    return described(kDefaultBlock, ValueOrigin::Defaulted, "default; set --block");
  }
  if (base == "%nctaid")
    return assumptions_.grid ? described(*assumptions_.grid, ValueOrigin::Assumed, "--grid")
                             : described(kDefaultGrid, ValueOrigin::Defaulted, "default; set --grid");
  return Value::unknown("special register " + std::string(base) + "." + std::string(component));
}

Value ValueEvaluator::parameter(std::string_view name) const {
  const Function &function = *graph_.function;
  std::size_t index = 0;
  while (index < function.parameters.size() && function.parameters[index].name != name)
    ++index;
  std::vector<std::string> candidates{std::string(name)};
  if (auto at = name.rfind("_param_"); at != std::string_view::npos)
    candidates.push_back(std::string(name.substr(at + 1)));
  if (auto names = assumptions_.sourceParameterNames.find(function.name);
      names != assumptions_.sourceParameterNames.end() && index < names->second.size())
    candidates.push_back(names->second[index]);
  for (const std::string &candidate : candidates)
    if (auto value = assumptions_.parameters.find(candidate); value != assumptions_.parameters.end())
      return Value{value->second, ValueOrigin::Assumed,
                   {"parameter " + candidate + " = " + std::to_string(value->second) + " (--assume)"}};
  return Value::unknown("parameter " + candidates.back() + " (no --assume " + candidates.back() +
                        "=VALUE)");
}

} // namespace ptxdvfs::ptx::analysis
