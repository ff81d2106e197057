// EncodingScheme.h - named rules that turn a parsed PTX module into instruction records.
#pragma once

#include "ptxdvfs/embeddings/ExecutionUnit.h"
#include "ptxdvfs/embeddings/InstructionRecord.h"
#include "ptxdvfs/embeddings/Vocabulary.h"
#include "ptxdvfs/ptx/Module.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::embeddings {

/// How a kernel is read. By default, as written: each instruction of the
/// text once, in source order (what the public training data used). With
/// `asExecuted`, as one thread executes it (ptx/analysis/ExecutedSequence.h):
/// loop bodies repeated by their trip counts, calls inlined, and each
/// record weighted by the executions it stands for.
struct EncodeOptions {
  bool asExecuted = false;
  /// As executed only: a `ld.global` whose address is the same for every
  /// lane of a warp (ptx/analysis/WarpUniformity.h) is recorded in the
  /// `.const` state space, the space made for such broadcasts, so that
  /// neither the mix nor the sequence counts it as DRAM traffic: one such
  /// load moves one address per warp where a streaming load moves 32.
  bool broadcastLoadsAsConstant = false;
  ptx::analysis::LaunchAssumptions launch;
  ptx::analysis::ExpansionOptions expansion;
};

/// A versioned encoding. A model records the scheme it was trained with
/// and refuses input encoded with another, so a scheme's output never
/// changes: a different output is a new scheme with a new name.
class EncodingScheme {
public:
  virtual ~EncodingScheme() = default;

  virtual std::string_view name() const = 0;
  const Vocabulary &vocabulary() const { return vocabulary_; }

  /// One EncodedKernel per kernel (`.entry` with a body), in file order.
  std::vector<EncodedKernel> encode(const ptx::Module &module, const EncodeOptions &options = {}) const;

  /// What a scheme carries from one kernel to the next within a file
  /// (v1's dependency window); opaque outside the scheme.
  struct CarriedState {
    virtual ~CarriedState() = default;
  };

  /// Encodes a file that arrives in pieces (ptx::parseFileInPieces) as
  /// encode() encodes the whole module, so memory stays bounded by a piece.
  /// Reads kernels as written only: reading as executed inlines calls to
  /// functions that may sit anywhere in the file.
  class PieceEncoder {
  public:
    explicit PieceEncoder(const EncodingScheme &scheme)
        : scheme_(scheme), state_(scheme.newCarriedState()) {}
    /// One EncodedKernel per kernel of `piece`; pieces must come in file order.
    std::vector<EncodedKernel> encode(const ptx::Module &piece);

  private:
    const EncodingScheme &scheme_;
    std::unique_ptr<CarriedState> state_;
  };

  /// The human-readable form of a record: `opcode[.space][.type]`.
  std::string readable(const InstructionRecord &record) const;

protected:
  explicit EncodingScheme(Vocabulary vocabulary)
      : vocabulary_(std::move(vocabulary)), units_(vocabulary_) {}

  /// One instruction in the order the scheme is to read it.
  struct Step {
    const ptx::Instruction *instruction = nullptr;
    double weight = 1;
    int loop = -1;
    /// The previous step is the instruction before it on the same source
    /// line (line-based rules count such a line once).
    bool continuesLine = false;
  };
  struct KernelSteps {
    std::string name;
    std::vector<Step> steps;
  };
  /// The state at the start of a file.
  virtual std::unique_ptr<CarriedState> newCarriedState() const = 0;
  /// Encodes every kernel's steps, in order, carrying `state` through them.
  virtual std::vector<EncodedKernel> encodeSteps(const std::vector<KernelSteps> &kernels,
                                                 CarriedState &state) const = 0;
  /// The steps of a kernel read as written: each instruction once, in order.
  static KernelSteps stepsAsWritten(const ptx::Function &kernel);

private:
  Vocabulary vocabulary_;
  ExecutionUnitTable units_; // of vocabulary_: records leave encode() with their unit set
};

/// `gpuptxmodel-v1`: the encoding of the public GTX Titan X data.
inline constexpr std::string_view kGpuPtxModelV1 = "gpuptxmodel-v1";

/// A scheme read as executed is named `<scheme>+executed` wherever a name
/// records how data was encoded (datasets, model folders), and
/// `<scheme>+executed+broadcast` with broadcast loads read as `.const`, so
/// a model trained on one reading refuses data made by another.
inline constexpr std::string_view kAsExecutedSuffix = "+executed";
inline constexpr std::string_view kBroadcastSuffix = "+broadcast";
std::string readingName(std::string_view scheme, const EncodeOptions &options);
bool readsAsExecuted(std::string_view readingName);
bool readsBroadcastLoadsAsConstant(std::string_view readingName);
/// The reading a name records (asExecuted, broadcastLoadsAsConstant); the
/// launch and the expansion are left at their defaults.
EncodeOptions readingOptions(std::string_view readingName);
/// The scheme part of a reading name (`gpuptxmodel-v1+executed` -> `gpuptxmodel-v1`).
std::string_view baseScheme(std::string_view readingName);

/// Every scheme this build knows.
std::vector<std::string_view> schemeNames();

/// The scheme called `name` (a reading name is accepted: its base scheme)
/// over `vocabulary`; fails for an unknown name.
ptx::Expected<std::unique_ptr<EncodingScheme>> makeScheme(std::string_view name,
                                                          Vocabulary vocabulary);

} // namespace ptxdvfs::embeddings
