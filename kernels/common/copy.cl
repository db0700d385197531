// The yardstick for every results table: a plain copy moves each byte once in and once out,
// the least any image-to-image filter can do, so its bandwidth is the speed limit to compare with.
// Four pixels a work-item, as the lessons' vector kernels move them: floats, 8-bit levels or
// halves (copied as their 16 bits: a copy needs no half arithmetic, nor cl_khr_fp16).
__kernel void copy_float4(__global const float4* input, __global float4* output, const int count) {
  const int i = (int)get_global_id(0);
  if (i < count) output[i] = input[i];
}

__kernel void copy_uchar4(__global const uchar4* input, __global uchar4* output, const int count) {
  const int i = (int)get_global_id(0);
  if (i < count) output[i] = input[i];
}

__kernel void copy_ushort4(__global const ushort4* input, __global ushort4* output, const int count) {
  const int i = (int)get_global_id(0);
  if (i < count) output[i] = input[i];
}
