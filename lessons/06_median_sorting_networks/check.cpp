// Exercise 06's cases: the 3x3 median network on random data, many ties, constant images, a
// single bright pixel, every 0/1 window, and sizes no work-group divides, with guard bands
// around the output. A network that misses a single exchange gets some window wrong.
#include <cmath>
#include <string>

#include "checker.hpp"
#include "course.hpp"

namespace {

// Every one of the 512 windows of zeros and ones appears as the neighbourhood of some pixel.
// By the 0-1 principle, a compare-exchange network that finds the median of all of them finds
// the median of any nine values, so this case alone proves the order of exchanges.
course::GrayImage every_binary_window() {
  course::GrayImage image{128, 64, std::vector<float>(128 * 64, 0.0f)};
  for (int pattern = 0; pattern < 512; ++pattern) {
    const int left = 4 * (pattern % 32) + 1, top = 4 * (pattern / 32) + 1;
    for (int bit = 0; bit < 9; ++bit)
      if (pattern >> bit & 1) image.pixels[(top + bit / 3) * 128 + left + bit % 3] = 255.0f;
  }
  return image;
}

course::GrayImage with_ties(int width, int height, std::uint32_t seed) {
  course::GrayImage image = course::random_gray(width, height, seed);
  for (float& v : image.pixels) v = std::floor(v / 64.0f) * 85.0f;  // only 0, 85, 170 and 255
  return image;
}

course::GrayImage single_bright_pixel(int width, int height, int x, int y) {
  course::GrayImage image{width, height, std::vector<float>(static_cast<std::size_t>(width) * height, 10.0f)};
  image.pixels[static_cast<std::size_t>(y) * width + x] = 255.0f;
  return image;
}

void check_median_network(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  cl::Program program = check.build("median_network_3x3.cl", "-D COURSE_POISON_LOCAL");
  cl::Kernel median(program, "median_network_3x3");
  const std::size_t kernel_max = median.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);

  auto run = [&](const std::string& what, const course::GrayImage& image, std::size_t want_x, std::size_t want_y) {
    const std::size_t lx = std::min(want_x, kernel_max);
    const std::size_t ly = std::max<std::size_t>(1, std::min(want_y, kernel_max / lx));
    const std::string name = what + ", " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                             " image, " + std::to_string(lx) + "x" + std::to_string(ly) + " work-groups";
    check.run_case(name, [&] {
      course::GuardedBuffer input(dc, image.pixels.size()), output(dc, image.pixels.size());
      input.write(image.pixels);
      median.setArg(0, input.buffer());
      median.setArg(1, output.buffer());
      median.setArg(2, image.width);
      median.setArg(3, image.height);
      dc.queue.enqueueNDRangeKernel(median, cl::NullRange, cl::NDRange(course::round_up(image.width, lx), course::round_up(image.height, ly)), cl::NDRange(lx, ly));
      dc.queue.finish();
      if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
      check.expect_image(name, output.read(), course::median_filter(image, 3).pixels, image.width, image.height, 0.0);
    });
  };

  run("every 0/1 window", every_binary_window(), 16, 4);
  run("random values", course::random_gray(97, 61, 6), 16, 16);
  run("random values", course::random_gray(131, 67, 7), 32, 1);
  run("random values", course::random_gray(37, 29, 8), 1, 32);
  run("many ties", with_ties(53, 47, 9), 8, 8);
  run("constant image", course::GrayImage{23, 19, std::vector<float>(23 * 19, 77.0f)}, 8, 4);
  run("one bright pixel in the middle", single_bright_pixel(17, 13, 8, 6), 4, 4);
  run("one bright pixel in a corner", single_bright_pixel(17, 13, 16, 12), 4, 4);
  run("one bright pixel on an edge", single_bright_pixel(17, 13, 0, 5), 4, 4);
  run("a single pixel", course::random_gray(1, 1, 10), 1, 1);
  run("one row", course::random_gray(41, 1, 11), 16, 1);
  run("one column", course::random_gray(1, 43, 12), 1, 16);
  run("two by two", course::random_gray(2, 2, 13), 2, 2);
  run("random values", course::random_gray(256, 3, 14), 64, 4);
}

}  // namespace

COURSE_EXERCISE("06", "06_median_sorting_networks",
                "the 3x3 median network: the compare-exchange and the order of exchanges", check_median_network);
