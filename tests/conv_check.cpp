#include "conv_check.hpp"

#include <algorithm>
#include <cmath>

#include "image.hpp"
#include "lesson.hpp"
#include "reference.hpp"

namespace course {

std::vector<ConvCheckCase> conv_check_cases(int max_radius) {
  struct Size {
    int width, height;
  };
  // Sizes no work-group shape divides, from a single pixel to several groups in each direction.
  // Kept below 1024 pixels of width so a read R rows too far stays inside the input's guard.
  const Size sizes[] = {{37, 29}, {1, 1}, {131, 67}, {1, 23}, {29, 1}, {97, 61}, {13, 7}, {61, 97}, {3, 41}, {71, 5}};
  const std::size_t shapes[][2] = {{16, 16}, {8, 4}, {32, 2}, {4, 8}, {16, 1}, {1, 16}, {8, 8}, {64, 4}};
  std::vector<ConvCheckCase> cases;
  std::size_t n = 0;
  for (int radius = 0; radius <= max_radius; ++radius)
    for (auto weights : {ConvCheckCase::kGaussian, ConvCheckCase::kBox, ConvCheckCase::kRandom}) {
      const Size s = sizes[n % std::size(sizes)];
      const auto* shape = shapes[(n * 3 + radius) % std::size(shapes)];
      cases.push_back({s.width, s.height, shape[0], shape[1], radius, weights});
      ++n;
    }
  return cases;
}

void conv_check_run(ExerciseCheck& check, cl::Kernel& kernel, const ConvCheckCase& c, unsigned seed,
                    std::size_t (*tile_floats)(std::size_t, std::size_t, int), double tolerance) {
  const DeviceContext& dc = check.device();
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  const auto item_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  std::size_t lx = std::min(c.local_x, item_max[0]), ly = std::min(c.local_y, item_max[1]);
  while (lx * ly > kernel_max) (lx >= ly ? lx : ly) /= 2;
  const double sigma = 0.5 + (seed % 7) * 0.25 + c.radius * 0.3;
  const std::vector<float> weights_1d =
      c.weights == ConvCheckCase::kGaussian ? gaussian_weights(c.radius, sigma) : box_weights(c.radius);
  std::vector<float> weights = outer_product(weights_1d, weights_1d);
  if (c.weights == ConvCheckCase::kRandom) {
    // Weights from a noise image: no symmetry, so w(i, j), w(j, i) and w(-i, -j) all differ.
    const GrayImage noise = random_gray(2 * c.radius + 1, 2 * c.radius + 1, seed + 7919);
    double noise_sum = 0;
    for (float v : noise.pixels) noise_sum += v + 1.0;
    for (std::size_t k = 0; k < weights.size(); ++k)
      weights[k] = static_cast<float>((noise.pixels[k] + 1.0) / noise_sum);
  }
  static const char* const kind_names[] = {"gaussian", "box", "random-weight"};
  std::string name = std::to_string(c.width) + "x" + std::to_string(c.height) + " image, " + std::to_string(lx) + "x" +
                     std::to_string(ly) + " work-groups, " + kind_names[c.weights] + " radius " +
                     std::to_string(c.radius);
  check.run_case(name, [&] {
    const GrayImage image = random_gray(c.width, c.height, seed);
    // The NDRange overhangs the image by up to a work-group in each direction. A kernel without a
    // bounds check writes that far past the last pixel, which can be more than the guard band
    // holds, so the output gets a slack region as long as the overhang, checked like a guard.
    const std::size_t global_x = round_up(c.width, lx), global_y = round_up(c.height, ly);
    const std::size_t count = image.pixels.size();
    const std::size_t slack = (global_y - c.height + 1) * c.width + global_x;
    ConvolutionBuffers buffers(dc, image.pixels, weights, slack);
    set_args(kernel, buffers.input.buffer(), buffers.taps.buffer(), buffers.output.buffer(), c.width, c.height,
             c.radius);
    if (tile_floats) kernel.setArg(6, cl::Local(tile_floats(lx, ly, c.radius) * sizeof(float)));
    dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global_x, global_y), cl::NDRange(lx, ly));
    dc.queue.finish();
    if (const std::string damage = buffers.output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
    std::vector<float> got = buffers.output.read();
    if (const auto past =
            written_past_image(got, count, "A bounds check (x < width && y < height) is missing or wrong.");
        !past.cause.empty())
      return check.fail(name, past.cause, past.where, "");
    const GrayImage expected = correlate_2d(image, weights, c.radius);
    check.expect_image(name, got, expected.pixels, c.width, c.height, tolerance);
  });
}

}  // namespace course
