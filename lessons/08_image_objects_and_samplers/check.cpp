// Exercise 08's cases: the blur whose tile the whole work-group loads, on random RGBA images
// with random (asymmetric) weights, sizes no work-group divides, several group shapes and every
// radius from 0 to 8, with local memory poisoned by NaN and guard bands around the output.
#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "checker.hpp"
#include "course.hpp"

namespace {

// Random weights that sum to 1 and differ from tap to tap, so a mirrored or shifted index
// shows up as a wrong sum.
std::vector<float> random_weights(int radius, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.1f, 1.0f);
  std::vector<float> w((2 * radius + 1) * (2 * radius + 1));
  float sum = 0;
  for (float& v : w) sum += (v = u(rng));
  for (float& v : w) v /= sum;
  return w;
}

// Random bytes in all four channels (course::random_gray, one seed per channel).
course::RgbaImage random_rgba(int width, int height, std::uint32_t seed) {
  course::RgbaImage image{width, height, std::vector<std::uint8_t>(std::size_t(width) * height * 4)};
  for (int c = 0; c < 4; ++c) {
    const course::GrayImage channel = course::random_gray(width, height, seed * 4 + c);
    for (std::size_t i = 0; i < channel.pixels.size(); ++i)
      image.pixels[i * 4 + c] = static_cast<std::uint8_t>(channel.pixels[i]);
  }
  return image;
}

// The CPU reference: each channel correlated with the weights, borders clamped.
std::vector<float> reference_blur(const course::RgbaImage& in, const std::vector<float>& weights, int radius) {
  const std::size_t pixels = std::size_t(in.width) * in.height;
  std::vector<float> out(pixels * 4);
  for (int c = 0; c < 4; ++c) {
    course::GrayImage channel{in.width, in.height, std::vector<float>(pixels)};
    for (std::size_t i = 0; i < pixels; ++i) channel.pixels[i] = in.pixels[i * 4 + c];
    const course::GrayImage blurred = course::correlate_2d(channel, weights, radius);
    for (std::size_t i = 0; i < pixels; ++i) out[i * 4 + c] = blurred.pixels[i];
  }
  return out;
}

// The kernel writes uchar4 pixels: one float of the guarded buffer holds one pixel's 4 bytes.
std::vector<float> pixel_bytes_as_values(const std::vector<float>& raw) {
  std::vector<float> values(raw.size() * 4);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    std::uint8_t bytes[4];
    std::memcpy(bytes, &raw[i], 4);
    for (int c = 0; c < 4; ++c) values[i * 4 + c] = bytes[c];
  }
  return values;
}

void check_cooperative_tile(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  if (!dc.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>())
    throw course::SkipLesson("this device has no image support, so exercise 08 cannot run here");

  struct Shape {
    int group_w, group_h, radius;
  };
  // Every radius the lesson takes (0 to 8) on the seed's 8x4 groups, where the tile holds up
  // to 15 pixels per work-item, then other shapes: wide, tall, one row, one column.
  const Shape shapes[] = {{8, 4, 0}, {8, 4, 1}, {8, 4, 2},  {8, 4, 3},  {8, 4, 4},  {8, 4, 5},  {8, 4, 6},
                          {8, 4, 7}, {8, 4, 8}, {16, 8, 1}, {4, 16, 2}, {32, 1, 1}, {1, 16, 2}, {16, 16, 3}};
  struct Size {
    int width, height;
  };
  const Size sizes[] = {{1, 1}, {1, 23}, {29, 1}, {37, 29}, {97, 61}};
  const std::size_t device_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  std::uint32_t seed = 8;
  for (const Shape& s : shapes) {
    const std::string shape =
        std::to_string(s.group_w) + "x" + std::to_string(s.group_h) + " groups, radius " + std::to_string(s.radius);
    if (std::size_t(s.group_w) * s.group_h > device_max) {
      check.pass(shape, "skipped: more work-items than this device allows in a group");
      continue;
    }
    cl::Program program =
        check.build("cooperative_tile.cl", "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(s.radius) +
                                               " -D GROUP_W=" + std::to_string(s.group_w) +
                                               " -D GROUP_H=" + std::to_string(s.group_h));
    cl::Kernel kernel(program, "blur_image_tile_cooperative");
    const std::vector<float> weights = random_weights(s.radius, seed);
    cl::Buffer weight_buffer(dc.context, weights.begin(), weights.end(), true);
    for (const Size& size : sizes) {
      const std::string name = std::to_string(size.width) + "x" + std::to_string(size.height) + " image, " + shape;
      check.run_case(name, [&] {
        const course::RgbaImage image = random_rgba(size.width, size.height, seed++);
        cl::Image2D input(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8),
                          size.width, size.height, 0, const_cast<std::uint8_t*>(image.pixels.data()));
        course::GuardedBuffer output(dc, std::size_t(size.width) * size.height);
        kernel.setArg(0, input);
        kernel.setArg(1, weight_buffer);
        kernel.setArg(2, output.buffer());
        kernel.setArg(3, size.width);
        kernel.setArg(4, size.height);
        dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(course::round_up(size.width, s.group_w), course::round_up(size.height, s.group_h)), cl::NDRange(s.group_w, s.group_h));
        dc.queue.finish();
        if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
        check.expect_image(name, pixel_bytes_as_values(output.read()), reference_blur(image, weights, s.radius),
                           size.width, size.height, 0.6, 4);
      });
    }
  }
}

}  // namespace

COURSE_EXERCISE("08", "08_image_objects_and_samplers", "the cooperative tile load and its barrier",
                check_cooperative_tile);
