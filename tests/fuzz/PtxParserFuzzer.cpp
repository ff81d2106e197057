// PtxParserFuzzer.cpp - libFuzzer: any bytes through both parse entry points, never a crash or a hang.
#include "ptxdvfs/ptx/Parser.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  ptxdvfs::ptx::ParseResult editor = ptxdvfs::ptx::parseForDiagnostics(text, "fuzz.ptx");
  auto strict = ptxdvfs::ptx::parseModule(text, "fuzz.ptx");
  // The two entry points must agree on whether the text is valid.
  if (static_cast<bool>(strict) == ptxdvfs::ptx::hasErrors(editor.diagnostics))
    __builtin_trap();
  return 0;
}
