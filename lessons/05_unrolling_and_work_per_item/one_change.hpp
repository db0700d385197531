/// @file one_change.hpp
/// @brief Lesson 05's rungs that change one thing about another rung, so that the table says
/// what that one thing is worth: the 2D kernel between naive_2d and unrolled_2d (the radius
/// compiled in, then the loops unrolled one at a time, then the weights as literals), and
/// single_pass_blocked with `restrict` pointers or a required work-group size.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "course.hpp"
#include "separable_host.hpp"

namespace course {

/// @brief The build options of unrolled_2d.cl for `variant`: radius_fixed_2d (both loops kept
/// loops), columns_unrolled_2d (the loop over a row's columns unrolled), unrolled_2d (both) or
/// literal_weights_2d (both, and `weights_2d` written into the program as literals).
std::string unrolled_2d_defines(const std::string& variant, int radius, const std::vector<float>& weights_2d);

/// @brief Whether `variant` is built from unrolled_2d.cl (the four names above).
bool is_unrolled_2d(const std::string& variant);

/// @brief Whether `variant` is single_pass_blocked or one of its two one-change rungs,
/// single_pass_restrict and single_pass_reqd.
bool is_single_pass_blocked(const std::string& variant);

/// @brief The rung `variant`'s speed-up is measured against, where that one ran too: the rung it
/// changes (a one-change rung's, or the kernel a GPU layout re-lays out); "" for the others,
/// which the table compares with its first row.
std::string compared_with(const std::string& variant);

/// @brief A built kernel and the function that launches it once, returning its event.
struct BlockedRung {
  cl::Kernel kernel;
  std::function<std::vector<cl::Event>()> enqueue;
  cl::NDRange group;
  std::size_t strip = 0;
};

/// @brief single_pass_blocked.cl built for `variant` (see is_single_pass_blocked()) in the shape
/// the lesson ships (single_pass_blocked_shape()), or with strips of `strip` rows when it is not
/// 0, its arguments set to `buffers` (input to output); `extra` is added to the build options.
/// Throws SkipLesson when the compiled kernel allows fewer work-items per group than the shape.
BlockedRung single_pass_blocked_rung(const DeviceContext& dc, const std::string& variant,
                                     const SeparableBuffers& buffers, int radius, int steps, std::size_t strip = 0,
                                     const std::string& extra = "", BuildStats* stats = nullptr);

/// @brief Launches a 2D kernel over `items_x` x `items_y` work-items, rounded up to whole groups.
cl::Event launch_2d(const DeviceContext& dc, cl::Kernel& kernel, std::size_t items_x, std::size_t items_y,
                    const cl::NDRange& local);

/// @brief Sets the arguments every lesson 05 kernel takes first: input, output, weights, width,
/// height.
void set_image_args(cl::Kernel& kernel, const cl::Buffer& in, const cl::Buffer& out, const cl::Buffer& weights,
                    const SeparableBuffers& buffers);

}  // namespace course
