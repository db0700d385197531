// The yardstick for every results table: a plain copy moves each byte once in and once out,
// the least any image-to-image filter can do, so its bandwidth is the speed limit to compare with.
__kernel void copy_float4(__global const float4* input, __global float4* output, const int count) {
  const int i = (int)get_global_id(0);
  if (i < count) output[i] = input[i];
}
