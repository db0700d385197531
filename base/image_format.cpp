#include "image_format.hpp"

#include "input_error.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <random>
#include <system_error>
#include <cctype>
#include <fstream>
#include <iterator>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif
#define STBI_FAILURE_USERMSG
// Only the formats the course documents: fewer decoders, fewer ways for a file to go wrong.
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_PNM
#define STBI_ONLY_TGA
// Zeroed allocations: stb's PNM reader ignores a short read, and must never hand back
// uninitialised heap memory as pixels.
#define STBI_MALLOC(size) std::calloc(1, size)
#define STBI_REALLOC(pointer, size) std::realloc(pointer, size)
#define STBI_FREE(pointer) std::free(pointer)
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace course::image_format {

// The format a file's first bytes announce, to name it in messages.
std::string format_name(const std::array<unsigned char, 34>& head) {
  if (head[0] == 0x89 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G') return "PNG";
  if (head[0] == 0xFF) return "JPEG";  // stb skips any number of 0xFF bytes before the 0xD8
  if (head[0] == 'B' && head[1] == 'M') return "BMP";
  if (head[0] == 'P' && head[1] >= '1' && head[1] <= '6') return "PNM";
  return "image";
}

// A PNG's size straight from its IHDR chunk: stb refuses to even describe a PNG above 2^30
// bytes and then reports the misleading "not of any known type".
bool png_header_size(const std::array<unsigned char, 34>& head, std::int64_t& width, std::int64_t& height) {
  if (format_name(head) != "PNG" || head[12] != 'I' || head[13] != 'H' || head[14] != 'D' || head[15] != 'R')
    return false;
  auto be32 = [&](int at) {
    return (std::int64_t(head[at]) << 24) | (head[at + 1] << 16) | (head[at + 2] << 8) | head[at + 3];
  };
  width = be32(16);
  height = be32(20);
  return true;
}

// The course decides itself whether a file is whole, before stb decodes it: stb's versions
// differ (stb 2.30 returns the top of a JPEG whose scan is cut off, 2.27 refuses it), and a
// damaged picture must get the same answer and the same message from every one of them.
// Each check walks the file's structure and returns "" for a whole file, else the reason.

// A JPEG: every marker segment complete, every Huffman table at most 256 codes (stb 2.27
// writes past its table otherwise), and the entropy-coded data followed by the end-of-image
// marker. Walks the markers as stb does; bytes that are no marker (scan data, stuffed zeros,
// fill bytes) are stepped over one by one.
std::string jpeg_damage(const std::vector<unsigned char>& bytes) {
  auto at = [&](std::size_t i) -> unsigned { return i < bytes.size() ? bytes[i] : 0; };
  std::size_t i = 0;
  while (i < bytes.size() && bytes[i] == 0xFF) ++i;  // fill bytes before the start-of-image marker
  if (i == 0 || at(i) != 0xD8) return "";            // not a JPEG to stb, which says so itself
  ++i;
  while (i + 1 < bytes.size()) {
    const unsigned marker = at(i + 1);
    if (at(i) != 0xFF || marker == 0xFF) {
      ++i;
      continue;
    }
    // Stuffed zeros, restart markers and a repeated start of image carry no segment.
    if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {
      i += 2;
      continue;
    }
    if (marker == 0xD9) return "";    // end of image
    if (i + 4 > bytes.size()) break;  // the segment's length is cut off
    const std::size_t length = (at(i + 2) << 8) | at(i + 3);
    if (marker == 0xC4) {
      std::int64_t left = static_cast<std::int64_t>(length) - 2;
      std::size_t table = i + 4;
      while (left > 0) {
        unsigned codes = 0;
        for (std::size_t k = 1; k <= 16; ++k) codes += at(table + k);
        if (codes > 256) return "the JPEG data is damaged (a Huffman table holds more than 256 codes)";
        table += 17 + codes;
        left -= 17 + codes;
      }
    }
    if (i + 2 + length > bytes.size()) break;
    if (length < 2) return "the JPEG data is damaged (a marker segment shorter than its own length field)";
    i += 2 + length;
  }
  return "the JPEG data is damaged or cut off (the file ends before its end-of-image marker)";
}

// A PNG: every chunk complete up to the IEND chunk, and a first IDAT chunk that holds data
// (stb 2.27 copies an empty one into a buffer it has not allocated yet).
std::string png_damage(const std::vector<unsigned char>& bytes) {
  auto be32 = [&](std::size_t at) {
    return (std::uint64_t(bytes[at]) << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
  };
  bool first_data = true;
  for (std::size_t at = 8; at + 8 <= bytes.size();) {
    const std::uint64_t length = be32(at);
    std::string type(bytes.begin() + static_cast<std::ptrdiff_t>(at) + 4,
                     bytes.begin() + static_cast<std::ptrdiff_t>(at) + 8);
    if (!std::all_of(type.begin(), type.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
      return "the PNG data is damaged (a chunk without a name at byte " + std::to_string(at) + ")";
    if (type == "IDAT" && first_data) {
      if (length == 0) return "the PNG data is damaged (its first IDAT chunk is empty)";
      first_data = false;
    }
    if (length > bytes.size() - at - 8 || bytes.size() - at - 8 - length < 4)
      return "the PNG data is damaged or cut off (the file ends inside its " + type + " chunk)";
    if (type == "IEND") return "";
    at += 12 + length;
  }
  return "the PNG data is damaged or cut off (the file ends before its IEND chunk)";
}

PnmHeader read_pnm_header(FILE* file) {
  PnmHeader header;
  std::fseek(file, 0, SEEK_SET);
  const int p = std::fgetc(file), kind = std::fgetc(file);
  if (p == 'P' && (kind == '5' || kind == '6')) {
    header.binary = true;
    header.channels = kind == '6' ? 3 : 1;
    auto space = [](int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
    std::int64_t read = 3;  // "P5" and the byte after it
    int c = std::fgetc(file);
    auto next = [&] {
      c = std::fgetc(file);
      ++read;
    };
    for (std::int64_t* number : {&header.width, &header.height, &header.largest}) {
      for (;;) {
        while (c != EOF && space(c)) next();
        if (c != '#') break;
        while (c != EOF && c != '\n' && c != '\r') next();
      }
      for (int digits = 0; c != EOF && c >= '0' && c <= '9'; next()) {
        if (++digits > 9) header.number_too_long = true;
        if (!header.number_too_long) *number = *number * 10 + (c - '0');
      }
    }
    header.cut_off = c == EOF;  // the byte after the largest value is the header's last
    header.header_bytes = read;
  }
  std::fseek(file, 0, SEEK_SET);
  return header;
}

// The bytes an uncompressed BMP needs, from its header: the pixel data's offset plus every row
// padded to 4 bytes (the last row's padding may be missing). False for a compressed or
// unusual BMP, which stb checks itself.
bool bmp_bytes_needed(const std::array<unsigned char, 34>& head, int width, int height, std::int64_t& needed) {
  auto le = [&](int at, int bytes) {
    std::int64_t v = 0;
    for (int b = bytes - 1; b >= 0; --b) v = (v << 8) | head[at + b];
    return v;
  };
  const std::int64_t offset = le(10, 4), header = le(14, 4);
  std::int64_t bits = 0;
  if (header == 12) {
    bits = le(24, 2);
  } else if (header == 40 || header == 56 || header == 108 || header == 124) {
    const std::int64_t compression = le(30, 4);
    if (compression != 0 && compression != 3) return false;
    bits = le(28, 2);
  } else {
    return false;
  }
  if (bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32) return false;
  const std::int64_t row = (std::int64_t(width) * bits + 31) / 32 * 4;
  needed = offset + row * (height - 1) + (std::int64_t(width) * bits + 7) / 8;
  return true;
}

// Whether a TGA holds every pixel its header promises (stb reads zeros past the end of the
// file); nothing for a type stb refuses itself. Raw pixels need their full size; run-length
// data is walked packet by packet: a packet byte, then one pixel repeated or up to 128 pixels.
std::optional<bool> tga_complete(const std::filesystem::path& path, const std::array<unsigned char, 34>& head,
                                 int width, int height, std::int64_t size) {
  const int type = head[2];
  if (type != 1 && type != 2 && type != 3 && type != 9 && type != 10 && type != 11) return std::nullopt;
  const std::int64_t pixel_bytes = std::max(1, (head[16] + 7) / 8);
  const std::int64_t palette = head[1] ? std::int64_t(head[5] | (head[6] << 8)) * ((head[7] + 7) / 8) : 0;
  const std::int64_t offset = 18 + head[0] + palette, pixels = std::int64_t(width) * height;
  if (type < 9) return size >= offset + pixels * pixel_bytes;
  if (size < offset + (pixels + 127) / 128 * (1 + pixel_bytes)) return false;  // the least it can take
  std::ifstream in(path, std::ios::binary);
  in.seekg(offset);
  std::vector<char> pixel(static_cast<std::size_t>(pixel_bytes));
  for (std::int64_t left = pixels; left > 0;) {
    char packet = 0;
    if (!in.get(packet)) return false;
    const int count = (static_cast<unsigned char>(packet) & 0x7F) + 1;
    const int stored = (static_cast<unsigned char>(packet) & 0x80) ? 1 : count;
    for (int k = 0; k < stored; ++k)
      if (!in.read(pixel.data(), pixel_bytes)) return false;
    left -= count;
  }
  return true;
}

Damage damage_before_decoding(const std::filesystem::path& path, FILE* file, const std::array<unsigned char, 34>& head,
                              std::size_t head_bytes, std::int64_t size, std::int64_t most_pixels, PnmHeader& pnm) {
  const std::string format = format_name(head);
  if (std::int64_t w = 0, h = 0;
      head_bytes >= 24 && png_header_size(head, w, h) && (w > most_pixels || h > most_pixels || w * h > most_pixels))
    return {"", w, h};
  if (format == "JPEG" || format == "PNG") {
    std::ifstream in(path, std::ios::binary);
    const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (std::string damage = format == "JPEG" ? jpeg_damage(bytes) : png_damage(bytes); !damage.empty())
      return {damage};
  }
  pnm = format == "PNM" ? read_pnm_header(file) : PnmHeader{};
  if (pnm.number_too_long) return {"the PNM header holds a number with more than 9 digits"};
  if (pnm.binary && pnm.cut_off)
    return {"the PNM data is cut off (" + std::to_string(size) + " bytes, the file ends inside its header)"};
  if (pnm.binary) {
    if (pnm.width < 1 || pnm.height < 1)
      return {"the PNM header says " + std::to_string(pnm.width) + "x" + std::to_string(pnm.height) +
              " pixels, an empty picture"};
    if (pnm.width * pnm.height > most_pixels) return {"", pnm.width, pnm.height};
    if (pnm.largest < 1 || pnm.largest > 65535)
      return {"the PNM header's largest value is " + std::to_string(pnm.largest) + ", not 1 to 65535"};
    // stb reads a binary PNM's pixels without noticing that the file ends early.
    const std::int64_t needed = pnm.header_bytes + pnm.width * pnm.height * pnm.channels * (pnm.largest > 255 ? 2 : 1);
    if (size < needed)
      return {"the PNM data is cut off (" + std::to_string(size) + " bytes, its header promises " +
              std::to_string(pnm.width) + "x" + std::to_string(pnm.height) + " pixels)"};
  }
  // A BMP's header: 14 bytes, then an information header that starts with its own size.
  if (format == "BMP" && (size < 18 || size < 14 + (head[14] | (head[15] << 8) | (head[16] << 16))))
    return {"the BMP data is cut off (" + std::to_string(size) + " bytes, the file ends inside its header)"};
  return {};
}

std::string damage_after_header(const std::filesystem::path& path, const std::array<unsigned char, 34>& head,
                                std::int64_t size, int width, int height) {
  const std::string format = format_name(head);
  // stb reads a file as a TGA when no other format claims it: PNG, BMP and PNM have magic
  // bytes, and a JPEG starts with 0xFF followed by more fill bytes or 0xD8.
  const bool tga = format != "PNG" && format != "BMP" && format != "PNM" &&
                   !(head[0] == 0xFF && (head[1] == 0xFF || head[1] == 0xD8));
  if (tga && !tga_complete(path, head, width, height, size).value_or(true))
    return "the TGA data is cut off (" + std::to_string(size) + " bytes, its header promises " +
           std::to_string(width) + "x" + std::to_string(height) + " pixels)";
  // The same for an uncompressed BMP: stb reads zeros past the end of the file.
  if (std::int64_t needed = 0; format == "BMP" && bmp_bytes_needed(head, width, height, needed) && size < needed)
    return "the BMP data is cut off (" + std::to_string(size) + " bytes, its header promises " +
           std::to_string(width) + "x" + std::to_string(height) + " pixels in " + std::to_string(needed) + ")";
  return "";
}

// Turns `from`-channel pixels (1 gray, 2 gray + alpha, 3 RGB, 4 RGBA) into `to`-channel ones,
// alpha 255 where the file has none; frees `data` and returns a buffer stbi_image_free() frees.
unsigned char* expand_channels(unsigned char* data, int width, int height, int from, int to) {
  const std::size_t pixels = static_cast<std::size_t>(width) * height;
  auto* out = static_cast<unsigned char*>(std::calloc(pixels, static_cast<std::size_t>(to)));
  if (!out) {
    stbi_image_free(data);
    throw std::bad_alloc();
  }
  for (std::size_t i = 0; i < pixels; ++i) {
    const unsigned char* p = data + i * from;
    unsigned char* q = out + i * to;
    const bool gray = from < 3;
    const unsigned char alpha = (from == 2 || from == 4) ? p[from - 1] : 255;
    q[0] = p[0];
    if (to >= 3) {
      q[1] = gray ? p[0] : p[1];
      q[2] = gray ? p[0] : p[2];
    }
    if (to == 2 || to == 4) q[to - 1] = alpha;
  }
  stbi_image_free(data);
  return out;
}

// Loads with stb after checking, from the header alone, that the size is sane: a file that
// claims 100000 x 100000 pixels is refused before anything is allocated.
Pixels decode(const std::filesystem::path& path, int wanted_channels, int& width, int& height, std::int64_t most_pixels,
              int* file_channels) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError("cannot open '" + name + "': no such file");
  if (std::filesystem::is_directory(path, ec))
    throw InputError("cannot open '" + name + "': it is a folder, not an image file");
  if (std::filesystem::file_size(path, ec) == 0 && !ec)
    throw InputError("cannot read '" + name + "': the file is empty");
  FILE* file = std::fopen(name.c_str(), "rb");
  if (!file) throw InputError("cannot open '" + name + "': permission denied or unreadable");
  std::unique_ptr<FILE, int (*)(FILE*)> guard(file, &std::fclose);
  std::array<unsigned char, 34> head{};
  const std::size_t head_bytes = std::fread(head.data(), 1, head.size(), file);
  std::fseek(file, 0, SEEK_SET);
  const std::string format = format_name(head);
  auto too_big = [&](std::int64_t w, std::int64_t h) {
    return InputError("cannot use '" + name + "': its header says " + std::to_string(w) + "x" + std::to_string(h) +
                      " pixels, more than the course's limit of " + std::to_string(most_pixels) + " pixels");
  };
  const auto size = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
  PnmHeader pnm;
  // The course, not the decoder, decides whether the file is whole (harness/image_format.hpp).
  const Damage damage = damage_before_decoding(path, file, head, head_bytes, size, most_pixels, pnm);
  if (damage.width || damage.height) throw too_big(damage.width, damage.height);
  if (!damage.reason.empty()) throw InputError("cannot read '" + name + "': " + damage.reason);
  int channels = 0;
  if (!stbi_info_from_file(file, &width, &height, &channels))
    throw InputError("cannot read '" + name + "': not an image the course can read (PNG, JPEG, BMP, PGM/PPM, TGA)"
                     " or a damaged file (" + stbi_failure_reason() + ")");
  if (width < 1 || height < 1 || static_cast<std::int64_t>(width) * height > most_pixels)
    throw too_big(width, height);
  const bool sixteen_bit_pnm = pnm.binary && pnm.largest > 255;
  if (const std::string missing = damage_after_header(path, head, size, width, height); !missing.empty())
    throw InputError("cannot read '" + name + "': " + missing);
  std::fseek(file, 0, SEEK_SET);
  int w = 0, h = 0;
  // stb 2.27 converts the channels of a 16-bit PNM with its 8-bit routine and then reads past
  // the end of the result: such files are loaded with their own channels and expanded here.
  unsigned char* data = stbi_load_from_file(file, &w, &h, &channels, sixteen_bit_pnm ? 0 : wanted_channels);
  if (!data) {
    // stb tries the formats in turn, so its reason can be a stale "Not a PNG" about a JPEG.
    const std::string reason = stbi_failure_reason() ? stbi_failure_reason() : "";
    throw InputError("cannot read '" + name + "': the " + format + " data is damaged or cut off" +
                     (reason.empty() || reason.rfind("Not a", 0) == 0 ? std::string() : " (" + reason + ")"));
  }
  if (sixteen_bit_pnm && channels != wanted_channels) data = expand_channels(data, w, h, channels, wanted_channels);
  width = w;
  height = h;
  if (file_channels) *file_channels = channels;
  return Pixels(data, &stbi_image_free);
}

int channels_in(const std::filesystem::path& path) {
  int width = 0, height = 0, channels = 0;
  return stbi_info(path.string().c_str(), &width, &height, &channels) ? channels : 0;
}

void write_file(const std::filesystem::path& path, const std::vector<unsigned char>& bytes) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw InputError("cannot create the folder '" + path.parent_path().string() + "': " + ec.message());
  if (std::filesystem::is_directory(path, ec))
    throw InputError("cannot write '" + path.string() + "': it is a folder");
  const std::filesystem::path temp = path.string() + ".tmp-" + std::to_string(std::random_device{}() % 1000000);
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(temp, ec);
      throw InputError("cannot write '" + path.string() + "': the folder is not writable or the disk is full");
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw InputError("cannot write '" + path.string() + "': " + ec.message());
  }
}

}  // namespace course::image_format
