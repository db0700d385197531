/// @file png_encoder.hpp
/// @brief Encoding a PNG in bands of rows that can be compressed at the same time.
///
/// stb's writer compresses a picture as one stream on one core, about 3 s for an 8192x8192
/// gray picture, and lessons write several. Here each band of rows (about 1 MiB) is filtered
/// with PNG's adaptive row filters and compressed into a deflate block of its own (fixed
/// Huffman codes, greedy matches found through a hash of 4 bytes) that ends on a byte boundary,
/// so bands can be compressed on separate threads and joined as they are. The bands do not
/// depend on the number of threads, so the file is the same on every machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace course::image_format {

/// One picture's PNG file, built band by band.
class PngEncoder {
 public:
  /// `pixels`: `width` x `height` pixels of `channels` (1 gray, 2 gray + alpha, 3 RGB, 4 RGBA)
  /// interleaved 8-bit values, row by row; kept by address until file() returns. Throws
  /// InputError for a picture a PNG cannot hold (no pixels, or not 1 to 4 channels).
  PngEncoder(int width, int height, int channels, const std::uint8_t* pixels);

  /// How many bands encode() must be called for.
  int bands() const { return static_cast<int>(bands_.size()); }
  /// Filters and compresses band `band`. Different bands may be encoded at the same time.
  void encode(int band);
  /// The whole file, once every band has been encoded.
  std::vector<unsigned char> file() const;

 private:
  struct Band {
    int first_row = 0, last_row = 0;
    std::vector<unsigned char> deflated;  // its deflate block, ending on a byte boundary
    std::uint32_t adler = 1;              // Adler-32 of its filtered bytes
    std::size_t filtered_bytes = 0;
  };
  int width_, height_, channels_;
  const std::uint8_t* pixels_;
  std::vector<Band> bands_;
};

}  // namespace course::image_format
