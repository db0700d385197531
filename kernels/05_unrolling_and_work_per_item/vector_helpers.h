// Lesson 05: vector types of VEC floats (8 by default), and loads and stores that clamp at the
// image's left and right edges. Included by the vector kernels of this folder.
#ifndef VEC
#define VEC 8
#endif
#define CONCAT_(a, b) a##b
#define CONCAT(a, b) CONCAT_(a, b)
#define floatv CONCAT(float, VEC)
#define vloadv CONCAT(vload, VEC)
#define vstorev CONCAT(vstore, VEC)

// VEC pixels of one row starting at x. Inside the row this is one vector load; near an edge the
// lanes are fetched one by one with their x clamped, which is the clamp-to-edge border.
inline floatv load_clamped(__global const float* row, const int x, const int width) {
  if (x >= 0 && x + VEC <= width) return vloadv(0, row + x);
  float lanes[VEC];
  for (int i = 0; i < VEC; ++i) lanes[i] = row[clamp(x + i, 0, width - 1)];
  return vloadv(0, lanes);
}

// Stores the lanes that fall inside the row: a vector store, or lane by lane at the right edge.
inline void store_inside(const floatv value, __global float* row, const int x, const int width) {
  if (x + VEC <= width) {
    vstorev(value, 0, row + x);
    return;
  }
  float lanes[VEC];
  vstorev(value, 0, lanes);
  for (int i = 0; i < VEC && x + i < width; ++i) row[x + i] = lanes[i];
}

// The row filter for VEC neighbouring outputs starting at x0: 2R+1 overlapping vector loads,
// each multiplied by one weight. Away from the edges no load needs a clamp.
inline floatv filter_row(__global const float* row, const int x0, const int width, __constant float* weights) {
  floatv sum = (floatv)(0.0f);
  if (x0 - RADIUS >= 0 && x0 + VEC + RADIUS <= width) {
#pragma unroll
    for (int k = 0; k <= 2 * RADIUS; ++k) sum += weights[k] * vloadv(0, row + x0 - RADIUS + k);
  } else {
#pragma unroll
    for (int k = 0; k <= 2 * RADIUS; ++k) sum += weights[k] * load_clamped(row, x0 - RADIUS + k, width);
  }
  return sum;
}
