// EncodingScheme.cpp - the scheme registry and the readable form shared by all schemes.
#include "ptxdvfs/embeddings/EncodingScheme.h"

#include "GpuPtxModelV1.h"
#include "ptxdvfs/ptx/analysis/WarpUniformity.h"

#include <map>
#include <memory>
#include <set>
#include <utility>

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

namespace {

/// Records the warp-uniform global loads among `executed`'s instructions
/// in the `.const` space (EncodeOptions::broadcastLoadsAsConstant). Records
/// know their instruction by its place in the file.
void recordBroadcastLoadsAsConstant(const std::vector<ptx::analysis::ExecutedKernel> &executed,
                                    const Vocabulary &vocabulary, std::vector<EncodedKernel> &encoded) {
  auto spaceDigit = [&](std::string_view name) -> std::uint8_t {
    auto index = Vocabulary::indexIn(vocabulary.stateSpaces, name);
    return index ? static_cast<std::uint8_t>(*index + 1) : 0;
  };
  std::uint8_t global = spaceDigit("global"), constant = spaceDigit("const");
  if (global == 0 || constant == 0)
    return;
  std::set<std::pair<std::uint32_t, std::uint32_t>> broadcasts;
  std::set<const ptx::Function *> analysed;
  for (const ptx::analysis::ExecutedKernel &kernel : executed)
    for (const ptx::analysis::ExecutedInstruction &step : kernel.sequence) {
      if (!analysed.insert(step.function).second)
        continue;
      ptx::analysis::ControlFlowGraph graph = ptx::analysis::buildControlFlowGraph(*step.function);
      ptx::analysis::WarpUniformity uniformity(graph);
      for (const ptx::Instruction *instruction : graph.instructions)
        if (uniformity.isWarpUniformGlobalLoad(*instruction))
          broadcasts.insert({instruction->location.line, instruction->location.column});
    }
  for (EncodedKernel &kernel : encoded)
    for (InstructionRecord &record : kernel.instructions)
      if (record.stateSpace == global && broadcasts.count({record.location.line, record.location.column}))
        record.stateSpace = constant;
}

} // namespace

std::vector<EncodedKernel> EncodingScheme::encode(const ptx::Module &module,
                                                  const EncodeOptions &options) const {
  std::vector<KernelSteps> kernels;
  std::vector<ptx::analysis::ExecutedKernel> executed;
  for (const ptx::Function *kernel : module.kernels()) {
    KernelSteps steps{kernel->name, {}};
    if (options.asExecuted) {
      executed.push_back(ptx::analysis::expandKernel(module, *kernel, options.launch, options.expansion));
      const ptx::analysis::ExecutedInstruction *previous = nullptr;
      for (const auto &step : executed.back().sequence) {
        bool continuesLine = previous && previous->function == step.function &&
                             previous->index + 1 == step.index &&
                             previous->instruction->location.line == step.instruction->location.line;
        steps.steps.push_back({step.instruction, step.weight, step.loop, continuesLine});
        previous = &step;
      }
    } else {
      steps = stepsAsWritten(*kernel);
    }
    kernels.push_back(std::move(steps));
  }
  std::vector<EncodedKernel> encoded = encodeSteps(kernels, *newCarriedState());
  if (options.asExecuted && options.broadcastLoadsAsConstant)
    recordBroadcastLoadsAsConstant(executed, vocabulary_, encoded);
  units_.assign(encoded); // after the space rewrite: a broadcast load is constant memory
  for (std::size_t k = 0; k < executed.size() && k < encoded.size(); ++k) {
    encoded[k].loops = std::move(executed[k].loops);
    encoded[k].iterationsPerLoop = executed[k].iterationsPerLoop;
    encoded[k].launch = std::move(executed[k].launch);
    encoded[k].warnings = std::move(executed[k].warnings);
  }
  return encoded;
}

EncodingScheme::KernelSteps EncodingScheme::stepsAsWritten(const ptx::Function &kernel) {
  KernelSteps steps{kernel.name, {}};
  steps.steps.reserve(kernel.instructionCount());
  std::uint32_t lastLine = 0;
  kernel.forEachInstruction([&](const ptx::Instruction &instruction) {
    steps.steps.push_back({&instruction, 1.0, -1, instruction.location.line == lastLine});
    lastLine = instruction.location.line;
  });
  return steps;
}

std::vector<EncodedKernel> EncodingScheme::PieceEncoder::encode(const ptx::Module &piece) {
  std::vector<KernelSteps> kernels;
  for (const ptx::Function *kernel : piece.kernels())
    kernels.push_back(stepsAsWritten(*kernel));
  std::vector<EncodedKernel> encoded = scheme_.encodeSteps(kernels, *state_);
  scheme_.units_.assign(encoded);
  return encoded;
}

std::string readingName(std::string_view scheme, const EncodeOptions &options) {
  std::string name(scheme);
  if (options.asExecuted) {
    name += kAsExecutedSuffix;
    if (options.broadcastLoadsAsConstant)
      name += kBroadcastSuffix;
  }
  return name;
}

bool readsAsExecuted(std::string_view name) {
  return name.find(kAsExecutedSuffix) != std::string_view::npos;
}

bool readsBroadcastLoadsAsConstant(std::string_view name) {
  return readsAsExecuted(name) && name.find(kBroadcastSuffix) != std::string_view::npos;
}

EncodeOptions readingOptions(std::string_view name) {
  EncodeOptions options;
  options.asExecuted = readsAsExecuted(name);
  options.broadcastLoadsAsConstant = readsBroadcastLoadsAsConstant(name);
  return options;
}

std::string_view baseScheme(std::string_view name) { return name.substr(0, name.find('+')); }

std::vector<std::string_view> schemeNames() { return {kGpuPtxModelV1}; }

ptx::Expected<std::unique_ptr<EncodingScheme>> makeScheme(std::string_view name,
                                                          Vocabulary vocabulary) {
  name = baseScheme(name);
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
