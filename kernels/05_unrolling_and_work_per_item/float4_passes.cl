// Lesson 05: the two passes laid out for a GPU. vector_passes.cl gives each work-item 8
// neighbouring outputs, which suits a CPU (one AVX register) but puts the lanes of a GPU's warp
// 32 bytes apart in every load and store instruction, each load an unaligned vload8. Here each
// work-item owns one aligned float4 (4 neighbouring outputs, 16 bytes), and neighbouring
// work-items own neighbouring float4s: one load instruction of a 32-wide warp reads 512
// consecutive bytes, 16 whole 32-byte sectors, as single 128-bit loads.
//
// Built with -D ALIGNED_ROWS=1 (the host does so when the width is a multiple of 4, so that
// every row starts on a 16-byte boundary) the loads and stores are float4 pointer accesses, which
// the compiler may turn into 128-bit instructions; otherwise vload4 and vstore4, which accept
// any float address and are correct for every width.
#ifndef RADIUS
#error "build with -D RADIUS=<radius> -D STEPS=<rows per work-item> -D ALIGNED_ROWS=<0 or 1>"
#endif
// The row pass loads CHUNKS float4s on each side of its own: enough to cover RADIUS pixels.
#define CHUNKS ((RADIUS + 3) / 4)
#if ALIGNED_ROWS
#define LOAD4(p) (*(__global const float4*)(p))
#define STORE4(v, p) (*(__global float4*)(p) = (v))
#else
#define LOAD4(p) vload4(0, p)
#define STORE4(v, p) vstore4(v, 0, p)
#endif

// Pixels x .. x + 3 of a row: one float4 load inside the row, lane by lane with the column
// clamped at its edges (the clamp-to-edge border).
inline float4 load4_clamped(__global const float* row, const int x, const int width) {
  if (x >= 0 && x + 4 <= width) return LOAD4(row + x);
  return (float4)(row[clamp(x, 0, width - 1)], row[clamp(x + 1, 0, width - 1)], row[clamp(x + 2, 0, width - 1)],
                  row[clamp(x + 3, 0, width - 1)]);
}

// Stores the lanes that fall inside the row.
inline void store4_inside(const float4 v, __global float* row, const int x, const int width) {
  if (x + 4 <= width) {
    STORE4(v, row + x);
    return;
  }
  if (x < width) row[x] = v.s0;
  if (x + 1 < width) row[x + 1] = v.s1;
  if (x + 2 < width) row[x + 2] = v.s2;
}

__kernel void row_pass_float4(__global const float* input, __global float* output, __constant float* weights,
                              const int width, const int height) {
  const int x0 = get_global_id(0) * 4;
  const int y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  __global const float* row = input + y * width;
  // The window x0 - 4 CHUNKS .. x0 + 3 + 4 CHUNKS, as 2 CHUNKS + 1 aligned float4 loads. With every
  // index a constant after unrolling, the array lives in registers.
  float window[4 * (2 * CHUNKS + 1)];
#pragma unroll
  for (int c = 0; c <= 2 * CHUNKS; ++c) {
    const float4 v = load4_clamped(row, x0 + 4 * (c - CHUNKS), width);
    window[4 * c] = v.s0, window[4 * c + 1] = v.s1, window[4 * c + 2] = v.s2, window[4 * c + 3] = v.s3;
  }
  float4 sum = (float4)(0.0f);
#pragma unroll
  for (int k = 0; k <= 2 * RADIUS; ++k) {
    const int i = 4 * CHUNKS - RADIUS + k;  // where output x0's k-th input sits in the window
    sum += weights[k] * (float4)(window[i], window[i + 1], window[i + 2], window[i + 3]);
  }
  store4_inside(sum, output + y * width, x0, width);
}

__kernel void column_pass_float4(__global const float* input, __global float* output, __constant float* weights,
                                 const int width, const int height) {
  const int x0 = get_global_id(0) * 4;
  const int y0 = get_global_id(1) * STEPS;
  if (x0 >= width || y0 >= height) return;
  float4 sums[STEPS];
#pragma unroll
  for (int s = 0; s < STEPS; ++s) sums[s] = (float4)(0.0f);
    // Input row i of the window feeds output s with weight i - s: each row is loaded once.
#pragma unroll
  for (int i = 0; i < STEPS + 2 * RADIUS; ++i) {
    const float4 v = load4_clamped(input + clamp(y0 - RADIUS + i, 0, height - 1) * width, x0, width);
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
      if (i - s >= 0 && i - s <= 2 * RADIUS) sums[s] += weights[i - s] * v;
  }
#pragma unroll
  for (int s = 0; s < STEPS; ++s)
    if (y0 + s < height) store4_inside(sums[s], output + (y0 + s) * width, x0, width);
}
