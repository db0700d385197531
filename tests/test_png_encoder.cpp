// The course's PNG encoder (base/png_encoder.*): the files it writes hold every pixel, and
// their checksums are right, whatever the channels and however many bands a picture has.
#include <doctest/doctest.h>
// Only stb's declarations: its decoder is compiled into the course's image library.
#include <stb_image.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "errors.hpp"
#include "png_encoder.hpp"

namespace {

std::uint32_t big_endian(const unsigned char* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

// CRC-32 bit by bit, as PNG's specification defines it (the encoder uses a table).
std::uint32_t crc32_bitwise(const unsigned char* p, std::size_t n) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

}  // namespace

TEST_CASE("the PNG encoder's files hold every pixel with right checksums for 1 to 4 channels over several bands") {
  std::mt19937 random(3);
  const int width = 301, height = 4000;  // 2 bands of 1 MiB for gray, 5 for RGBA
  for (int channels = 1; channels <= 4; ++channels) {
    CAPTURE(channels);
    // Noise (literals), repeated runs (matches) and ramps (the row filters), each across bands.
    std::vector<std::uint8_t> pixels(std::size_t(width) * height * channels);
    for (std::size_t i = 0; i < pixels.size(); ++i)
      pixels[i] = static_cast<std::uint8_t>((i / 5000) % 3 == 0 ? random() : (i % 997) / 4 + (i / width) % 7);
    course::image_format::PngEncoder encoder(width, height, channels, pixels.data());
    CHECK(encoder.bands() >= 2);
    for (int band = encoder.bands(); band-- > 0;) encoder.encode(band);  // in any order, as threads finish
    const std::vector<unsigned char> png = encoder.file();

    // Every chunk's CRC, and the Adler-32 of what the zlib stream decompresses to.
    std::vector<unsigned char> zlib;
    for (std::size_t at = 8; at + 12 <= png.size();) {
      const std::uint32_t length = big_endian(&png[at]);
      REQUIRE(at + 12 + length <= png.size());
      CHECK(crc32_bitwise(&png[at + 4], length + 4) == big_endian(&png[at + 8 + length]));
      if (std::memcmp(&png[at + 4], "IDAT", 4) == 0) zlib.insert(zlib.end(), &png[at + 8], &png[at + 8 + length]);
      at += 12 + length;
    }
    int raw_size = 0;
    char* raw =
        stbi_zlib_decode_malloc(reinterpret_cast<const char*>(zlib.data()), static_cast<int>(zlib.size()), &raw_size);
    REQUIRE(raw);
    CHECK(raw_size == (width * channels + 1) * height);
    std::uint32_t a = 1, b = 0;
    for (int i = 0; i < raw_size; ++i) {
      a = (a + static_cast<unsigned char>(raw[i])) % 65521;
      b = (b + a) % 65521;
    }
    std::free(raw);
    CHECK((b << 16 | a) == big_endian(&zlib[zlib.size() - 4]));

    int w = 0, h = 0, c = 0;
    stbi_uc* back = stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &c, channels);
    REQUIRE(back);
    CHECK(w == width);
    CHECK(h == height);
    CHECK(c == channels);
    CHECK(std::memcmp(back, pixels.data(), pixels.size()) == 0);
    stbi_image_free(back);
  }
}

TEST_CASE("the PNG encoder refuses a picture a PNG cannot hold") {
  const std::uint8_t pixel[4] = {};
  CHECK_THROWS_AS(course::image_format::PngEncoder(0, 1, 1, pixel), course::InputError);
  CHECK_THROWS_AS(course::image_format::PngEncoder(1, 1, 5, pixel), course::InputError);
}
