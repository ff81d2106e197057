// suite.cu - the microbenchmark suite for retraining on a new GPU (issue 16): every kernel of
// the templates in arithmetic.cuh, memory.cuh and programs.cuh, one extern "C" entry each.
//
// One signature for all, so `ptxdvfs collect` launches any of them the same way:
//   out, in   device buffers of `bytes` bytes each (in: random data)
//   bytes     the size of each buffer; sizes inside derive from it
//   repeats   how often the work is redone: the run length, chosen at launch
// Built to PTX by the optional `microbenchmarks` CMake target (nvcc, sm_75 and newer).

#include "programs.cuh"

using namespace microbenchmarks;

#define MICROBENCHMARK(name) \
  extern "C" __global__ void __launch_bounds__(256) \
      name(void *out, const void *in, unsigned long long bytes, int repeats)

// ---- arithmetic intensity: FMAs per element loaded and stored, per type -------------------

#define INTENSITY(type, label, ops) \
  MICROBENCHMARK(mb_intensity_##label##_##ops) { intensity<type, ops>(out, in, bytes, repeats); }
#define INTENSITY_SWEEP(type, label) \
  INTENSITY(type, label, 0)          \
  INTENSITY(type, label, 1)          \
  INTENSITY(type, label, 2)          \
  INTENSITY(type, label, 4)          \
  INTENSITY(type, label, 8)          \
  INTENSITY(type, label, 16)         \
  INTENSITY(type, label, 32)         \
  INTENSITY(type, label, 64)         \
  INTENSITY(type, label, 128)        \
  INTENSITY(type, label, 256)

INTENSITY_SWEEP(float, f32)
INTENSITY_SWEEP(double, f64)
INTENSITY_SWEEP(int, s32)
INTENSITY_SWEEP(long long, s64)
INTENSITY_SWEEP(__half2, f16x2)
INTENSITY_SWEEP(__nv_bfloat162, bf16x2)

// ---- special functions and divisions ---------------------------------------------------------

#define SPECIAL(which, label, ops) \
  MICROBENCHMARK(mb_special_##label##_##ops) { special<Special::which, ops>(out, in, bytes, repeats); }
#define SPECIAL_SWEEP(which, label) \
  SPECIAL(which, label, 4)          \
  SPECIAL(which, label, 32)

SPECIAL_SWEEP(FastSin, fast_sin_f32)
SPECIAL_SWEEP(Sin, sin_f32)
SPECIAL_SWEEP(Exp, exp_f32)
SPECIAL_SWEEP(Log, log_f32)
SPECIAL_SWEEP(Rsqrt, rsqrt_f32)
SPECIAL_SWEEP(Sqrt, sqrt_f32)
SPECIAL_SWEEP(Div, div_f32)
SPECIAL_SWEEP(SqrtF64, sqrt_f64)
SPECIAL_SWEEP(DivF64, div_f64)
SPECIAL_SWEEP(ExpF64, exp_f64)

// ---- two units at once -------------------------------------------------------------------------

#define MIX(which, label, ops) \
  MICROBENCHMARK(mb_mix_##label##_##ops) { mix<Mix::which, ops>(out, in, bytes, repeats); }

MIX(FloatInt, f32_s32, 4)
MIX(FloatInt, f32_s32, 32)
MIX(FloatDouble, f32_f64, 4)
MIX(FloatDouble, f32_f64, 32)
MIX(FloatSpecial, f32_sin, 4)
MIX(FloatSpecial, f32_sin, 32)

// ---- memory: DRAM patterns, caches, local and shared memory ------------------------------------

#define ACCESS(pattern, label, stride) \
  MICROBENCHMARK(mb_memory_##label) { access<Pattern::pattern, stride>(out, in, bytes, repeats); }

ACCESS(Read, dram_read, 1)
ACCESS(Write, dram_write, 1)
ACCESS(Copy, dram_copy, 1)
ACCESS(Strided, dram_stride_2, 2)
ACCESS(Strided, dram_stride_4, 4)
ACCESS(Strided, dram_stride_8, 8)
ACCESS(Strided, dram_stride_16, 16)
ACCESS(Strided, dram_stride_32, 32)
ACCESS(Random, dram_random, 1)
ACCESS(L2Resident, l2_read, 1)
ACCESS(L1Resident, l1_read, 1)
ACCESS(Local, local, 1)

#define SHARED(use, label, ops) \
  MICROBENCHMARK(mb_shared_##label##_##ops) { sharedMemory<SharedUse::use, ops>(out, in, bytes, repeats); }

SHARED(Tiles, tiles, 8)
SHARED(Tiles, tiles, 64)
SHARED(BankConflicts, bank_conflicts, 8)
SHARED(BankConflicts, bank_conflicts, 64)

// ---- atomics -----------------------------------------------------------------------------------

#define ATOMICS(which, label) \
  MICROBENCHMARK(mb_atomic_##label) { atomics<Atomic::which>(out, in, bytes, repeats); }

ATOMICS(GlobalContended, global_contended)
ATOMICS(GlobalSpread, global_spread)
ATOMICS(GlobalFloat, global_f32)
ATOMICS(SharedInt, shared_u32)
ATOMICS(SharedFloat, shared_f32)
ATOMICS(CompareSwap, global_cas)

// ---- control flow ------------------------------------------------------------------------------

#define FLOW(which, label) \
  MICROBENCHMARK(mb_flow_##label) { controlFlow<Flow::which>(out, in, bytes, repeats); }

FLOW(Divergent, divergent)
FLOW(Uniform, uniform)
FLOW(DataDependentLoop, data_dependent_loop)
FLOW(EarlyExit, early_exit)

// ---- tensor cores --------------------------------------------------------------------------------

#define TENSOR(k) \
  MICROBENCHMARK(mb_tensor_wmma_f16_##k) { tensorCores<k>(out, in, bytes, repeats); }

TENSOR(1)
TENSOR(4)
TENSOR(16)
TENSOR(64)

// ---- programs ------------------------------------------------------------------------------------

// Each reruns its whole work `repeats` times; `in` is read-only, `out` is
// both output and (for saxpy) input.
#define PROGRAM(label, call)            \
  MICROBENCHMARK(mb_program_##label) {  \
    for (int r = 0; r < repeats; ++r)   \
      call;                             \
  }

__device__ __forceinline__ float *floats(void *p) { return static_cast<float *>(p); }
__device__ __forceinline__ const float *floats(const void *p) { return static_cast<const float *>(p); }
__device__ __forceinline__ size_t elements(unsigned long long bytes) { return bytes / sizeof(float); }

PROGRAM(saxpy, saxpy(floats(out), floats(in), elements(bytes), 2.0f))
PROGRAM(reduce_sum, reduceSum(floats(out), floats(in), elements(bytes)))
PROGRAM(matrix_multiply, matrixMultiply(floats(out), floats(in), squareSide(bytes) / 16 * 16))
PROGRAM(stencil_5_point, stencil5(floats(out), floats(in), squareSide(bytes)))
PROGRAM(transpose, transpose(floats(out), floats(in), squareSide(bytes) / 32 * 32))
PROGRAM(histogram, histogram(static_cast<unsigned *>(out), static_cast<const unsigned char *>(in), bytes))
PROGRAM(block_scan, blockScan(floats(out), floats(in), elements(bytes)))
PROGRAM(sparse_matrix_vector, sparseMatrixVector(floats(out), floats(in), elements(bytes)))
PROGRAM(nbody, nbody(static_cast<float4 *>(out), static_cast<const float4 *>(in), elements(bytes) / 4))
PROGRAM(black_scholes, blackScholes(floats(out), floats(in), elements(bytes)))
PROGRAM(convolution_1d, convolution(floats(out), floats(in), elements(bytes)))
PROGRAM(matrix_vector, matrixVector(floats(out), floats(in), squareSide(bytes)))
