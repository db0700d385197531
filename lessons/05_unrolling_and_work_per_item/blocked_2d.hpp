/// @file blocked_2d.hpp
/// @brief Lesson 05's register-blocked 2D correlation (kernels/05_.../blocked_2d.cl): its block
/// shape, how to build and launch it. Lesson 05, lesson 11's search (which also judges a block's
/// legality) and the tests share these, so the kernel's -D values and NDRange are written once.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "course.hpp"

namespace course {

/// @brief What a work-item and a work-group of blocked_2d.cl cover.
struct Block2D {
  int float4s = 1;           ///< Aligned float4s of a row per work-item (4 columns each): 1 to 4.
  int strip = 128;           ///< Rows a work-item walks down.
  std::size_t group_x = 64;  ///< Work-items of a group along a row.
  std::size_t group_y = 1;   ///< Work-items of a group down a column (strips one above the other).
  int max_registers = 0;     ///< NVIDIA only: -cl-nv-maxrregcount (lesson 11 searches it); 0: the compiler's choice.
};

/// @brief The shipped block: on a GPU two float4s and 128-row strips in 64x1 groups; on a CPU
/// device (a group runs as a loop on one core) one float4, 32-row strips, 16x1 groups.
Block2D default_block_2d(const DeviceContext& dc);

/// @brief Builds blocked_2d.cl for `radius` and `block` (rows aligned to 16 bytes when the width
/// is a multiple of 4); `extra` goes on the build options (the tests' -D COURSE_POISON_LOCAL).
/// Arguments are lesson 05's: input, output, the (2R+1)^2 weights, width, height.
cl::Kernel build_blocked_2d(const DeviceContext& dc, int radius, const Block2D& block, int width,
                            const std::string& extra = "", BuildStats* stats = nullptr);

/// @brief " -D WEIGHT_LIST=w0,w1,...": `weights_2d` as float literals in the program's text, nine
/// significant digits each (enough to give back every float exactly). blocked_2d.cl (the rung
/// blocked_2d_literal) and unrolled_2d.cl (literal_weights_2d) then never load a weight.
std::string literal_weights_define(const std::vector<float>& weights_2d);

/// @brief Launches a built blocked_2d on a `width` x `height` image: a work-item per 4 x float4s columns and strip.
cl::Event launch_blocked_2d(const DeviceContext& dc, cl::Kernel& kernel, const Block2D& block, int width, int height);

}  // namespace course
