/// @file image_format.hpp
/// @brief Whether a picture file is whole, decided by the course rather than by the decoder.
///
/// stb's versions differ (stb 2.30 returns the top of a JPEG whose scan is cut off, 2.27 refuses
/// it), and a damaged picture must get the same answer and the same message from every one of
/// them. These functions walk a file's structure before stb decodes it; decode() is the loader
/// common/image.cpp calls.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace course::image_format {

/// The format a file's first bytes announce, to name it in messages: "PNG", "JPEG", "BMP", "PNM"
/// or "image".
std::string format_name(const std::array<unsigned char, 34>& head);

/// A PNG's size straight from its IHDR chunk; false when `head` is no PNG header.
bool png_header_size(const std::array<unsigned char, 34>& head, std::int64_t& width, std::int64_t& height);

/// "" for a whole JPEG (or a file that is no JPEG), else why it is damaged.
std::string jpeg_damage(const std::vector<unsigned char>& bytes);

/// "" for a whole PNG, else why it is damaged.
std::string png_damage(const std::vector<unsigned char>& bytes);

// A binary PNM's header (P5 gray, P6 RGB) read as stb reads it: the width, the height and the
// largest value, separated by whitespace and comments; the pixels start one byte after the
// last number. stb 2.27 reads the numbers into an int without an overflow check and 2.30
// refuses any above 214748364, so the course reads them itself.
struct PnmHeader {
  bool binary = false;           // P5 or P6, the kinds stb reads
  bool number_too_long = false;  // a number of more than 9 digits
  bool cut_off = false;          // the file ends inside the header
  std::int64_t width = 0, height = 0, largest = 0, channels = 0, header_bytes = 0;
};

/// Reads the header of `file` and rewinds it.
PnmHeader read_pnm_header(FILE* file);

/// The bytes an uncompressed BMP needs, from its header; false for a compressed or unusual BMP.
bool bmp_bytes_needed(const std::array<unsigned char, 34>& head, int width, int height, std::int64_t& needed);

/// Whether a TGA holds every pixel its header promises; nothing for a type stb refuses itself.
std::optional<bool> tga_complete(const std::filesystem::path& path, const std::array<unsigned char, 34>& head,
                                 int width, int height, std::int64_t size);

/// What damage_before_decoding() found: `reason` "" for a file the decoder may read; a width
/// and height when the header promises more pixels than the course takes.
struct Damage {
  std::string reason;
  std::int64_t width = 0, height = 0;
};

/// Checks a file from its bytes alone, before any decoder runs: a PNG or JPEG walked to its end
/// marker, a PNM's header and pixel count, a BMP's headers; and a header that promises more than
/// `most_pixels`. `pnm` receives the PNM header when the file is one.
Damage damage_before_decoding(const std::filesystem::path& path, FILE* file, const std::array<unsigned char, 34>& head,
                              std::size_t head_bytes, std::int64_t size, std::int64_t most_pixels, PnmHeader& pnm);

/// Checks, once the decoder has read the header (`width` x `height`), that a TGA or an
/// uncompressed BMP holds every pixel (stb reads zeros past the end): "" when it does.
std::string damage_after_header(const std::filesystem::path& path, const std::array<unsigned char, 34>& head,
                                std::int64_t size, int width, int height);

/// The channels a picture file stores (1 to 4), from its header; 0 when it is no picture.
int channels_in(const std::filesystem::path& path);

/// Pixels stb decoded, freed by stb's own function.
using Pixels = std::unique_ptr<unsigned char, void (*)(void*)>;

/// Loads a picture file with `wanted_channels` (1 to 4) after every check above, refusing a
/// header that promises more than `most_pixels` before anything is allocated. Throws
/// InputError naming the file and the reason. `file_channels` receives the file's own count.
Pixels decode(const std::filesystem::path& path, int wanted_channels, int& width, int& height, std::int64_t most_pixels,
              int* file_channels = nullptr);

/// Writes `bytes` (a PNG from png_encoder.hpp) to a temporary file beside `path`, renamed when
/// complete, so a failure never leaves half a file; missing parent folders are created. Throws
/// InputError naming the file.
void write_file(const std::filesystem::path& path, const std::vector<unsigned char>& bytes);

}  // namespace course::image_format
