// Lesson 07, the sub-group rung: the row filter of row_filter.cl with its sliding window passed
// between the registers of a sub-group (sub_group_shuffle) instead of through local memory. It
// needs sub-groups (cl_khr_subgroups, or OpenCL C 3.0's __opencl_c_subgroups) and
// cl_khr_subgroup_shuffle; the host builds it only on devices that list both. (No #pragma
// OPENCL EXTENSION: these extensions' built-ins need none, and older compilers warn about it.)
// requires: cl_khr_subgroup_shuffle
#if !defined(cl_khr_subgroup_shuffle) || !(defined(cl_khr_subgroups) || defined(__opencl_c_subgroups))
#error "row_filter_shuffle.cl needs sub-groups and cl_khr_subgroup_shuffle, which this device or -cl-std does not offer"
#endif

// A sub-group of S work-items (lanes) owns S neighbouring output pixels of one row, and its
// window over the input is S + 2R pixels: R left of its first pixel to R right of its last.
// Element e of the window is in a register of one lane: each lane loads two, the `near` pixel
// (element lane) and the `far` one (element lane + S), the same two loads per work-item as
// lesson 04's local-memory row pass, so that the S lanes hold elements 0 .. 2S-1. Lane l's tap k
// needs element l + k: lane (l + k)'s near value while l + k < S, lane (l + k - S)'s far value
// after that. So the lanes at the sub-group's right edge get their neighbours from the far
// registers (the halo), and no lane needs a value outside its sub-group. Only when S < 2R (tiny
// sub-groups, wide filters) do elements from 2S on lie in no register: those come from global
// memory.
//
// Which work-items form a sub-group is the implementation's choice, so a lane takes the pixel
// its sub-group ids name (group, sub-group, lane), not get_global_id(0): the S lanes then cover S
// neighbouring pixels whatever work-items the device put together. Every sub-group but possibly
// the last of a work-group has get_max_sub_group_size() lanes; the last has what is left of the
// group. The kernel counts that itself rather than ask get_sub_group_size(), which Mesa 25.0's
// rusticl answers with the full size for a last sub-group that is smaller.
__kernel void row_filter_shuffle(__global const float* input, __global float* output, __constant float* weights,
                                 const int width, const int height) {
  const int lane = (int)get_sub_group_local_id();
  const int full = (int)get_max_sub_group_size(), group = (int)get_local_size(0);
  const int first_in_group = (int)get_sub_group_id() * full;
  const int lanes = min(full, group - first_in_group);
  const int first = (int)get_group_id(0) * group + first_in_group;
  const int y = (int)get_global_id(1);  // the NDRange has height rows, one per work-group row
  const __global float* row = input + y * width;
  const int window = first - RADIUS;  // x of element 0
  // Lanes past the right edge load (clamped) pixels too, and take part in every shuffle: a
  // shuffle needs every lane of the sub-group, and their neighbours need their values.
  const float near = row[clamp(window + lane, 0, width - 1)];
  const float far = row[clamp(window + lanes + lane, 0, width - 1)];
  float sum = 0.0f;
  for (int k = 0; k <= 2 * RADIUS; ++k) {
    const int e = lane + k;
    // Both shuffles, by every lane, each with an index inside the sub-group; then each lane
    // keeps the one that holds its element.
    const float from_near = sub_group_shuffle(near, (uint)min(e, lanes - 1));
    const float from_far = sub_group_shuffle(far, (uint)clamp(e - lanes, 0, lanes - 1));
    const float v = e < lanes ? from_near : e < 2 * lanes ? from_far : row[clamp(window + e, 0, width - 1)];
    sum += weights[k] * v;
  }
  const int x = first + lane;
  if (x >= width) return;  // only now: every lane had to take part in the shuffles
  output[y * width + x] = sum;
}
