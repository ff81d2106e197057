// GpuPtxModelV1.h - the `gpuptxmodel-v1` scheme: the original tool's rules, quirks included.
#pragma once

#include "ptxdvfs/embeddings/EncodingScheme.h"

#include <optional>
#include <string_view>

namespace ptxdvfs::embeddings {

/// The rules of shared/docs/encoding-v1.md. They are stated on the text of
/// one source line, so they read Instruction::lineText rather than the
/// parsed operands; the parser only decides which lines are kernel code.
class GpuPtxModelV1 final : public EncodingScheme {
public:
  explicit GpuPtxModelV1(Vocabulary vocabulary) : EncodingScheme(std::move(vocabulary)) {}

  std::string_view name() const override { return kGpuPtxModelV1; }

protected:
  std::unique_ptr<CarriedState> newCarriedState() const override;
  std::vector<EncodedKernel> encodeSteps(const std::vector<KernelSteps> &kernels,
                                         CarriedState &state) const override;
};

} // namespace ptxdvfs::embeddings
