// Exercise 09's cases: the bilinear sample of one output pixel, by hand on a buffer and through
// an image's linear sampler, under affine maps and homographies (a half-pixel shift, a rotation,
// a zoom that leaves much of the output black, two perspective maps), on random RGBA images
// whose input and output sizes differ, with several work-group shapes and guarded outputs.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "checker.hpp"
#include "course.hpp"
#include "transform_reference.hpp"

namespace {

course::RgbaImage random_rgba(int width, int height, std::uint32_t seed) {
  course::RgbaImage image{width, height, std::vector<std::uint8_t>(std::size_t(width) * height * 4)};
  for (int c = 0; c < 4; ++c) {
    const course::GrayImage channel = course::random_gray(width, height, seed * 4 + c);
    for (std::size_t i = 0; i < channel.pixels.size(); ++i)
      image.pixels[i * 4 + c] = static_cast<std::uint8_t>(channel.pixels[i]);
  }
  return image;
}

// The kernels write uchar4 pixels: one float of the guarded buffer holds one pixel's 4 bytes.
std::vector<float> pixel_bytes_as_values(const std::vector<float>& raw) {
  std::vector<float> values(raw.size() * 4);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    std::uint8_t bytes[4];
    std::memcpy(bytes, &raw[i], 4);
    for (int c = 0; c < 4; ++c) values[i * 4 + c] = bytes[c];
  }
  return values;
}

// A rotation by `degrees` and a zoom by `scale` about the picture's centre (output -> source).
course::WarpMatrix rotation_about_centre(double degrees, double scale, int width, int height) {
  const double a = degrees * 3.14159265358979 / 180, c = scale * std::cos(a), s = scale * std::sin(a);
  const double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0;
  return {c, -s, cx - c * cx + s * cy, s, c, cy - s * cx - c * cy, 0, 0, 1};
}

void check_bilinear_warp(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  const bool images = dc.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>() == CL_TRUE;

  struct Kernel {
    std::string file, function;
    bool image_input;
    int pixels_per_item;
    double tolerance;  // the sampler may blend with 8-bit weights on GPUs
  };
  const Kernel kernels[] = {{"buffer_warp.cl", "warp_buffer", false, 1, 0.6},
                            {"buffer_warp.cl", "warp_buffer_x4", false, 4, 0.6},
                            {"image_warp.cl", "warp_image", true, 1, 2.0},
                            {"image_warp.cl", "warp_image_x4", true, 4, 2.0}};
  struct Size {
    int in_w, in_h, out_w, out_h;
  };
  const Size sizes[] = {{1, 1, 1, 1}, {1, 17, 1, 17}, {23, 1, 23, 1}, {37, 29, 41, 31}, {97, 61, 83, 67}};
  const std::size_t locals[][2] = {{16, 16}, {8, 4}, {32, 1}, {1, 8}, {5, 3}};

  std::uint32_t seed = 9;
  int shape = 0;
  for (const Kernel& k : kernels) {
    if (k.image_input && !images) {
      check.pass(k.function, "skipped: this device has no image support");
      continue;
    }
    for (int projective = 0; projective <= 1; ++projective) {
      cl::Program program = check.build(k.file, "-D PROJECTIVE=" + std::to_string(projective));
      cl::Kernel kernel(program, k.function.c_str());
      const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
      for (const Size& size : sizes) {
        std::vector<std::pair<std::string, course::WarpMatrix>> warps;
        if (projective) {
          warps = {{"gentle homography", {1, 0.1, 2, 0.05, 0.9, 1, 0.004, -0.003, 1}},
                   {"steep homography", {0.9, -0.2, 3, 0.1, 1.1, -2, 0.02, 0.015, 0.8}}};
        } else {
          warps = {{"half-pixel shift", {1, 0, 0.5, 0, 1, 0.25, 0, 0, 1}},
                   {"rotation by 30 degrees", rotation_about_centre(30, 1.2, size.in_w, size.in_h)},
                   {"zoom out with shear", {1.7, 0.3, -5, -0.2, 1.4, -3, 0, 0, 1}}};
        }
        for (const auto& [what, m] : warps) {
          const std::size_t lx = std::min(locals[shape % 5][0], kernel_max);
          const std::size_t ly = std::max<std::size_t>(1, std::min(locals[shape % 5][1], kernel_max / lx));
          ++shape;
          const std::string name = k.function + ", " + what + ", " + std::to_string(size.in_w) + "x" +
                                   std::to_string(size.in_h) + " -> " + std::to_string(size.out_w) + "x" +
                                   std::to_string(size.out_h) + ", " + std::to_string(lx) + "x" + std::to_string(ly) +
                                   " groups";
          check.run_case(name, [&] {
            const course::RgbaImage image = random_rgba(size.in_w, size.in_h, seed++);
            course::GuardedBuffer output(dc, std::size_t(size.out_w) * size.out_h);
            cl::Buffer input_buffer;
            cl::Image2D input_image;
            int arg = 0;
            if (k.image_input) {
              input_image = cl::Image2D(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                        cl::ImageFormat(CL_RGBA, CL_UNORM_INT8), size.in_w, size.in_h, 0,
                                        const_cast<std::uint8_t*>(image.pixels.data()));
              kernel.setArg(arg++, input_image);
            } else {
              input_buffer = cl::Buffer(dc.context, image.pixels.begin(), image.pixels.end(), true);
              kernel.setArg(arg++, input_buffer);
              kernel.setArg(arg++, size.in_w);
              kernel.setArg(arg++, size.in_h);
            }
            kernel.setArg(arg++, output.buffer());
            kernel.setArg(arg++, size.out_w);
            kernel.setArg(arg++, size.out_h);
            for (int r = 0; r < 3; ++r)
              kernel.setArg(arg++, cl_float4{{float(m[3 * r]), float(m[3 * r + 1]), float(m[3 * r + 2]), 0.0f}});
            const int items_x = (size.out_w + k.pixels_per_item - 1) / k.pixels_per_item;
            dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(course::round_up(items_x, lx), course::round_up(size.out_h, ly)), cl::NDRange(lx, ly));
            dc.queue.finish();
            if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
            check.expect_image(name, pixel_bytes_as_values(output.read()),
                               course::warp_bilinear(image, m, size.out_w, size.out_h), size.out_w, size.out_h,
                               k.tolerance, 4);
          });
        }
      }
    }
  }
}

}  // namespace

COURSE_EXERCISE("09", "09_affine_and_homography_warps",
                "the bilinear sample of one output pixel, by hand and by sampler", check_bilinear_warp);
