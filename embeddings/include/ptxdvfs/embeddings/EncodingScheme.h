// EncodingScheme.h - named rules that turn a parsed PTX module into instruction records.
#pragma once

#include "ptxdvfs/embeddings/InstructionRecord.h"
#include "ptxdvfs/embeddings/Vocabulary.h"
#include "ptxdvfs/ptx/Module.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::embeddings {

/// A versioned encoding. A model records the scheme it was trained with
/// and refuses input encoded with another, so a scheme's output never
/// changes: a different output is a new scheme with a new name.
class EncodingScheme {
public:
  virtual ~EncodingScheme() = default;

  virtual std::string_view name() const = 0;
  const Vocabulary &vocabulary() const { return vocabulary_; }

  /// One EncodedKernel per kernel (`.entry` with a body), in file order.
  virtual std::vector<EncodedKernel> encode(const ptx::Module &module) const = 0;

  /// The human-readable form of a record: `opcode[.space][.type]`.
  std::string readable(const InstructionRecord &record) const;

protected:
  explicit EncodingScheme(Vocabulary vocabulary) : vocabulary_(std::move(vocabulary)) {}

private:
  Vocabulary vocabulary_;
};

/// `gpuptxmodel-v1`: the encoding of the public GTX Titan X data.
inline constexpr std::string_view kGpuPtxModelV1 = "gpuptxmodel-v1";

/// Every scheme this build knows.
std::vector<std::string_view> schemeNames();

/// The scheme called `name` over `vocabulary`; fails for an unknown name.
ptx::Expected<std::unique_ptr<EncodingScheme>> makeScheme(std::string_view name,
                                                          Vocabulary vocabulary);

} // namespace ptxdvfs::embeddings
