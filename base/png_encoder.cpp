#include "png_encoder.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "input_error.hpp"

namespace course::image_format {
namespace {

// Deflate's bits go out least significant first, 32 at a time.
struct BitWriter {
  std::vector<unsigned char>& out;
  std::uint64_t bits = 0;
  int count = 0;
  void put(std::uint32_t value, int n) {  // n <= 32
    bits |= std::uint64_t(value) << count;
    count += n;
    if (count >= 32) {
      for (int k = 0; k < 4; ++k) out.push_back(static_cast<unsigned char>(bits >> (8 * k)));
      bits >>= 32;
      count -= 32;
    }
  }
  void to_byte_boundary() {
    for (; count > 0; count -= 8, bits >>= 8) out.push_back(static_cast<unsigned char>(bits));
    count = 0;
  }
};

std::uint32_t reversed(std::uint32_t code, int n) {
  std::uint32_t r = 0;
  for (int i = 0; i < n; ++i) r |= ((code >> i) & 1) << (n - 1 - i);
  return r;
}

// Deflate's fixed Huffman code (RFC 1951, 3.2.6) for the 288 literal/length symbols, reversed
// because a Huffman code goes out most significant bit first.
struct FixedCodes {
  std::array<std::uint16_t, 288> code{};
  std::array<std::uint8_t, 288> length{};
  FixedCodes() {
    for (int s = 0; s < 288; ++s) {
      const int n = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
      const int c = s < 144 ? 0x30 + s : s < 256 ? 0x190 + s - 144 : s < 280 ? s - 256 : 0xC0 + s - 280;
      code[s] = static_cast<std::uint16_t>(reversed(c, n));
      length[s] = static_cast<std::uint8_t>(n);
    }
  }
};

const int kLengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                             31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
const int kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
const int kDistanceBase[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                               193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
const int kDistanceExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

// One deflate block of `data` with the fixed code: each position looks up the last one whose
// 4 bytes hashed alike and, when they match within the 32 KiB window, sends the match's length
// and distance instead of the bytes. `last` marks the stream's final block; any other block is
// followed by an empty stored block, which ends it on a byte boundary.
void deflate_block(const unsigned char* data, std::size_t size, bool last, std::vector<unsigned char>& out) {
  static const FixedCodes fixed;
  out.reserve(size + size / 8 + 64);
  BitWriter w{out};
  auto send = [&](int symbol) { w.put(fixed.code[symbol], fixed.length[symbol]); };
  w.put(last ? 1 : 0, 1);
  w.put(1, 2);  // fixed Huffman codes
  constexpr int kHashBits = 15;
  std::vector<std::int64_t> seen(1 << kHashBits, -1);
  std::size_t i = 0;
  while (i + 4 <= size) {
    std::uint32_t four = 0, before = 0;
    std::memcpy(&four, data + i, 4);
    std::int64_t& slot = seen[(four * 2654435761u) >> (32 - kHashBits)];
    const std::int64_t match = slot;
    slot = static_cast<std::int64_t>(i);
    if (match >= 0) std::memcpy(&before, data + match, 4);
    if (match < 0 || i - match > 32768 || before != four) {
      send(data[i++]);
      continue;
    }
    const std::size_t most = std::min<std::size_t>(258, size - i);
    std::size_t length = 4;
    while (length < most && data[match + length] == data[i + length]) ++length;
    int l = 28, d = 29;
    while (kLengthBase[l] > static_cast<int>(length)) --l;
    const int distance = static_cast<int>(i - match);
    while (kDistanceBase[d] > distance) --d;
    send(257 + l);
    w.put(static_cast<std::uint32_t>(length - kLengthBase[l]), kLengthExtra[l]);
    w.put(reversed(d, 5), 5);
    w.put(static_cast<std::uint32_t>(distance - kDistanceBase[d]), kDistanceExtra[d]);
    i += length;
  }
  for (; i < size; ++i) send(data[i]);
  send(256);  // end of block
  if (!last) {
    w.put(0, 3);  // a stored block, not the last...
    w.to_byte_boundary();
    w.put(0xFFFF0000u, 32);  // ...holding 0 bytes (LEN 0, NLEN its complement)
  }
  w.to_byte_boundary();
}

std::uint32_t adler32(const unsigned char* data, std::size_t size) {
  std::uint32_t a = 1, b = 0;
  for (std::size_t i = 0; i < size;) {
    for (const std::size_t end = std::min(size, i + 5552); i < end; ++i) b += a += data[i];
    a %= 65521;
    b %= 65521;
  }
  return (b << 16) | a;
}

// The Adler-32 of two pieces joined, from theirs and the second's length (as zlib's adler32_combine).
std::uint32_t adler32_joined(std::uint32_t first, std::uint32_t second, std::size_t second_bytes) {
  constexpr std::uint64_t kBase = 65521;
  const std::uint64_t rem = second_bytes % kBase, a1 = first & 0xFFFF, b1 = first >> 16;
  const std::uint64_t a = (a1 + (second & 0xFFFF) + kBase - 1) % kBase;
  const std::uint64_t b = (rem * a1 + b1 + (second >> 16) + kBase - rem) % kBase;
  return static_cast<std::uint32_t>((b << 16) | a);
}

std::uint32_t crc32(const unsigned char* data, std::size_t size) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

int paeth(int a, int b, int c) {
  const int pa = std::abs(b - c), pb = std::abs(a - c), pc = std::abs(a + b - 2 * c);
  return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c);
}

// One row through one PNG filter (`predict` from the left, upper and upper-left bytes); returns
// the sum of the filtered bytes taken as signed, PNG's measure for choosing a row's filter.
template <typename Predict>
long filter_row(const unsigned char* row, const unsigned char* up, std::size_t bytes, int channels, unsigned char* out,
                Predict predict) {
  long cost = 0;
  const std::size_t first = std::min<std::size_t>(channels, bytes);
  for (std::size_t i = 0; i < first; ++i) {  // the first pixel has nothing on its left
    out[i] = static_cast<unsigned char>(row[i] - predict(0, up[i], 0));
    cost += std::abs(static_cast<signed char>(out[i]));
  }
  for (std::size_t i = first; i < bytes; ++i) {
    out[i] = static_cast<unsigned char>(row[i] - predict(row[i - channels], up[i], up[i - channels]));
    cost += std::abs(static_cast<signed char>(out[i]));
  }
  return cost;
}

}  // namespace

PngEncoder::PngEncoder(int width, int height, int channels, const std::uint8_t* pixels)
    : width_(width), height_(height), channels_(channels), pixels_(pixels) {
  if (width < 1 || height < 1 || channels < 1 || channels > 4 || !pixels)
    throw InputError("a PNG holds at least one pixel of 1 to 4 channels, not " + std::to_string(width) + "x" +
                     std::to_string(height) + " pixels of " + std::to_string(channels));
  const std::size_t row_bytes = std::size_t(width) * channels + 1;
  const int rows = static_cast<int>(std::max<std::size_t>(1, (std::size_t(1) << 20) / row_bytes));
  for (int first = 0; first < height; first += rows) {
    bands_.emplace_back();
    bands_.back().first_row = first;
    bands_.back().last_row = std::min(height, first + rows);
  }
}

void PngEncoder::encode(int band) {
  Band& b = bands_.at(band);
  const std::size_t bytes = std::size_t(width_) * channels_;
  std::vector<unsigned char> filtered((bytes + 1) * (b.last_row - b.first_row)), trial(bytes), zeros(bytes, 0);
  for (int y = b.first_row; y < b.last_row; ++y) {
    const unsigned char* row = pixels_ + bytes * y;
    const unsigned char* up = y > 0 ? row - bytes : zeros.data();
    unsigned char* out = filtered.data() + (bytes + 1) * (y - b.first_row);
    // Each of PNG's five filters; the row keeps the one whose bytes are smallest.
    long best = -1;
    for (int f = 0; f < 5; ++f) {
      const long cost =
          f == 0   ? filter_row(row, up, bytes, channels_, trial.data(), [](int, int, int) { return 0; })
          : f == 1 ? filter_row(row, up, bytes, channels_, trial.data(), [](int a, int, int) { return a; })
          : f == 2 ? filter_row(row, up, bytes, channels_, trial.data(), [](int, int b, int) { return b; })
          : f == 3 ? filter_row(row, up, bytes, channels_, trial.data(), [](int a, int b, int) { return (a + b) / 2; })
                   : filter_row(row, up, bytes, channels_, trial.data(), paeth);
      if (best >= 0 && cost >= best) continue;
      best = cost;
      out[0] = static_cast<unsigned char>(f);
      std::memcpy(out + 1, trial.data(), bytes);
    }
  }
  b.adler = adler32(filtered.data(), filtered.size());
  b.filtered_bytes = filtered.size();
  b.deflated.clear();
  deflate_block(filtered.data(), filtered.size(), band + 1 == bands(), b.deflated);
}

std::vector<unsigned char> PngEncoder::file() const {
  std::vector<unsigned char> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  auto big_endian = [](std::vector<unsigned char>& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<unsigned char>(v >> shift));
  };
  auto chunk = [&](const char* type, const std::vector<unsigned char>& body) {
    big_endian(png, static_cast<std::uint32_t>(body.size()));
    const std::size_t start = png.size();
    png.insert(png.end(), type, type + 4);
    png.insert(png.end(), body.begin(), body.end());
    big_endian(png, crc32(png.data() + start, png.size() - start));
  };
  static const unsigned char kColourType[5] = {0, 0, 4, 2, 6};  // gray, gray + alpha, RGB, RGBA
  std::vector<unsigned char> header;
  big_endian(header, static_cast<std::uint32_t>(width_));
  big_endian(header, static_cast<std::uint32_t>(height_));
  header.insert(header.end(), {8, kColourType[channels_], 0, 0, 0});  // 8 bits, deflate, filters, no interlace
  chunk("IHDR", header);
  std::vector<unsigned char> zlib = {0x78, 0x01};  // deflate with a 32 KiB window, no preset dictionary
  std::uint32_t adler = 1;
  for (const Band& b : bands_) {
    if (b.deflated.empty()) throw std::logic_error("PngEncoder::file() before every band was encoded");
    zlib.insert(zlib.end(), b.deflated.begin(), b.deflated.end());
    adler = adler32_joined(adler, b.adler, b.filtered_bytes);
  }
  big_endian(zlib, adler);
  chunk("IDAT", zlib);
  chunk("IEND", {});
  return png;
}

}  // namespace course::image_format
