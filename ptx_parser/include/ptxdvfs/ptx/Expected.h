// Expected.h - a value or the diagnostics that explain why there is none.
#pragma once

#include "ptxdvfs/ptx/Diagnostic.h"

#include <cassert>
#include <optional>
#include <utility>

namespace ptxdvfs::ptx {

/// The result of an operation that user input can make fail (parsing,
/// importing, loading weights). Modelled on llvm::Expected and C++23's
/// std::expected: either a value, or at least one error diagnostic.
/// Warnings produced on the way travel with the value too.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value, Diagnostics warnings = {})
      : value_(std::move(value)), diagnostics_(std::move(warnings)) {}

  /// Failure. `errors` must contain at least one error.
  static Expected failure(Diagnostics errors) {
    assert(hasErrors(errors) && "a failed Expected needs an error");
    return Expected(std::move(errors));
  }
  static Expected failure(Diagnostic error) {
    return failure(Diagnostics{std::move(error)});
  }

  explicit operator bool() const { return value_.has_value(); }
  bool hasValue() const { return value_.has_value(); }

  T &operator*() & { return *value_; }
  const T &operator*() const & { return *value_; }
  T &&operator*() && { return std::move(*value_); }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }

  /// Errors on failure; warnings (possibly none) on success.
  const Diagnostics &diagnostics() const { return diagnostics_; }
  Diagnostics takeDiagnostics() { return std::move(diagnostics_); }

private:
  explicit Expected(Diagnostics errors) : diagnostics_(std::move(errors)) {}

  std::optional<T> value_;
  Diagnostics diagnostics_;
};

} // namespace ptxdvfs::ptx
