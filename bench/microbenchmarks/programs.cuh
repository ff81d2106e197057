// programs.cuh - kernels written as real programs are: loops left to the compiler, sizes and
// trip counts from the launch, the shapes the loop analysis has to read (grid-stride loops,
// tiles, reductions, data-dependent rows).
#pragma once

#include "memory.cuh"

namespace microbenchmarks {

/// The side of the largest square matrix of floats that fits in `bytes`.
__device__ __forceinline__ unsigned squareSide(unsigned long long bytes) {
  return static_cast<unsigned>(sqrt(static_cast<double>(bytes / sizeof(float))));
}

__device__ __forceinline__ void saxpy(float *y, const float *x, size_t n, float a) {
  GridStride grid;
  for (size_t i = grid.first; i < n; i += grid.stride)
    y[i] = a * x[i] + y[i];
}

__device__ void reduceSum(float *out, const float *in, size_t n) {
  __shared__ float partial[256];
  GridStride grid;
  float sum = 0;
  for (size_t i = grid.first; i < n; i += grid.stride)
    sum += in[i];
  partial[threadIdx.x % 256] = sum;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, partial[0]);
}

/// C = A * A^T with 16x16 shared tiles; blocks stride over the tiles of C.
__device__ void matrixMultiply(float *c, const float *a, unsigned side) {
  __shared__ float rows[16][17], cols[16][17];
  unsigned tx = threadIdx.x % 16, ty = threadIdx.x / 16 % 16;
  unsigned tilesPerSide = side / 16;
  for (unsigned tile = blockIdx.x; tile < tilesPerSide * tilesPerSide; tile += gridDim.x) {
    unsigned row = tile / tilesPerSide * 16 + ty, col = tile % tilesPerSide * 16 + tx;
    float sum = 0;
    for (unsigned k = 0; k < side; k += 16) {
      rows[ty][tx] = a[row * side + k + tx];
      cols[ty][tx] = a[col * side + k + ty];
      __syncthreads();
      for (unsigned j = 0; j < 16; ++j)
        sum += rows[ty][j] * cols[j][tx];
      __syncthreads();
    }
    c[row * side + col] = sum;
  }
}

__device__ void stencil5(float *out, const float *in, unsigned side) {
  GridStride grid;
  size_t cells = size_t(side) * side;
  for (size_t i = grid.first; i < cells; i += grid.stride) {
    unsigned x = i % side, y = i / side;
    if (x == 0 || y == 0 || x + 1 == side || y + 1 == side)
      continue;
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - side] + in[i + side]);
  }
}

__device__ void transpose(float *out, const float *in, unsigned side) {
  __shared__ float tile[32][33];
  unsigned tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  unsigned tilesPerSide = side / 32;
  for (unsigned t = blockIdx.x; t < tilesPerSide * tilesPerSide; t += gridDim.x) {
    unsigned bx = t % tilesPerSide * 32, by = t / tilesPerSide * 32;
    for (unsigned j = ty; j < 32; j += blockDim.x / 32)
      tile[j][tx] = in[(by + j) * side + bx + tx];
    __syncthreads();
    for (unsigned j = ty; j < 32; j += blockDim.x / 32)
      out[(bx + j) * side + by + tx] = tile[tx][j];
    __syncthreads();
  }
}

__device__ void histogram(unsigned *bins, const unsigned char *data, size_t n) {
  __shared__ unsigned local[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  GridStride grid;
  for (size_t i = grid.first; i < n; i += grid.stride)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

/// Inclusive scan of each 256-element block (Hillis-Steele).
__device__ void blockScan(float *out, const float *in, size_t n) {
  __shared__ float buffer[2][256];
  unsigned t = threadIdx.x % 256;
  for (size_t base = blockIdx.x * size_t(256); base < n; base += size_t(gridDim.x) * 256) {
    int current = 0;
    buffer[0][t] = base + t < n ? in[base + t] : 0.0f;
    __syncthreads();
    for (unsigned offset = 1; offset < 256; offset *= 2) {
      buffer[1 - current][t] = buffer[current][t] + (t >= offset ? buffer[current][t - offset] : 0.0f);
      current = 1 - current;
      __syncthreads();
    }
    if (base + t < n)
      out[base + t] = buffer[current][t];
    __syncthreads();
  }
}

/// y = A x for a synthetic sparse A: row i has (i % 32) + 1 non-zeros at
/// hashed columns, so the inner trip count varies by row.
__device__ void sparseMatrixVector(float *y, const float *x, size_t rows) {
  GridStride grid;
  for (size_t row = grid.first; row < rows; row += grid.stride) {
    float sum = 0;
    unsigned nonZeros = static_cast<unsigned>(row % 32) + 1;
    for (unsigned k = 0; k < nonZeros; ++k)
      sum += x[hashIndex(row * 32 + k) % rows] * (1.0f / nonZeros);
    y[row] = sum;
  }
}

/// Pairwise forces within tiles of 256 bodies (x, y, z, mass as float4).
__device__ void nbody(float4 *accel, const float4 *bodies, size_t count) {
  __shared__ float4 tile[256];
  GridStride grid;
  for (size_t i = grid.first; i < count; i += grid.stride) {
    float4 me = bodies[i];
    float3 a = {0, 0, 0};
    for (size_t base = 0; base < count && base < 4096; base += 256) {
      tile[threadIdx.x % 256] = bodies[(base + threadIdx.x % 256) % count];
      __syncthreads();
      for (unsigned j = 0; j < 256; ++j) {
        float dx = tile[j].x - me.x, dy = tile[j].y - me.y, dz = tile[j].z - me.z;
        float inverse = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
        float s = tile[j].w * inverse * inverse * inverse;
        a.x += dx * s;
        a.y += dy * s;
        a.z += dz * s;
      }
      __syncthreads();
    }
    accel[i] = make_float4(a.x, a.y, a.z, 0);
  }
}

__device__ void blackScholes(float *calls, const float *prices, size_t n) {
  GridStride grid;
  for (size_t i = grid.first; i < n; i += grid.stride) {
    float s = fabsf(prices[i]) + 1.0f, k = 100.0f, t = 0.5f, v = 0.3f, rate = 0.02f;
    float d1 = (logf(s / k) + (rate + 0.5f * v * v) * t) / (v * sqrtf(t));
    float d2 = d1 - v * sqrtf(t);
    calls[i] = s * normcdff(d1) - k * expf(-rate * t) * normcdff(d2);
  }
}

/// 1-D convolution with a radius-8 box filter; the tap loop is left rolled.
__device__ void convolution(float *out, const float *in, size_t n) {
  GridStride grid;
  for (size_t i = grid.first; i < n; i += grid.stride) {
    float sum = 0;
#pragma unroll 1
    for (int tap = -8; tap <= 8; ++tap)
      sum += in[(i + n + tap) % n];
    out[i] = sum / 17.0f;
  }
}

/// y = A x, one row per thread, A square.
__device__ void matrixVector(float *y, const float *a, unsigned side) {
  GridStride grid;
  for (size_t row = grid.first; row < side; row += grid.stride) {
    float sum = 0;
    for (unsigned col = 0; col < side; ++col)
      sum += a[row * side + col] * a[col];
    y[row] = sum;
  }
}

} // namespace microbenchmarks
