/// @file lesson.hpp
/// @brief The options and inputs that image lessons share: `--input`, `--size`, `--output-dir`, `--repeat`.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "device.hpp"
#include "image.hpp"
#include "options.hpp"

namespace course {

/// @brief Adds `--input IMG`, `--size WxH` (a synthetic picture instead of a file),
/// `--output-dir DIR` (default `out/<folder>`), `--repeat N` (timed runs, default 5), then those
/// add_to_image_options() was given: in a lesson's program `--record FILE` (the results tables as
/// JSON, harness/runs/record.hpp).
void add_image_options(Options& options, const std::string& folder,
                       const std::string& default_input = "data/camera.png");

/// @brief Has add_image_options() call `add` after declaring its own options. Every lesson's
/// program is built with harness/runs/record_option.cpp, which adds `--record FILE` this way.
void add_to_image_options(void (*add)(Options&));

/// @brief A path as the student typed it, else (when it does not exist there) relative to the
/// course folder, so `data/camera.png` works from anywhere.
std::filesystem::path resolve_input_path(const std::string& path);

/// @brief The gray input: the synthetic picture when `--size` was given, else `--input`.
GrayImage input_gray(const Options& options);

/// @brief input_gray(), refused at once (InputError, naming the picture) when one float buffer of
/// it is more than `dc` allocates at once: before any CPU reference is computed for it.
GrayImage input_gray(const Options& options, const DeviceContext& dc);

/// @brief Throws InputError naming `picture` (see input_description()) when `bytes` is more than
/// the device allocates at once (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
void require_allocatable(const DeviceContext& dc, std::size_t bytes, const std::string& picture);

/// @brief The RGBA input: the synthetic picture when `--size` was given, else `--input`.
RgbaImage input_rgba(const Options& options);

/// @brief The input picture, for messages: "'data/camera.png' (512x512)" or "the synthetic
/// picture (64x64)".
std::string input_description(const Options& options, int width, int height);

/// @brief `--output` when the lesson has that option and it was given, else
/// `<--output-dir>/<default_name>`.
std::filesystem::path output_path(const Options& options, const std::string& default_name);

/// @brief The smallest multiple of `multiple` that is >= n: the global size to launch when the
/// image is not a whole number of work-groups (kernels then need a bounds check).
std::size_t round_up(std::size_t n, std::size_t multiple);

}  // namespace course
