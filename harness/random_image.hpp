/// @file random_image.hpp
/// @brief The checks' and tests' random pictures: noise from a seed, the same on every run.
#pragma once

#include <cstdint>

#include "image.hpp"

namespace course {

/// @brief Gray noise, uniform in [0, 255), from a seed: every pixel differs from its neighbours.
/// The same seed gives the same pixels on every run, for the seed family set_random_seed() chose.
GrayImage random_gray(int width, int height, std::uint32_t seed);

/// @brief Random bytes in all four channels: random_gray() of seeds 4 * seed to 4 * seed + 3,
/// one a channel.
RgbaImage random_rgba(int width, int height, std::uint32_t seed);

/// @brief Chooses the family of random_gray()'s data: 1 (the default) keeps every seed as it is;
/// another number gives other data for the same seeds (the exercise checker's `--seed N`).
void set_random_seed(std::uint32_t family);

}  // namespace course
