// saxpy.cu - the bundled example: y = a*x + y. saxpy.ptx beside it is
// `nvcc -arch=compute_80 -lineinfo -ptx saxpy.cu -o saxpy.ptx` (CUDA 13.0).
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
