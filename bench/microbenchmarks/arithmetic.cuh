// arithmetic.cuh - the templates behind the arithmetic-intensity sweep and the special functions.
//
// Every kernel of the suite has one signature (see suite.cu), so the collector launches them
// all alike: `out` and `in` hold `bytes` bytes each, `repeats` reruns the whole work.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace microbenchmarks {

/// One fused multiply-add in the unit the type runs on.
template <typename T> __device__ __forceinline__ T fmaOp(T a, T b, T c) { return a * b + c; }
template <> __device__ __forceinline__ float fmaOp(float a, float b, float c) { return fmaf(a, b, c); }
template <> __device__ __forceinline__ double fmaOp(double a, double b, double c) { return fma(a, b, c); }
template <> __device__ __forceinline__ __half2 fmaOp(__half2 a, __half2 b, __half2 c) {
  return __hfma2(a, b, c);
}
template <>
__device__ __forceinline__ __nv_bfloat162 fmaOp(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
#if __CUDA_ARCH__ >= 800
  return __hfma2(a, b, c);
#else // no bf16 arithmetic before Ampere: what code for sm_75 does instead
  float2 fa = __bfloat1622float2(a), fb = __bfloat1622float2(b), fc = __bfloat1622float2(c);
  return __floats2bfloat162_rn(fmaf(fa.x, fb.x, fc.x), fmaf(fa.y, fb.y, fc.y));
#endif
}

/// The first thread index and the stride of a grid-stride loop.
struct GridStride {
  size_t first = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
};

/// For each of the `bytes / sizeof(T)` elements, `repeats` times over:
/// out[i] = f(in[i]). The shape of most kernels of the suite.
template <typename T, typename F>
__device__ __forceinline__ void mapElements(void *out_, const void *in_, unsigned long long bytes,
                                            int repeats, F f) {
  const T *in = static_cast<const T *>(in_);
  T *out = static_cast<T *>(out_);
  size_t n = bytes / sizeof(T);
  GridStride grid;
  for (int r = 0; r < repeats; ++r)
    for (size_t i = grid.first; i < n; i += grid.stride)
      out[i] = f(in[i]);
}

/// Reads an element, applies OPS dependent FMAs to it, writes it: OPS = 0
/// is a pure copy (DRAM bound), OPS = 256 is compute bound on any GPU. The
/// FMA loop is unrolled by 4 only, as real code is.
template <typename T, int OPS>
__device__ __forceinline__ void intensity(void *out, const void *in, unsigned long long bytes,
                                          int repeats) {
  mapElements<T>(out, in, bytes, repeats, [](T x) {
    T acc = x;
#pragma unroll 4
    for (int k = 0; k < OPS; ++k)
      acc = fmaOp(acc, x, acc);
    return acc;
  });
}

enum class Special { FastSin, Sin, Exp, Log, Rsqrt, Sqrt, Div, SqrtF64, DivF64, ExpF64 };

template <Special S> struct SpecialOp;
template <> struct SpecialOp<Special::FastSin> {
  using T = float;
  static __device__ __forceinline__ T apply(T x, T) { return __sinf(x); }
};
template <> struct SpecialOp<Special::Sin> {
  using T = float;
  static __device__ __forceinline__ T apply(T x, T) { return sinf(x); }
};
template <> struct SpecialOp<Special::Exp> {
  using T = float;
  static __device__ __forceinline__ T apply(T x, T) { return expf(x) * 0.5f; }
};
template <> struct SpecialOp<Special::Log> {
  using T = float;
  static __device__ __forceinline__ T apply(T x, T) { return logf(fabsf(x) + 1.0f); }
};
template <> struct SpecialOp<Special::Rsqrt> {
  using T = float;
  static __device__ __forceinline__ T apply(T x, T) { return rsqrtf(fabsf(x) + 1.0f); }
};
template <> struct SpecialOp<Special::Sqrt> {
  using T = float;
  static __device__ __forceinline__ T apply(T x, T) { return sqrtf(fabsf(x)); }
};
template <> struct SpecialOp<Special::Div> {
  using T = float;
  static __device__ __forceinline__ T apply(T x, T y) { return y / (x + 2.0f); }
};
template <> struct SpecialOp<Special::SqrtF64> {
  using T = double;
  static __device__ __forceinline__ T apply(T x, T) { return sqrt(fabs(x)); }
};
template <> struct SpecialOp<Special::DivF64> {
  using T = double;
  static __device__ __forceinline__ T apply(T x, T y) { return y / (x + 2.0); }
};
template <> struct SpecialOp<Special::ExpF64> {
  using T = double;
  static __device__ __forceinline__ T apply(T x, T) { return exp(x) * 0.5; }
};

/// OPS dependent special-function calls per element.
template <Special S, int OPS>
__device__ __forceinline__ void special(void *out, const void *in, unsigned long long bytes,
                                        int repeats) {
  using T = typename SpecialOp<S>::T;
  mapElements<T>(out, in, bytes, repeats, [](T x) {
    T acc = x;
#pragma unroll 4
    for (int k = 0; k < OPS; ++k)
      acc = SpecialOp<S>::apply(acc, x);
    return acc;
  });
}

/// Two units at once: OPS float FMAs interleaved with OPS operations of the
/// other kind (integer multiply-add, double FMA, or a special function).
enum class Mix { FloatInt, FloatDouble, FloatSpecial };

template <Mix M, int OPS>
__device__ __forceinline__ void mix(void *out, const void *in, unsigned long long bytes,
                                    int repeats) {
  mapElements<float>(out, in, bytes, repeats, [](float x) {
    float f = x;
    int a = __float_as_int(x);
    double d = x;
#pragma unroll 4
    for (int k = 0; k < OPS; ++k) {
      f = fmaf(f, x, f);
      if (M == Mix::FloatInt)
        a = a * 3 + k;
      else if (M == Mix::FloatDouble)
        d = fma(d, 1.000001, d);
      else
        f = __sinf(f);
    }
    return f + static_cast<float>(a) + static_cast<float>(d);
  });
}

} // namespace microbenchmarks
