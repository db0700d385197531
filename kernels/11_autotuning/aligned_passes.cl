// Lesson 11: the two separable passes with loads the hardware can take whole. Lesson 05's
// vector_passes loads with vloadN from a float pointer: OpenCL promises only 4-byte alignment
// there, and the row pass's loads start at every offset x0 - R + k, so a GPU compiler splits
// each into single floats. Here every load is a float4 from a float4 pointer, aligned to 16
// bytes: the row pass loads the aligned float4s that cover its window once, into registers, and
// filters from there; the column pass loads one float4 per row. Neighbouring work-items read
// neighbouring 16-byte pieces, so each load instruction of a SIMD group covers whole lines.
// A work-item computes VEC (4 or 8) neighbouring outputs of a row, and in the column pass
// STEPS rows of them. Rows start 16-byte aligned only when the width is a multiple of 4: the
// host then defines ALIGNED_ROWS; otherwise, and at the image's edges, the loads are single
// clamped floats.
#ifndef RADIUS
#error "build with -D RADIUS=<radius> -D STEPS=<rows per work-item> -D VEC=<4 or 8>"
#endif
#if VEC % 4 != 0
#error "VEC must be a multiple of 4"
#endif
#define QUADS (VEC / 4)                // float4s of output per work-item
#define HALO_QUADS ((RADIUS + 3) / 4)  // float4s of halo on each side
#define WINDOW_QUADS (QUADS + 2 * HALO_QUADS)
#define SKIP (4 * HALO_QUADS - RADIUS)  // window floats before the first tap of output 0

__kernel void row_pass_aligned(__global const float* input, __global float* output, __constant float* weights,
                               const int width, const int height) {
  const int x0 = get_global_id(0) * VEC;
  const int y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  __global const float* row = input + y * width;
  float window[4 * WINDOW_QUADS];
  const int first = x0 - 4 * HALO_QUADS;  // a multiple of 4
#ifdef ALIGNED_ROWS
  if (first >= 0 && first + 4 * WINDOW_QUADS <= width) {
    __global const float4* quads = (__global const float4*)(row + first);
#pragma unroll
    for (int q = 0; q < WINDOW_QUADS; ++q) vstore4(quads[q], q, window);
  } else
#endif
  {
    for (int i = 0; i < 4 * WINDOW_QUADS; ++i) window[i] = row[clamp(first + i, 0, width - 1)];
  }
  float sums[VEC];
#pragma unroll
  for (int o = 0; o < VEC; ++o) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * RADIUS; ++k) sum += weights[k] * window[SKIP + o + k];
    sums[o] = sum;
  }
  __global float* out = output + y * width;
#ifdef ALIGNED_ROWS
  if (x0 + VEC <= width) {
#pragma unroll
    for (int q = 0; q < QUADS; ++q) ((__global float4*)(out + x0))[q] = vload4(q, sums);
    return;
  }
#endif
  for (int o = 0; o < VEC && x0 + o < width; ++o) out[x0 + o] = sums[o];
}

// One row's VEC pixels from x0 on: float4 loads inside an aligned row, clamped floats elsewhere.
inline void load_run(__global const float* row, const int x0, const int width, float* lanes) {
#ifdef ALIGNED_ROWS
  if (x0 + VEC <= width) {
#pragma unroll
    for (int q = 0; q < QUADS; ++q) vstore4(((__global const float4*)(row + x0))[q], q, lanes);
    return;
  }
#endif
  for (int i = 0; i < VEC; ++i) lanes[i] = row[min(x0 + i, width - 1)];
}

__kernel void column_pass_aligned(__global const float* input, __global float* output, __constant float* weights,
                                  const int width, const int height) {
  const int x0 = get_global_id(0) * VEC;
  const int y0 = get_global_id(1) * STEPS;
  if (x0 >= width || y0 >= height) return;
  float sums[STEPS][VEC];
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
#pragma unroll
    for (int o = 0; o < VEC; ++o) sums[s][o] = 0.0f;
  }
  // Input row i of the window feeds output row s with weight i - s: each row is loaded once.
#pragma unroll
  for (int i = 0; i < STEPS + 2 * RADIUS; ++i) {
    float v[VEC];
    load_run(input + clamp(y0 - RADIUS + i, 0, height - 1) * width, x0, width, v);
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
      if (i - s >= 0 && i - s <= 2 * RADIUS)
#pragma unroll
        for (int o = 0; o < VEC; ++o) sums[s][o] += weights[i - s] * v[o];
  }
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    if (y0 + s >= height) break;
    __global float* out = output + (y0 + s) * width;
#ifdef ALIGNED_ROWS
    if (x0 + VEC <= width) {
#pragma unroll
      for (int q = 0; q < QUADS; ++q) ((__global float4*)(out + x0))[q] = vload4(q, sums[s]);
      continue;
    }
#endif
    for (int o = 0; o < VEC && x0 + o < width; ++o) out[x0 + o] = sums[s][o];
  }
}
