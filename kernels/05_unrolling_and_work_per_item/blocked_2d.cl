// Lesson 05: the 2D correlation with registers as the tile (register blocking). unrolled_2d.cl
// loads (2R+1)^2 image values and as many weights for each output: one load per multiply-add, so
// the load units, not the FMA units, set its pace. Here a work-item owns FLOAT4S aligned float4s
// of a row (4 FLOAT4S neighbouring columns) and walks down STRIP rows of them. It loads each input
// row it meets once, as 2 CHUNKS + FLOAT4S aligned float4s (float4_helpers.h), and uses every
// loaded value for up to (2R+1) x (2R+1) multiply-adds: each input row feeds the 2R+1 output rows
// whose windows it lies in, each at the 2R+1 horizontal taps.
//
// The 2R+1 output rows in flight are a ring of accumulators in registers: sums[k] holds output
// row yi - R + k while input row yi is added, with weight row 2R - k. After the row, sums[0] is
// complete (its last input row was yi); it is stored and the ring moves up one place. Because
// the ring moves rather than the index, sums[k] always takes weight row 2R - k: every index is a
// constant after unrolling, and the sums stay in registers.
//
// The first 2R input rows of a strip only start sums of rows above it (another work-item's,
// thrown away): a taller STRIP wastes less, at the price of fewer work-items to fill the device.
// Built with -D RADIUS=<0..16> -D FLOAT4S=<float4s a work-item> -D STRIP=<rows> -D ALIGNED_ROWS=<0|1>.
//
// -D WEIGHT_LIST=w0,w1,... (the rung blocked_2d_literal) puts the (2R+1)^2 weights into the
// program as literals, as unrolled_2d.cl's literal_weights_2d does: every index below is a
// constant after unrolling, so each weight is a number the compiler knows, which it can fold into
// the multiply-add itself instead of loading it (the weights_2d argument is then not read).
#if !defined(FLOAT4S) || !defined(STRIP)
#error "build with -D RADIUS=<radius> -D FLOAT4S=<1 or 2> -D STRIP=<rows> -D ALIGNED_ROWS=<0 or 1>"
#endif
#include "float4_helpers.h"

#define TAPS (2 * RADIUS + 1)
#ifdef WEIGHT_LIST
__constant float literal_weights[TAPS * TAPS] = {WEIGHT_LIST};
#endif
#define SPAN (FLOAT4S + 2 * CHUNKS)  // the aligned float4s of a row a work-item loads

__kernel void blocked_2d(__global const float* input, __global float* output, __constant float* weights_2d,
                         const int width, const int height) {
  const int x0 = (int)get_global_id(0) * 4 * FLOAT4S;
  const int y0 = (int)get_global_id(1) * STRIP;
  if (x0 >= width || y0 >= height) return;
  const int y_end = min(y0 + STRIP, height);
  // The whole window in the row fast path: every float4 is inside the row, none needs a check.
  const bool inside = x0 >= 4 * CHUNKS && x0 + 4 * (FLOAT4S + CHUNKS) <= width;
  float4 sums[TAPS][FLOAT4S];
#pragma unroll
  for (int k = 0; k < TAPS; ++k)
#pragma unroll
    for (int f = 0; f < FLOAT4S; ++f) sums[k][f] = (float4)(0.0f);

  for (int yi = y0 - RADIUS; yi < y_end + RADIUS; ++yi) {
    __global const float* row = input + clamp(yi, 0, height - 1) * width;
    // The (2R+1)^2 weights are the same for every row, so a compiler moves their loads out of
    // this loop and keeps all of them in registers: 289 at R = 8, more than the 255 a work-item
    // may have on an H100 beside its 17 x 4 FLOAT4S sums: they cannot all stay. get_work_dim() is
    // 2 in every launch, but the compiler cannot know it: with the address depending on yi, each
    // row reads the weights again from the constant cache, a load per 4 FLOAT4S multiply-adds.
#ifdef WEIGHT_LIST
    __constant float* weights = literal_weights;
#else
    __constant float* weights = weights_2d + (get_work_dim() - 2) * yi;
#endif
    float window[4 * SPAN];
#pragma unroll
    for (int c = 0; c < SPAN; ++c) {
      const int x = x0 + 4 * (c - CHUNKS);
      put4(window, c, inside ? LOAD4(row + x) : load4_clamped(row, x, width));
    }
    // The row's share of every output row in flight: (2R+1)^2 x 4 FLOAT4S multiply-adds on the
    // 4 SPAN values just loaded.
#pragma unroll
    for (int k = 0; k < TAPS; ++k)
#pragma unroll
      for (int f = 0; f < FLOAT4S; ++f)
#pragma unroll
        for (int i = 0; i < TAPS; ++i) {
          const int at = 4 * (f + CHUNKS) - RADIUS + i;  // the first of output column i's inputs
          sums[k][f] += weights[(2 * RADIUS - k) * TAPS + i] *
                        (float4)(window[at], window[at + 1], window[at + 2], window[at + 3]);
        }
    // Output row yi - R has had its 2R+1 rows; inside the strip it is ours.
    const int yo = yi - RADIUS;
    if (yo >= y0) {
#pragma unroll
      for (int f = 0; f < FLOAT4S; ++f) store4_inside(sums[0][f], output + yo * width, x0 + 4 * f, width);
    }
#pragma unroll
    for (int k = 0; k < TAPS - 1; ++k)
#pragma unroll
      for (int f = 0; f < FLOAT4S; ++f) sums[k][f] = sums[k + 1][f];
#pragma unroll
    for (int f = 0; f < FLOAT4S; ++f) sums[TAPS - 1][f] = (float4)(0.0f);
  }
}
