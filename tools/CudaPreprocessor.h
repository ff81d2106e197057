// CudaPreprocessor.h - which lines of a CUDA file a build compiles: the
// branches of `#if 0` that none does, and those that the build without
// -D flags leaves out (`#ifdef RD_WG_SIZE` where nothing defines it).
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

/// The names that `code` (comments and literals blanked) `#define`s.
std::set<std::string, std::less<>> definedMacroNames(const std::string &code);

/// One file's conditional lines, read as the preprocessor would.
struct CompiledLines {
  /// The code with the lines no build compiles blanked (newlines kept):
  /// `#if 0` branches, the `#else` of `#if 1`, and those directives, so
  /// that the branch kept reads as plain code.
  std::string code;
  /// The lines (offsets [start, end)) that the build without -D flags
  /// leaves out, by the macros its conditions test, in order.
  std::vector<std::pair<std::size_t, std::size_t>> leftOut;
};

/// Reads the `#if`, `#ifdef`, `#ifndef`, `#elif` and `#else` lines of
/// `code` (comments and literals blanked) in order, as nvcc's host pass
/// on Linux does without -D flags. A condition is decided where every
/// macro it tests is known there: defined earlier in the file (its value
/// folded as C folds it), predefined (`__CUDACC__`, `__linux__`,
/// `__cplusplus`), or defined in no file read and not a name system or
/// CUDA headers define (not `_`-led, not `CUDA...`, `M_PI` and the like),
/// which reads as undefined, 0. One that tests a macro defined in
/// `definedElsewhere` (another file's), or one the file defines under a
/// condition left undecided, is not decided, nor are the branches after it.
CompiledLines readConditionals(std::string code, const std::set<std::string, std::less<>> &definedElsewhere);

} // namespace ptxdvfs::tools
