// stream.cu - the post-build example: a STREAM triad launched over ELEMENTS floats.
#include <cstdio>

__global__ void triad(float *a, const float *b, const float *c, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = b[i] + s * c[i];
}

int main() {
  const int n = ELEMENTS;
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  triad<<<4096, 256>>>(a, b, c, 3.0f, n);
  cudaError_t status = cudaDeviceSynchronize();
  std::printf("triad: %s\n", cudaGetErrorString(status));
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return status == cudaSuccess ? 0 : 1;
}
