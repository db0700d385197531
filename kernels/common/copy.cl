// The yardstick for every results table: a plain copy moves each byte once in and once out,
// the least any image-to-image filter can do, so its bandwidth is the speed limit to compare with.
// Sixteen bytes a work-item whatever the pixel: four floats, sixteen 8-bit levels or eight halves
// (copied as their 16 bits: a copy needs no half arithmetic, nor cl_khr_fp16). A narrower access
// a work-item would measure the access, not the memory: on an H100, four 8-bit levels a
// work-item copy about 850 GB/s where sixteen reach the float copy's speed.
__kernel void copy_float4(__global const float4* input, __global float4* output, const int count) {
  const int i = (int)get_global_id(0);
  if (i < count) output[i] = input[i];
}

__kernel void copy_uchar16(__global const uchar16* input, __global uchar16* output, const int count) {
  const int i = (int)get_global_id(0);
  if (i < count) output[i] = input[i];
}

__kernel void copy_ushort8(__global const ushort8* input, __global ushort8* output, const int count) {
  const int i = (int)get_global_id(0);
  if (i < count) output[i] = input[i];
}
