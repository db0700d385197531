// Lesson 07: the same work with a branch that splits inside every SIMD group (warp) and with
// one that splits only between SIMD groups.
//
// Every element of the image belongs to one of WAYS classes, class = index % WAYS (think of a
// Bayer mosaic, where the colour a pixel holds depends on its position), and each class gets its
// own tone curve. Both kernels give every element the same curve, so their outputs are equal.
//
// Compile-time constants: WAYS (classes, >= 1), WARP (work-items the hardware issues together,
// the device's SIMD width; since Volta NVIDIA does not promise they stay in step, docs/07),
// STEPS (arithmetic per curve: makes a branch costly).

// One tone curve: STEPS dependent multiply-adds pulling v towards 8 (curve + 1). A chain of
// dependent steps cannot be shortened by the compiler, so every branch taken costs STEPS.
float apply_curve(float v, const int curve) {
  const float pull = 0.25f * (float)(curve + 1);
  for (int step = 0; step < STEPS; ++step) v = fma(v, 0.96875f, pull);
  return v;
}

// The 2010 thesis's (docs/references.md) else-if chain: one test per class. A SIMD group executes a branch if ANY of its
// work-items takes it, with the others masked off; so a group whose work-items need k different
// classes pays for k curves.
float apply_class_curve(float v, const int curve) {
  for (int k = 0; k < WAYS; ++k)
    if (curve == k) v = apply_curve(v, k);
  return v;
}

// Work-item i handles element i: neighbouring work-items (the same SIMD group) have different
// classes, so every group runs min(WAYS, WARP) curves one after another.
__kernel void branch_inside_warp(__global const float* input, __global float* output, const int count) {
  const int i = (int)get_global_id(0);
  if (i >= count) return;
  output[i] = apply_class_curve(input[i], i % WAYS);
}

// The same work, re-dealt: consecutive blocks of WARP work-items all handle one class. A span of
// WARP * WAYS work-items covers WARP * WAYS elements; group g of the span takes class g, and its
// lane l takes the element of class g in column l of the span. Each SIMD group runs one curve.
// The price: the group's loads are WAYS elements apart instead of neighbours.
__kernel void branch_between_warps(__global const float* input, __global float* output, const int count) {
  const int i = (int)get_global_id(0);
  const int span = WARP * WAYS;
  const int position = i % span;
  const int curve = position / WARP;
  const int element = (i - position) + (position % WARP) * WAYS + curve;
  if (element >= count) return;
  output[element] = apply_class_curve(input[element], curve);
}
