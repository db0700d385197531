// Lesson 07: residency measured, not assumed. The same work as dependent_loads.cl, with the same
// local memory reserved per work-group; besides, each work-group records which compute unit ran
// it and when it started and ended. The host then counts how many groups overlapped in time on
// one compute unit: the number the occupancy formula predicts.
//
// NVIDIA GPUs only: %smid (the SM a warp runs on) and %globaltimer (a nanosecond clock shared by
// all SMs) are PTX special registers, read through inline PTX, which NVIDIA's OpenCL compiler
// accepts. Other devices have no portable way to say where a work-group ran.

__kernel void record_residency(__global const float* data, __global float* sums, const int loads_per_item,
                               __local float* reserved, const int reserved_floats, __global ulong* records) {
  ulong start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  POISON_LOCAL(reserved, reserved_floats);
  const int item = (int)get_global_id(0);
  const int items = (int)get_global_size(0);
  int index = item;
  float sum = 0.0f;
  for (int load = 0; load < loads_per_item; ++load) {
    float v = data[index];
#pragma unroll
    for (int k = 0; k < ARITH; ++k) v = fma(v, 0.5f, 0.25f);
    sum += v;
    index += items + (int)v;
  }
  const int slot = (int)get_local_id(0);
  reserved[slot] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  sums[item] = reserved[slot];
  // Every work-item is done once all have passed this barrier: work-item 0 then takes the end time.
  barrier(CLK_LOCAL_MEM_FENCE);
  if (slot == 0) {
    uint sm;
    ulong end;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(end));
    const size_t group = get_group_id(0);
    records[3 * group] = sm;
    records[3 * group + 1] = start;
    records[3 * group + 2] = end;
  }
}
