// CudaMathFunctions.cpp - the C library's functions that host code sizes
// a launch with (`(int)pow(2, 20)`, `sqrt(n)`, `std::min(a, b)`), as the
// folder computes them; see CudaExpression.h.
#include "CudaExpression.h"

#include <cmath>
#include <functional>
#include <map>

namespace ptxdvfs::tools::expression {

std::optional<Number> libraryFunction(const std::string &name, const std::vector<Number> &arguments) {
  // Each with its `f` form (`sqrtf`), which computes in float: the sizes they give are whole numbers all the same.
  static const std::map<std::string, std::function<double(double)>, std::less<>> kOfOne{
      {"ceil", [](double x) { return std::ceil(x); }},   {"floor", [](double x) { return std::floor(x); }},
      {"round", [](double x) { return std::round(x); }}, {"trunc", [](double x) { return std::trunc(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},   {"cbrt", [](double x) { return std::cbrt(x); }},
      {"log2", [](double x) { return std::log2(x); }},   {"exp2", [](double x) { return std::exp2(x); }},
      {"fabs", [](double x) { return std::fabs(x); }}};
  std::string base = name;
  if (base.size() > 1 && base.back() == 'f' && !kOfOne.count(base) && base != "powf")
    base.pop_back();
  if (const auto found = kOfOne.find(base); found != kOfOne.end() && arguments.size() == 1) {
    const double value = found->second(arguments[0].asReal());
    return std::isfinite(value) ? std::optional<Number>(Number{true, 0, value}) : std::nullopt; // sqrt(-1), log2(0)
  }
  if ((name == "pow" || name == "powf") && arguments.size() == 2) {
    const double value = std::pow(arguments[0].asReal(), arguments[1].asReal());
    return std::isfinite(value) ? std::optional<Number>(Number{true, 0, value}) : std::nullopt;
  }
  if ((name == "abs" || name == "labs" || name == "llabs") && arguments.size() == 1) {
    const Number &x = arguments[0]; // std::abs of a double is a double
    if (!x.real && x.whole == INT64_MIN)
      return std::nullopt;
    return x.real ? Number{true, 0, std::fabs(x.value)} : Number{false, x.whole < 0 ? -x.whole : x.whole, 0};
  }
  if ((name == "min" || name == "max") && arguments.size() == 2) {
    const Number &a = arguments[0], &b = arguments[1];
    const bool firstIsLess = a.asReal() < b.asReal();
    Number result = (name == "min") == firstIsLess ? a : b;
    if (a.real || b.real)
      result = Number{true, 0, result.asReal()};
    return result;
  }
  return std::nullopt;
}

} // namespace ptxdvfs::tools::expression
