// memory.cuh - access patterns over the memory hierarchy, atomics, divergence and tensor cores.
#pragma once

#include "arithmetic.cuh"

#include <mma.h>

namespace microbenchmarks {

/// A well-mixed 32-bit hash: random but reproducible indices.
__device__ __forceinline__ unsigned hashIndex(size_t i) {
  unsigned x = static_cast<unsigned>(i) * 2654435761u;
  x ^= x >> 15;
  x *= 2246822519u;
  return x ^ (x >> 13);
}

enum class Pattern { Read, Write, Copy, Strided, Random, L2Resident, L1Resident, Local };

/// Reads or writes `bytes` of floats in a pattern. STRIDE is in elements
/// (Strided only). Reads are summed and one value per thread is written, so
/// nothing is optimised away.
template <Pattern P, int STRIDE = 1>
__device__ __forceinline__ void access(void *out_, const void *in_, unsigned long long bytes,
                                       int repeats) {
  const float *in = static_cast<const float *>(in_);
  float *out = static_cast<float *>(out_);
  size_t n = bytes / sizeof(float);
  // Working sets that fit a cache: 4 MiB for L2 (every GPU since Pascal has
  // at least that), 16 KiB per block for L1.
  constexpr size_t kL2Elements = (size_t(4) << 20) / sizeof(float);
  constexpr size_t kL1Elements = (size_t(16) << 10) / sizeof(float);
  GridStride grid;
  float sum = 0;
  float scratch[64]; // indexed at run time: lives in local memory
  for (int k = 0; k < 64; ++k)
    scratch[k] = static_cast<float>(k);
  for (int r = 0; r < repeats; ++r)
    for (size_t i = grid.first; i < n; i += grid.stride) {
      switch (P) {
      case Pattern::Read: sum += in[i]; break;
      case Pattern::Write: out[i] = static_cast<float>(i + r); break;
      case Pattern::Copy: out[i] = in[i]; break;
      case Pattern::Strided: sum += in[(i * STRIDE) % n]; break;
      case Pattern::Random: sum += in[hashIndex(i) % n]; break;
      case Pattern::L2Resident: sum += in[i % (kL2Elements < n ? kL2Elements : n)]; break;
      case Pattern::L1Resident:
        sum += __ldg(&in[blockIdx.x % 64 * kL1Elements % n + threadIdx.x * 7 % kL1Elements]);
        break;
      case Pattern::Local: {
        unsigned slot = static_cast<unsigned>(in[i]) & 63u;
        scratch[slot] += 1.0f;
        sum += scratch[(slot * 7u) & 63u];
        break;
      }
      }
    }
  if (P != Pattern::Write && P != Pattern::Copy && grid.first < n)
    out[grid.first] = sum;
}

enum class SharedUse { Tiles, BankConflicts };

/// Each block loads a 256-float tile into shared memory and reads it back
/// `OPS` times per element: with BankConflicts, 32 threads of a warp hit
/// one bank.
template <SharedUse U, int OPS>
__device__ __forceinline__ void sharedMemory(void *out_, const void *in_, unsigned long long bytes,
                                             int repeats) {
  __shared__ float tile[256 * 33];
  const float *in = static_cast<const float *>(in_);
  float *out = static_cast<float *>(out_);
  size_t n = bytes / sizeof(float);
  unsigned t = threadIdx.x % 256;
  unsigned stride = U == SharedUse::BankConflicts ? 32 : 1;
  for (int r = 0; r < repeats; ++r)
    for (size_t base = blockIdx.x * size_t(256); base < n; base += size_t(gridDim.x) * 256) {
      tile[t * stride] = in[base + t < n ? base + t : 0];
      __syncthreads();
      float acc = 0;
#pragma unroll 4
      for (int k = 0; k < OPS; ++k)
        acc += tile[((t + k) % 256) * stride];
      __syncthreads();
      if (base + t < n)
        out[base + t] = acc;
    }
}

enum class Atomic { GlobalContended, GlobalSpread, GlobalFloat, SharedInt, SharedFloat, CompareSwap };

/// One atomic per element: on one address (contended), on 1,024 (spread),
/// or in shared memory with one global atomic per block.
template <Atomic A>
__device__ __forceinline__ void atomics(void *out_, const void *in_, unsigned long long bytes,
                                        int repeats) {
  __shared__ unsigned sharedCount[32];
  __shared__ float sharedSum[32];
  const unsigned *in = static_cast<const unsigned *>(in_);
  unsigned *out = static_cast<unsigned *>(out_);
  size_t n = bytes / sizeof(unsigned);
  if (threadIdx.x < 32) {
    sharedCount[threadIdx.x] = 0;
    sharedSum[threadIdx.x] = 0;
  }
  __syncthreads();
  GridStride grid;
  for (int r = 0; r < repeats; ++r)
    for (size_t i = grid.first; i < n; i += grid.stride) {
      unsigned v = in[i];
      switch (A) {
      case Atomic::GlobalContended: atomicAdd(&out[0], v); break;
      case Atomic::GlobalSpread: atomicAdd(&out[v % 1024u], 1u); break;
      case Atomic::GlobalFloat: atomicAdd(reinterpret_cast<float *>(out) + (i % 1024u), 1.0f); break;
      case Atomic::SharedInt: atomicAdd(&sharedCount[v % 32u], 1u); break;
      case Atomic::SharedFloat: atomicAdd(&sharedSum[v % 32u], 0.5f); break;
      case Atomic::CompareSwap: atomicCAS(&out[v % 1024u], v, v + 1u); break;
      }
    }
  __syncthreads();
  if (threadIdx.x < 32 && (A == Atomic::SharedInt || A == Atomic::SharedFloat))
    atomicAdd(&out[threadIdx.x], sharedCount[threadIdx.x] + static_cast<unsigned>(sharedSum[threadIdx.x]));
}

enum class Flow { Divergent, Uniform, DataDependentLoop, EarlyExit };

/// Control flow: half of each warp on another path (Divergent), whole
/// blocks on one path (Uniform), a loop whose trip count comes from the
/// data, and threads leaving early.
template <Flow F>
__device__ __forceinline__ void controlFlow(void *out, const void *in, unsigned long long bytes,
                                            int repeats) {
  mapElements<float>(out, in, bytes, repeats, [](float x) {
    bool other = F == Flow::Divergent ? (threadIdx.x & 1) != 0 : (blockIdx.x & 1) != 0;
    if (F == Flow::DataDependentLoop) {
      unsigned trips = __float_as_uint(x) & 31u;
      for (unsigned k = 0; k < trips; ++k)
        x = fmaf(x, 0.999f, 0.5f);
    } else if (F == Flow::EarlyExit) {
      if (x > 0.5f)
        return x;
      for (int k = 0; k < 16; ++k)
        x = fmaf(x, x, 0.25f);
    } else if (other) {
      for (int k = 0; k < 16; ++k)
        x = __sinf(x);
    } else {
      for (int k = 0; k < 16; ++k)
        x = fmaf(x, 1.0001f, 1.0f);
    }
    return x;
  });
}

/// Tensor cores: each warp multiplies 16x16x16 half tiles K times into a
/// float accumulator (WMMA, sm_70 and newer).
template <int K>
__device__ __forceinline__ void tensorCores(void *out_, const void *in_, unsigned long long bytes,
                                            int repeats) {
  using namespace nvcuda;
  const __half *in = static_cast<const __half *>(in_);
  float *out = static_cast<float *>(out_);
  size_t tiles = bytes / (256 * sizeof(float));
  size_t warp = (blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x) / 32;
  size_t warps = static_cast<size_t>(gridDim.x) * blockDim.x / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  for (int r = 0; r < repeats; ++r)
    for (size_t tile = warp; tile < tiles; tile += warps) {
      wmma::load_matrix_sync(a, in + tile * 256, 16);
      wmma::load_matrix_sync(b, in + (tile ^ 1) % tiles * 256, 16);
      wmma::fill_fragment(c, 0.0f);
      for (int k = 0; k < K; ++k)
        wmma::mma_sync(c, a, b, c);
      wmma::store_matrix_sync(out + tile * 256, c, 16, wmma::mem_row_major);
    }
}

} // namespace microbenchmarks
