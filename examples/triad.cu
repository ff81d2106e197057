// triad.cu - the second bundled example: the STREAM triad a[i] = b[i] + s*c[i] over a
// grid-stride loop. Two loads and a store per multiply-add: memory-bound on every GPU.
// triad.ptx beside it is `nvcc -arch=compute_80 -lineinfo -ptx triad.cu -o triad.ptx` (CUDA 13.0).
extern "C" __global__ void triad(float *a, const float *b, const float *c, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = b[i] + s * c[i];
}
