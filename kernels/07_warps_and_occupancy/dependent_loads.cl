// Lesson 07: latency hiding and occupancy. Each work-item walks through memory with loads that
// depend on each other, doing ARITH multiply-adds on every value before the next load, like the
// thesis's model kernel (a load, then a few arithmetic instructions, then the next load).
//
// A single work-item cannot overlap its loads: the next address needs this load's value. The
// only way the device keeps its memory busy is to switch to other work-items (warps) while one
// waits, so throughput grows with the work-items resident per compute unit until either memory
// bandwidth or the arithmetic units saturate.

// Built with -D RECORD_RESIDENCY (NVIDIA GPUs only), the kernel takes one more argument, and
// each work-group records which compute unit ran it and when it started and ended: %smid (the
// SM a warp runs on) and %globaltimer (a nanosecond clock shared by all SMs) are PTX special
// registers, read through inline PTX, which NVIDIA's OpenCL compiler accepts. The host counts
// how many groups overlapped in time on one SM: the residency the occupancy formula predicts.
// Other devices have no portable way to say where a work-group ran.
#ifndef LOADS_IN_FLIGHT
#define LOADS_IN_FLIGHT 1
#endif
#ifdef RECORD_RESIDENCY
#define RESIDENCY_ARGS , __global ulong *records
#define READ_CLOCK(t) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t))
#else
#define RESIDENCY_ARGS
#endif

__kernel void dependent_loads(__global const float* data, __global float* sums, const int loads_per_item,
                              __local float* reserved, const int reserved_floats RESIDENCY_ARGS) {
#ifdef RECORD_RESIDENCY
  ulong start;
  READ_CLOCK(start);
#endif
  // The host reserves local memory per work-group through this argument; the occupancy sweep
  // grows it so that fewer work-groups fit on a compute unit at once.
  POISON_LOCAL(reserved, reserved_floats);
  const int item = (int)get_global_id(0);
  const int items = (int)get_global_size(0);
  int index = item;
  float sum = 0.0f;
  int load = 0;
#if LOADS_IN_FLIGHT > 1
  // -D LOADS_IN_FLIGHT=N: N loads issued before the first is used (instruction-level
  // parallelism). They read the same addresses in the same order as N single steps, so the sum
  // is the same; only the next group of loads waits, for all N values.
  for (; load + LOADS_IN_FLIGHT <= loads_per_item; load += LOADS_IN_FLIGHT) {
    float v[LOADS_IN_FLIGHT];
#pragma unroll
    for (int c = 0; c < LOADS_IN_FLIGHT; ++c) v[c] = data[index + c * items];
    int step = 0;
#pragma unroll
    for (int c = 0; c < LOADS_IN_FLIGHT; ++c) {
#pragma unroll
      for (int k = 0; k < ARITH; ++k) v[c] = fma(v[c], 0.5f, 0.25f);
      sum += v[c];
      step += (int)v[c];
    }
    index += LOADS_IN_FLIGHT * items + step;
  }
#endif
  for (; load < loads_per_item; ++load) {
    float v = data[index];
#pragma unroll
    for (int k = 0; k < ARITH; ++k) v = fma(v, 0.5f, 0.25f);  // stays in [0.25, 0.75)
    sum += v;
    // Neighbouring work-items read neighbouring floats (coalesced). (int)v is 0 because v < 1,
    // but the compiler cannot know that: the next address waits for this load and its arithmetic.
    index += items + (int)v;
  }
  // Use the reserved memory (the host makes it at least one float per work-item), so the
  // compiler cannot drop it; the barrier orders the store before the load.
  const int slot = (int)get_local_id(0);
  reserved[slot] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  sums[item] = reserved[slot];
#ifdef RECORD_RESIDENCY
  // Every work-item is done once all have passed this barrier: work-item 0 takes the end time.
  barrier(CLK_LOCAL_MEM_FENCE);
  if (slot == 0) {
    uint sm;
    ulong end;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    READ_CLOCK(end);
    records[3 * get_group_id(0)] = sm;
    records[3 * get_group_id(0) + 1] = start;
    records[3 * get_group_id(0) + 2] = end;
  }
#endif
}
