#include "random_image.hpp"

#include <random>
#include <vector>

namespace course {

namespace {
std::uint32_t seed_family = 1;
}  // namespace

void set_random_seed(std::uint32_t family) { seed_family = family; }

GrayImage random_gray(int width, int height, std::uint32_t seed) {
  std::mt19937 rng(seed_family == 1 ? seed : seed ^ (seed_family * 2654435761u));
  std::uniform_real_distribution<float> dist(0.0f, 255.0f);
  GrayImage out{width, height, std::vector<float>(static_cast<std::size_t>(width) * height)};
  for (auto& v : out.pixels) v = dist(rng);
  return out;
}

RgbaImage random_rgba(int width, int height, std::uint32_t seed) {
  RgbaImage image{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 4)};
  for (int c = 0; c < 4; ++c) {
    const GrayImage channel = random_gray(width, height, seed * 4 + c);
    for (std::size_t i = 0; i < channel.pixels.size(); ++i)
      image.pixels[i * 4 + c] = static_cast<std::uint8_t>(channel.pixels[i]);
  }
  return image;
}

}  // namespace course
