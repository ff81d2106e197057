// polynomial.cu - a compute-bound contrast: each thread evaluates a degree-64 polynomial
// by Horner's rule on one loaded value, 64 dependent multiply-adds per load.
// polynomial.ptx beside it is `nvcc -arch=compute_80 -lineinfo -ptx polynomial.cu -o polynomial.ptx` (CUDA 13.0).
extern "C" __global__ void polynomial(const float *x, float *y, const float *coefficients, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float value = x[i], sum = 0.0f;
  for (int k = 0; k < 64; ++k)
    sum = sum * value + coefficients[k];
  y[i] = sum;
}
