// The third yardstick of the roofline: how many loads a second the device makes from local
// memory when nothing else waits, in floats (local_load_float) and in float4s (local_load_float4).
// A kernel whose taps come from a local tile (lesson 12's single passes) can go no faster than
// its local loads at this rate, whatever its bytes and its multiply-adds.
// - Each work-item runs CHAINS independent chains (independent, so that many loads are in flight)
//   for `rounds` rounds. A chain's next address is the value it just loaded: the compiler can
//   neither fold nor hoist a load, and every round reads a different word.
// - The tile holds SLOTS words a work-item; word i holds the index of word i + the group's size
//   (its bits, as a float). Work-item l starts chain c at word l + c * size, so the work-items of
//   a group read consecutive words every round: no two lanes of a warp hit one bank.
// - Only one result a work-item is stored, which keeps the compiler from deleting the loads.
// Launch groups of at most 64 work-items; `step` is the group's size (passed, not computed from
// get_local_size, so that the tile's contents are unknown when the kernel is compiled).
#define CHAINS 8
#define SLOTS 16  // above CHAINS: a chain never meets another's word in the same round

// Word i of a tile: the index of word i + step, wrapping at the tile's step * SLOTS words.
#define NEXT(i, step) as_float((uint)(((i) + (step)) % ((step)*SLOTS)))

// Work-item l's chains start at words l, l + step, l + 2 step, ...
static inline void start_chains(uint* at, const int l, const int step) {
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) at[c] = l + c * step;
}

// The one store that keeps every chain's loads alive.
static inline void store_chains(__global float* output, const uint* at) {
  uint sum = 0;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) sum += at[c];
  output[get_global_id(0)] = (float)sum;
}

__kernel void local_load_float(__global float* output, const int rounds, const int step) {
  __local float tile[64 * SLOTS];
  const int l = get_local_id(0);
  for (int i = l; i < step * SLOTS; i += step) tile[i] = NEXT(i, step);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint at[CHAINS];
  start_chains(at, l, step);
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) at[c] = as_uint(tile[at[c]]);
  }
  store_chains(output, at);
}

// The same with 16-byte loads: word i's x holds the next index, y, z and w hold zero bits, and
// all four are combined into the next address, so the compiler must load the whole float4.
__kernel void local_load_float4(__global float* output, const int rounds, const int step) {
  __local float4 tile[64 * SLOTS];
  const int l = get_local_id(0);
  for (int i = l; i < step * SLOTS; i += step) tile[i] = (float4)(NEXT(i, step), 0.0f, 0.0f, 0.0f);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint at[CHAINS];
  start_chains(at, l, step);
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) {
      const uint4 v = as_uint4(tile[at[c]]);
      at[c] = v.x | v.y | v.z | v.w;
    }
  }
  store_chains(output, at);
}
