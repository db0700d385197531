// The second yardstick of the roofline: how many floating-point operations a second the device
// can do when nothing waits for memory. Each work-item runs CHAINS independent chains of float8
// multiply-adds (independent, so the pipelines stay full; float8, so a CPU fills its vector
// registers, while a GPU runs the eight lanes as eight more independent chains) for `rounds`
// rounds, touching memory only to store one result, which keeps the compiler from deleting it.
#define CHAINS 4

__kernel void fma_peak(__global float* output, const int rounds, const float a, const float b) {
  float8 acc[CHAINS];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) acc[c] = (float8)((float)get_global_id(0) * 1e-7f + c);
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) acc[c] = fma(acc[c], (float8)(a), (float8)(b));
  }
  float8 sum = (float8)(0.0f);
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) sum += acc[c];
  output[get_global_id(0)] = sum.s0 + sum.s1 + sum.s2 + sum.s3 + sum.s4 + sum.s5 + sum.s6 + sum.s7;
}
