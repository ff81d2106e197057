// Vocabulary.h - the three lists an encoding indexes into (opcodes, state spaces, types).
#pragma once

#include "ptxdvfs/ptx/Expected.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::embeddings {

/// Entries keep their line order: codes store 0-based (opcodes) or 1-based
/// (spaces, types) positions, so the order is part of the encoding.
struct Vocabulary {
  std::vector<std::string> opcodes;     ///< ptx_isa.txt
  std::vector<std::string> stateSpaces; ///< ptx_state_spaces.txt
  std::vector<std::string> types;       ///< ptx_instruction_types.txt

  /// Position of `word` in a list, or nullopt.
  static std::optional<std::size_t> indexIn(const std::vector<std::string> &list,
                                            std::string_view word);
};

inline constexpr const char *kOpcodesFile = "ptx_isa.txt";
inline constexpr const char *kStateSpacesFile = "ptx_state_spaces.txt";
inline constexpr const char *kTypesFile = "ptx_instruction_types.txt";

/// Reads the three files from `dir`. An entry is the text of a line before
/// its first tab, trimmed. Fails naming the file when one is missing or
/// empty.
ptx::Expected<Vocabulary> loadVocabulary(const std::string &dir);

} // namespace ptxdvfs::embeddings
