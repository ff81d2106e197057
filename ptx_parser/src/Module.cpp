// Module.cpp - queries over a parsed module.
#include "ptxdvfs/ptx/Module.h"

#include <algorithm>

namespace ptxdvfs::ptx {

bool Module::targetsDebug() const {
  return std::find(targets.begin(), targets.end(), "debug") != targets.end();
}

std::vector<const Function *> Module::kernels() const {
  std::vector<const Function *> result;
  for (const Function &function : functions)
    if (function.kind == FunctionKind::Entry && function.hasBody)
      result.push_back(&function);
  return result;
}

std::string_view Module::sourcePath(const DebugLocation &location) const {
  auto file = files.find(location.fileIndex);
  return file == files.end() ? std::string_view() : std::string_view(file->second);
}

} // namespace ptxdvfs::ptx
