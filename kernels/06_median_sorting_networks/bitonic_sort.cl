// Lesson 06: a full bitonic sort of the window in private memory. The WINDOW x WINDOW values are
// padded to PADDED, the next power of two (9 -> 16, 25 -> 32, 49 -> 64), with the largest value
// the pixel type holds, so the padding sorts to the end and the median stays at index AREA / 2.
// Built with -D WINDOW=K -D PADDED=N -D PIXEL=float|uchar -D PIXEL_MAX=INFINITY|255.
#define RADIUS (WINDOW / 2)
#define AREA (WINDOW * WINDOW)

__kernel void median_bitonic_sort(__global const PIXEL* input, __global PIXEL* output, const int width,
                                  const int height) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;

  PIXEL v[PADDED];
  int n = 0;
  for (int j = -RADIUS; j <= RADIUS; ++j) {
    const int row = clamp(y + j, 0, height - 1) * width;
    for (int i = -RADIUS; i <= RADIUS; ++i) v[n++] = input[row + clamp(x + i, 0, width - 1)];
  }
  for (int i = AREA; i < PADDED; ++i) v[i] = PIXEL_MAX;

    // Every loop bound is a compile-time constant and no comparison decides which code runs: the
    // same min/max sequence serves every pixel, so all SIMD lanes stay in step. Each pass merges
    // runs of `size` values that are sorted up, then down (bitonic), into sorted runs twice as long.
#pragma unroll
  for (int size = 2; size <= PADDED; size <<= 1) {
#pragma unroll
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
#pragma unroll
      for (int i = 0; i < PADDED; ++i) {
        const int partner = i ^ stride;
        if (partner > i) {
          const PIXEL a = v[i], b = v[partner];
          // Runs whose `size` bit is clear go up, the others down, so the next pass sees a
          // rising run followed by a falling one.
          const bool up = (i & size) == 0;
          v[i] = up ? min(a, b) : max(a, b);
          v[partner] = up ? max(a, b) : min(a, b);
        }
      }
    }
  }
  output[y * width + x] = v[AREA / 2];
}
