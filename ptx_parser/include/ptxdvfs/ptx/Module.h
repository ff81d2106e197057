// Module.h - one parsed PTX file.
#pragma once

#include "ptxdvfs/ptx/Function.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ptxdvfs::ptx {

struct Module {
  std::string path;                       ///< as given to the parser
  /// The parsed text; instructions hold views into it.
  std::shared_ptr<const std::string> source;
  std::string version;                    ///< `.version 8.8` -> "8.8"; empty if missing
  std::vector<std::string> targets;       ///< `.target sm_80, texmode_independent`
  unsigned addressSize = 0;               ///< 32 or 64; 0 if not stated
  std::map<std::uint32_t, std::string> files; ///< `.file` index -> path
  std::vector<VariableDecl> globals;      ///< module-scope variables
  std::vector<Function> functions;        ///< `.entry` and `.func`, file order
  std::vector<Directive> directives;      ///< `.pragma`, `.section` and unknown ones

  /// `.target ..., debug`: compiled for device debugging (nvcc -G), so the
  /// code is unoptimised.
  bool targetsDebug() const;

  /// Kernels (`.entry` with a body) in file order: kernel k of the encoding.
  std::vector<const Function *> kernels() const;

  /// The `.file` path of a `.loc`; empty when the module does not declare
  /// that file index.
  std::string_view sourcePath(const DebugLocation &location) const;
};

} // namespace ptxdvfs::ptx
