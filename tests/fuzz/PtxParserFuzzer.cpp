// PtxParserFuzzer.cpp - libFuzzer: any bytes through both parse entry points, never a crash or a
// hang; and the hand-written parser agrees with the ANTLR grammar on every input that lexes.
#include "GrammarCheck.h"
#include "Lexer.h"
#include "SyntaxParser.h"

#include "ptxdvfs/ptx/Parser.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace ptxdvfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  ptx::ParseResult editor = ptx::parseForDiagnostics(text, "fuzz.ptx");
  auto strict = ptx::parseModule(text, "fuzz.ptx");
  // The two entry points must agree on whether the text is valid.
  if (static_cast<bool>(strict) == ptx::hasErrors(editor.diagnostics))
    __builtin_trap();

  ptx::LexResult lexed = ptx::lexPtx(text, "fuzz.ptx", 50, ptx::ParseLimits{}.maxNesting);
  if (!lexed.diagnostics.empty())
    return 0;
  std::size_t end = lexed.tokens.size() - 1;
  ptx::Module module;
  ptx::Diagnostics diagnostics;
  bool handAccepts =
      ptx::parseTokens(lexed.tokens, 0, end, text, "fuzz.ptx", module, diagnostics).failedItems == 0;
  bool grammarAccepts = ptx::grammarDiagnostics(text, "fuzz.ptx", lexed.tokens, 0, end, 50).empty();
  if (handAccepts != grammarAccepts)
    __builtin_trap();
  return 0;
}
