// ExecutionUnit.h - which part of the GPU an encoded instruction keeps busy.
#pragma once

#include "ptxdvfs/embeddings/Vocabulary.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ptxdvfs::embeddings {

struct InstructionRecord;
struct EncodedKernel;

/// A coarse class of instructions by the resource whose clock they wait on:
/// the memory level an access reaches, or the pipeline an operation issues
/// to. Why: the share of each class (operations per DRAM access, FP64 vs
/// FP32 vs integer work) is what decides whether a kernel is memory- or
/// core-clock bound; which opcode within a class was used barely matters.
/// A real kernel's integer and control instructions make its opcode mix
/// unlike every microbenchmark's, while its class mix still has near
/// neighbours among them.
enum class ExecutionUnit : std::uint8_t {
  Unknown = 0,     ///< a record read without a vocabulary, or an opcode outside it
  GlobalMemory,    ///< ld/st/prefetch of .global or of a generic address
  SharedMemory,    ///< ld/st .shared
  LocalMemory,     ///< ld/st .local (register spills, stack arrays)
  ConstantMemory,  ///< ld .const (and broadcast loads read as .const)
  /// ld .param: a kernel argument, read once per thread or once per
  /// unrolled copy of a loop body. Apart from ConstantMemory because its
  /// share says how often the microbenchmarks' code was copied, not what
  /// it waits on; kept apart, grouped CV scored better (docs/model.md).
  Parameter,
  TextureMemory,   ///< .tex loads and surface instructions
  Atomic,          ///< atom, red (any space)
  Fp64,            ///< arithmetic and comparisons on .f64
  Fp32,            ///< arithmetic and comparisons on .f32, .f16, .f16x2
  SpecialFunction, ///< sin, cos, lg2, ex2, rcp, sqrt, rsqrt on .f32 (the SFU)
  Integer,         ///< integer and bitwise arithmetic, comparisons, selects
  Control,         ///< bra, call, ret, exit
  Synchronisation, ///< barriers, fences, warp votes and shuffles
  DataMovement,    ///< mov, cvt, cvta, prmt, isspacep
};

inline constexpr std::size_t kExecutionUnitCount = 15;
static_assert(static_cast<std::size_t>(ExecutionUnit::DataMovement) + 1 == kExecutionUnitCount,
              "kExecutionUnitCount counts every unit, Unknown included");

/// Lower-case name of a unit, as `encode` prints it ("global_memory").
std::string_view executionUnitName(ExecutionUnit unit);

/// The unit of an instruction by its vocabulary names (opcode without
/// modifiers, state space and type without their dots; empty when absent).
ExecutionUnit executionUnitOf(std::string_view opcode, std::string_view stateSpace,
                              std::string_view type);

/// The unit of every (opcode, state space, type) a vocabulary can encode,
/// looked up once so that assigning units costs a table read per record.
class ExecutionUnitTable {
public:
  explicit ExecutionUnitTable(const Vocabulary &vocabulary);
  ExecutionUnit of(const InstructionRecord &record) const;
  /// Sets InstructionRecord::unit of every record of `kernels`.
  void assign(std::vector<EncodedKernel> &kernels) const;

private:
  std::size_t spaces_, types_; // rows per opcode and per space: the list sizes plus "none"
  std::vector<ExecutionUnit> units_; // by (opcode, state space digit, type digit)
};

} // namespace ptxdvfs::embeddings
