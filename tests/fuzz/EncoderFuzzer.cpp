// EncoderFuzzer.cpp - libFuzzer: PTX that parses, encoded as written and as executed (loops,
// trip counts, calls), within a small budget so each input stays fast.
#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/embeddings/Vocabulary.h"
#include "ptxdvfs/ptx/Parser.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

namespace {

const ptxdvfs::embeddings::EncodingScheme &scheme() {
  static std::unique_ptr<ptxdvfs::embeddings::EncodingScheme> loaded = [] {
    auto vocabulary = ptxdvfs::embeddings::loadVocabulary(PTXDVFS_VOCABULARY_DIR);
    if (!vocabulary)
      std::abort();
    auto made = ptxdvfs::embeddings::makeScheme("gpuptxmodel-v1", std::move(*vocabulary));
    if (!made)
      std::abort();
    return std::move(*made);
  }();
  return *loaded;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  auto module = ptxdvfs::ptx::parseModule(text, "fuzz.ptx");
  if (!module)
    return 0;
  scheme().encode(*module);
  ptxdvfs::embeddings::EncodeOptions executed;
  executed.asExecuted = true;
  executed.expansion.budget = 512;
  for (const auto &kernel : scheme().encode(*module, executed)) {
    double total = 0;
    for (const auto &record : kernel.instructions)
      total += record.weight;
    if (!(total >= 0)) // NaN or negative weights would poison the instruction mix
      __builtin_trap();
  }
  return 0;
}
