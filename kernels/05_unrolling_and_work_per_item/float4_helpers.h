// Lesson 05: loads, stores and the row filter of one float4 (4 neighbouring pixels of a row), for
// the kernels laid out for a GPU (float4_passes.cl, single_pass_blocked.cl, blocked_2d.cl). Each
// work-item owns one aligned float4, and neighbouring work-items own neighbouring float4s.
//
// Built with -D ALIGNED_ROWS=1 (the host does so when the width is a multiple of 4, so that
// every row starts on a 4-pixel boundary) the loads and stores are whole aligned vectors, which
// the compiler may turn into single wide instructions; otherwise vload4 and vstore4, which accept
// any pixel address and are correct for every width.
//
// The pixels in memory are floats, or with -D PIXELS_U8 bytes (uchar: 0..255) or with
// -D PIXELS_F16 halves (16-bit floats, storage only: vload_half and vstore_half convert). The
// arithmetic is float in every case: a load widens 4 pixels to a float4 and a store rounds a
// float4 back, a byte to the nearest level (ties to even, as OpenCV's saturate_cast does) and
// saturated to 0..255, a half to the nearest half. Narrower pixels move fewer bytes for the
// same multiply-adds: the lever left to kernels that run at the copy's speed.
#if !defined(RADIUS) || !defined(ALIGNED_ROWS)
#error "build with -D RADIUS=<radius> -D ALIGNED_ROWS=<0 or 1>"
#endif
// The functions are `static inline`: a compiler that does not inline one (a large radius makes
// the row filter long) then still has its body. A plain `inline` function (C99) has none.
#if defined(PIXELS_U8)
typedef uchar pixel;
#define LOAD1(p) ((float)*(p))
#define STORE1(v, p) (*(p) = convert_uchar_sat_rte(v))
// With -D BYTES_BY_MAGIC (lesson 12's single_pass_magic rung) four bytes become floats without a
// conversion instruction: byte b put into the low mantissa bits of 2^23 (bits 0x4B000000) is the
// float 2^23 + b exactly, and one subtraction leaves b: integer logic and a float add instead of
// conversion instructions, which NVIDIA's throughput tables list at a fraction of their rate.
static inline float4 bytes_to_float4(const uchar4 b) {
  const uint w = as_uint(b);
  return as_float4((uint4)(w & 0xffu, (w >> 8) & 0xffu, (w >> 16) & 0xffu, w >> 24) | 0x4b000000u) - 8388608.0f;
}
#ifdef BYTES_BY_MAGIC
#define WIDEN4(b) bytes_to_float4(b)
#else
#define WIDEN4(b) convert_float4(b)
#endif
#if ALIGNED_ROWS
#define LOAD4(p) WIDEN4(*(__global const uchar4*)(p))
#define STORE4(v, p) (*(__global uchar4*)(p) = convert_uchar4_sat_rte(v))
#else
#define LOAD4(p) WIDEN4(vload4(0, p))
#define STORE4(v, p) vstore4(convert_uchar4_sat_rte(v), 0, p)
#endif
#elif defined(PIXELS_F16)
typedef half pixel;
#define LOAD1(p) vload_half(0, p)
#define STORE1(v, p) vstore_half_rte(v, 0, p)
#if ALIGNED_ROWS && defined(HALF_BITS)
// With -D HALF_BITS (lesson 12's single_pass_halfbits rung) four halves move as one 8-byte word:
// NVIDIA's OpenCL compiles vloada_half4 and vstorea_half4_rte into four 2-byte loads or stores
// (its PTX: ld.global.u16), so a warp's load of 8-byte vectors becomes four instructions. Here
// the word is loaded whole (ld.global.u64) and converted from a private copy, which stays in
// registers; a store converts into a private word and stores it whole.
static inline float4 load_half4_word(__global const half* p) {
  const uint2 bits = *(__global const uint2*)p;
  return vload_half4(0, (const __private half*)&bits);
}
static inline void store_half4_word(const float4 v, __global half* p) {
  uint2 bits;
  vstore_half4_rte(v, 0, (__private half*)&bits);
  *(__global uint2*)p = bits;
}
#define LOAD4(p) load_half4_word(p)
#define STORE4(v, p) store_half4_word(v, p)
#elif ALIGNED_ROWS
#define LOAD4(p) vloada_half4(0, p)
#define STORE4(v, p) vstorea_half4_rte(v, 0, p)
#else
#define LOAD4(p) vload_half4(0, p)
#define STORE4(v, p) vstore_half4_rte(v, 0, p)
#endif
#else
typedef float pixel;
#define LOAD1(p) (*(p))
#define STORE1(v, p) (*(p) = (v))
#if ALIGNED_ROWS
#define LOAD4(p) (*(__global const float4*)(p))
#define STORE4(v, p) (*(__global float4*)(p) = (v))
#else
#define LOAD4(p) vload4(0, p)
#define STORE4(v, p) vstore4(v, 0, p)
#endif
#endif

// Pixels x .. x + 3 of a row: one float4 load inside the row, lane by lane with the column
// clamped at its edges (the clamp-to-edge border).
static inline float4 load4_clamped(__global const pixel* row, const int x, const int width) {
  if (x >= 0 && x + 4 <= width) return LOAD4(row + x);
  return (float4)(LOAD1(row + clamp(x, 0, width - 1)), LOAD1(row + clamp(x + 1, 0, width - 1)),
                  LOAD1(row + clamp(x + 2, 0, width - 1)), LOAD1(row + clamp(x + 3, 0, width - 1)));
}

// Stores the lanes that fall inside the row.
static inline void store4_inside(const float4 v, __global pixel* row, const int x, const int width) {
  if (x + 4 <= width) {
    STORE4(v, row + x);
    return;
  }
  if (x < width) STORE1(v.s0, row + x);
  if (x + 1 < width) STORE1(v.s1, row + x + 1);
  if (x + 2 < width) STORE1(v.s2, row + x + 2);
}

// The row filter for the 4 outputs x0 .. x0 + 3 (x0 a multiple of 4). Its window x0 - R .. x0 + 3 + R
// lies inside the 2 CHUNKS + 1 aligned float4s around its own, which it loads once (neighbouring
// work-items load them too, from the cache) and picks each tap's four inputs from in registers:
// every load is a whole aligned float4, none starts at x0 - R + k.
#define CHUNKS ((RADIUS + 3) / 4)
#define CHUNKS_INSIDE(x0, width) ((x0) >= 4 * CHUNKS && (x0) + 4 + 4 * CHUNKS <= (width))

// Puts float4 number c of a window in place: with c a constant, four register moves.
static inline void put4(float* window, const int c, const float4 v) {
  window[4 * c] = v.s0, window[4 * c + 1] = v.s1, window[4 * c + 2] = v.s2, window[4 * c + 3] = v.s3;
}

// The taps on a window of 2 CHUNKS + 1 float4s, the first at x0 - 4 CHUNKS. With every index a
// constant after unrolling, the window lives in registers.
static inline float4 taps4(const float* window, __constant float* weights) {
  float4 sum = (float4)(0.0f);
#pragma unroll
  for (int k = 0; k <= 2 * RADIUS; ++k) {
    const int i = 4 * CHUNKS - RADIUS + k;  // where output x0's k-th input sits in the window
    sum += weights[k] * (float4)(window[i], window[i + 1], window[i + 2], window[i + 3]);
  }
  return sum;
}

// The row filter where CHUNKS_INSIDE(x0, width) holds: no load needs a check, so a kernel that
// filters several rows can issue their loads together.
static inline float4 filter_row4_inside(__global const pixel* row, const int x0, __constant float* weights) {
  float window[4 * (2 * CHUNKS + 1)];
#pragma unroll
  for (int c = 0; c <= 2 * CHUNKS; ++c) put4(window, c, LOAD4(row + x0 + 4 * (c - CHUNKS)));
  return taps4(window, weights);
}

// The row filter anywhere: near the row's ends the float4s outside it are clamped lane by lane.
static inline float4 filter_row4(__global const pixel* row, const int x0, const int width, __constant float* weights) {
  float window[4 * (2 * CHUNKS + 1)];
#pragma unroll
  for (int c = 0; c <= 2 * CHUNKS; ++c) put4(window, c, load4_clamped(row, x0 + 4 * (c - CHUNKS), width));
  return taps4(window, weights);
}
