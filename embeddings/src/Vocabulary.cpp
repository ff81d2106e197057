// Vocabulary.cpp - reading the three vocabulary lists.
#include "ptxdvfs/embeddings/Vocabulary.h"

#include "Text.h"

#include <fstream>

namespace ptxdvfs::embeddings {

std::optional<std::size_t> Vocabulary::indexIn(const std::vector<std::string> &list,
                                               std::string_view word) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i] == word)
      return i;
  return std::nullopt;
}

static ptx::Expected<std::vector<std::string>> readList(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return ptx::Expected<std::vector<std::string>>::failure(
        ptx::Diagnostic{path, {}, ptx::Severity::Error, "cannot read vocabulary file"});
  std::vector<std::string> entries;
  for (std::string line; std::getline(in, line);)
    entries.push_back(trimmed(std::string_view(line).substr(0, line.find('\t'))));
  // A final newline does not make an entry; blank lines inside do (they keep indices).
  while (!entries.empty() && entries.back().empty())
    entries.pop_back();
  if (entries.empty())
    return ptx::Expected<std::vector<std::string>>::failure(
        ptx::Diagnostic{path, {}, ptx::Severity::Error, "vocabulary file is empty"});
  return entries;
}

ptx::Expected<Vocabulary> loadVocabulary(const std::string &dir) {
  Vocabulary vocabulary;
  ptx::Diagnostics errors;
  auto load = [&](const char *file, std::vector<std::string> &into) {
    auto list = readList(dir + "/" + file);
    if (!list) {
      auto diagnostics = list.takeDiagnostics();
      errors.insert(errors.end(), diagnostics.begin(), diagnostics.end());
      return;
    }
    into = std::move(*list);
  };
  load(kOpcodesFile, vocabulary.opcodes);
  load(kStateSpacesFile, vocabulary.stateSpaces);
  load(kTypesFile, vocabulary.types);
  if (!errors.empty())
    return ptx::Expected<Vocabulary>::failure(std::move(errors));
  return vocabulary;
}

} // namespace ptxdvfs::embeddings
