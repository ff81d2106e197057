// EncodingScheme.cpp - the scheme registry and the readable form shared by all schemes.
#include "ptxdvfs/embeddings/EncodingScheme.h"

#include "GpuPtxModelV1.h"

namespace ptxdvfs::embeddings {

static std::string entryOrMark(const std::vector<std::string> &list, std::size_t index) {
  return index < list.size() ? list[index] : "?" + std::to_string(index);
}

std::string EncodingScheme::readable(const InstructionRecord &record) const {
  std::string text = entryOrMark(vocabulary_.opcodes, record.opcode);
  if (record.stateSpace != 0)
    text += "." + entryOrMark(vocabulary_.stateSpaces, record.stateSpace - 1u);
  if (record.type != 0)
    text += "." + entryOrMark(vocabulary_.types, record.type - 1u);
  return text;
}

std::vector<std::string_view> schemeNames() { return {kGpuPtxModelV1}; }

ptx::Expected<std::unique_ptr<EncodingScheme>> makeScheme(std::string_view name,
                                                          Vocabulary vocabulary) {
  if (name == kGpuPtxModelV1)
    return std::unique_ptr<EncodingScheme>(std::make_unique<GpuPtxModelV1>(std::move(vocabulary)));
  std::string known;
  for (std::string_view scheme : schemeNames())
    known += (known.empty() ? "" : ", ") + std::string(scheme);
  return ptx::Expected<std::unique_ptr<EncodingScheme>>::failure(ptx::Diagnostic{
      "", {}, ptx::Severity::Error,
      "unknown encoding scheme '" + std::string(name) + "' (known: " + known + ")"});
}

} // namespace ptxdvfs::embeddings
