// Exercise 07, part a: make a branch split only between SIMD groups (warps), not inside them.
//
// Element i of the image belongs to class i % WAYS, and each class gets its own tone curve. The
// obvious kernel gives work-item i element i, so the work-items of one SIMD group need WAYS
// different curves and the group runs them one after another with lanes masked off. Re-deal the
// elements so that every SIMD group of WARP work-items handles a single class; the output must
// not change. WAYS, WARP and STEPS come from the host as -D options.

float apply_curve(float v, const int curve) {
  const float pull = 0.25f * (float)(curve + 1);
  for (int step = 0; step < STEPS; ++step) v = fma(v, 0.96875f, pull);
  return v;
}

float apply_class_curve(float v, const int curve) {
  for (int k = 0; k < WAYS; ++k)
    if (curve == k) v = apply_curve(v, k);
  return v;
}

// The host launches a multiple of WARP * WAYS work-items (and of the work-group size, itself a
// multiple of WARP), at least as many as there are elements. `curve_taken` records the class each
// work-item ran, so the check can see whether a SIMD group split.
__kernel void branch_between_warps(__global const float* input, __global float* output, const int count,
                                   __global float* curve_taken) {
  const int i = (int)get_global_id(0);
  /* >>> GAP 1: the class this work-item runs: the same for all WARP work-items of its group. */
  const int curve = i % WAYS; /* replace: neighbouring work-items get different classes */
  /* <<< GAP 1 */
  /* >>> GAP 2: the element it handles: one of class `curve`, each element exactly once. */
  const int element = i; /* replace */
  /* <<< GAP 2 */
  curve_taken[i] = (float)curve;
  if (element >= count) return;
  output[element] = apply_class_curve(input[element], curve);
}
