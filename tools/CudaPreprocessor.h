// CudaPreprocessor.h - which lines of a CUDA file a build compiles: the
// branches of `#if 0` that none does, and those that the build without
// -D flags leaves out (`#ifdef RD_WG_SIZE` where nothing defines it).
#pragma once

#include "CudaSource.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// The macros a build's -D and -U flags set: each name's value (`1` for
/// a bare `-DNAME`), or nullopt for one `-U` undefines.
using FlagMacros = std::map<std::string, std::optional<std::string>, std::less<>>;

/// The path that stands for the macros of a .cu input's nvcc flags among
/// the files read with its sources (nvccFlagsFile()).
inline constexpr const char *kNvccFlagsPath = "<nvcc flags>";

/// nvcc's -D and -U flags (`-DN=1024`, `-D N`, `--define-macro=N`,
/// `-UDEBUG`) written as a file of `#define` and `#undef` lines, to be read
/// with the sources (path kNvccFlagsPath); empty text where there are none.
std::string nvccFlagsFile(const std::vector<std::string> &flags);

/// The `#define`s and `#undef`s of such a file.
FlagMacros flagMacros(const std::string &code);

/// For each of `files` (as read, raw text), the files that its translation
/// units hold, so whose macros and file-scope constants its code can see:
/// every file reached through `#include "name"` or `<name>` (matched to a
/// file read by its file name; every match where several share it) from
/// a file that no other includes, taking all of them where a file is
/// reached from several, and the nvcc flags file, which every file sees.
/// Two programs beside each other, each defining `BLOCK` its own way,
/// then see their own. A file on a cycle no such file reaches sees every
/// file on it. `seen[i][j]`: whether file i sees file j.
std::vector<std::vector<bool>> filesSeenTogether(const std::vector<CudaSourceFile> &files);

/// The names that `code` (comments and literals blanked) `#define`s.
std::set<std::string, std::less<>> definedMacroNames(const std::string &code);

/// `code` (comments and literals blanked) as the build without -D flags
/// compiles it, as far as its `#if`, `#ifdef`, `#ifndef`, `#elif` and
/// `#else` lines tell: the lines of the branches it leaves out are
/// blanked (newlines kept), and so are the directives of every chain
/// whose conditions are all decided, so that the branch kept reads as
/// plain code. Conditions are read in order, as nvcc's host pass on Linux
/// reads them: a macro the file defined before is defined (its value
/// folded as C folds it), so are nvcc's and the compiler's own
/// (`__CUDACC__`, `__linux__`, `__cplusplus`), and one that no file read
/// defines is not (0), unless the compiler, the C library or CUDA's
/// headers may define it (`_`-led, `CUDA...`, `M_PI` and the like). A
/// condition on such a name, on one `definedElsewhere` (another file's),
/// or on one the file defines under a condition left undecided, is not
/// decided, nor are the branches after it: they stay, as written. A macro
/// the build's flags set is known as they set it.
/// A chain of `#if`s decided by a macro that no file defines, read as
/// undefined: what it keeps holds only where the build sets no -D flag.
struct UndefinedKnob {
  std::size_t start = 0, end = 0; ///< the chain, from its `#if` line to its `#endif` line
  std::string name;               ///< the first such macro its conditions read
  std::size_t at = 0;             ///< the directive that read it
};

/// readConditionals()'s result: the code, and the knobs it assumed undefined, in order.
struct ConditionalCode {
  std::string code;
  std::vector<UndefinedKnob> knobs;
};

/// `flags`: the macros the build's -D and -U flags set, known before the first line.
ConditionalCode readConditionals(std::string code, const std::set<std::string, std::less<>> &definedElsewhere,
                                 const FlagMacros &flags = {});

} // namespace ptxdvfs::tools
