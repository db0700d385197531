// Hostile inputs at the level of the helper: what a student can type or feed a lesson gets an
// error that names the culprit, and nothing is allocated, read uninitialised or left on disk.
#include <doctest/doctest.h>

#include "course.hpp"
#include "random_image.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

fs::path hostile(const std::string& name) { return course::project_root() / "tests/reliability/data" / name; }

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("course-reliability-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The message of the InputError that loading `path` throws ("" when nothing is thrown).
std::string load_error(const fs::path& path) {
  try {
    course::load_gray(path);
  } catch (const course::InputError& e) {
    return e.what();
  }
  return "";
}

course::Options lesson_like_options() {
  course::Options options("test", "test");
  course::add_image_options(options, "test");
  course::add_filter_options(options, 3);
  options.value("offset", "N", "a value that may be negative", "0");
  options.value("matrix", "a,b,c,d,e,f", "an affine matrix");
  options.value("variant", "NAME", "which kernel", "naive");
  options.value("window", "K", "median window", "3");
  options.flag("quick", "fewer runs");
  return options;
}

std::string usage_error(const std::vector<std::string>& args, void (*read)(const course::Options&)) {
  course::Options options = lesson_like_options();
  try {
    options.parse(args);
    read(options);
  } catch (const course::UsageError& e) {
    return e.what();
  }
  return "";
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Each format cut short at several places, from inside the header to the last byte: the course
// decides itself that the file is incomplete, so every stb version gives the same message.
void check_cut_offs(const fs::path& dir, const std::string& name, const std::string& whole,
                    const std::string& expected) {
  write_bytes(dir / name, whole);
  CHECK_NOTHROW(course::load_gray(dir / name));
  for (const std::size_t keep : {whole.size() / 4, whole.size() / 2, whole.size() - 9, whole.size() - 1}) {
    CAPTURE(name);
    CAPTURE(keep);
    write_bytes(dir / ("cut-" + name), whole.substr(0, keep));
    const std::string message = load_error(dir / ("cut-" + name));
    CHECK(message.find("cut-" + name + "': " + expected) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("a PNG header claiming 100000x100000 pixels is refused with its size, not as an unknown format") {
  const std::string message = load_error(hostile("huge-header.png"));
  CHECK(message.find("huge-header.png") != std::string::npos);
  CHECK(message.find("its header says 100000x100000 pixels") != std::string::npos);
}

TEST_CASE("a BMP header claiming 100000x100000 pixels is refused with its size") {
  CHECK(load_error(hostile("huge-header.bmp")).find("its header says 100000x100000 pixels") != std::string::npos);
}

TEST_CASE("a binary PGM shorter than its header promises is refused as cut off") {
  const std::string message = load_error(hostile("cut-off.pgm"));
  CHECK(message.find("cut-off.pgm") != std::string::npos);
  CHECK(message.find("the PNM data is cut off") != std::string::npos);
  // The largest picture the course accepts, announced in 19 bytes: refused before decoding.
  const fs::path dir = fresh_dir("pgm");
  write_bytes(dir / "big.pgm", "P5\n16384 16384\n255\n");
  CHECK(load_error(dir / "big.pgm").find("the PNM data is cut off") != std::string::npos);
}

TEST_CASE("an uncompressed BMP shorter than its header promises is refused as cut off") {
  CHECK(load_error(hostile("cut-off.bmp")).find("the BMP data is cut off (154 bytes, its header promises 640x480") !=
        std::string::npos);
}

TEST_CASE("complete BMPs load even when the last row lacks its padding") {
  const fs::path dir = fresh_dir("bmp-ok");
  // 1 bit per pixel, 7x2: rows of 4 bytes, a two-colour palette (black, white), no final padding.
  auto le = [](std::uint32_t v, int bytes) {
    std::string out;
    for (int b = 0; b < bytes; ++b) out += static_cast<char>((v >> (8 * b)) & 0xFF);
    return out;
  };
  const std::string info = le(40, 4) + le(7, 4) + le(2, 4) + le(1, 2) + le(1, 2) + le(0, 4) + le(8, 4) +
                           le(2835, 4) + le(2835, 4) + le(2, 4) + le(0, 4);
  const std::string palette = std::string("\x00\x00\x00\x00\xff\xff\xff\x00", 8);
  const std::string rows = std::string("\xaa\x00\x00\x00\xfe", 5);  // bottom row 1010101, top row all white
  const std::uint32_t offset = 14 + 40 + 8;
  write_bytes(dir / "bits.bmp", "BM" + le(offset + 5, 4) + le(0, 4) + le(offset, 4) + info + palette + rows);
  const course::GrayImage image = course::load_gray(dir / "bits.bmp");
  REQUIRE(image.width == 7);
  REQUIRE(image.height == 2);
  CHECK(image.at(6, 0) == doctest::Approx(255).epsilon(1e-4));
  CHECK(image.at(0, 1) == doctest::Approx(255).epsilon(1e-4));
  CHECK(image.at(1, 1) == doctest::Approx(0));
}

TEST_CASE("a TGA shorter than its header promises is refused, and a tiny run-length TGA still loads") {
  CHECK(load_error(hostile("cut-off.tga")).find("the TGA data is cut off (82 bytes, its header promises 2000x1000") !=
        std::string::npos);
  // From the fuzzer: 803 bytes that stb reads as a TGA of 17993x11264 pixels.
  CHECK(load_error(hostile("tga-claims-200-megapixels.tga")).find("the TGA data is cut off (803 bytes") !=
        std::string::npos);
  // 4x2 pixels, 24-bit, run-length coded as one packet: a run of 8 copies of one colour.
  const fs::path dir = fresh_dir("tga-ok");
  const char header[18] = {0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 2, 0, 24, 0x20};
  write_bytes(dir / "run.tga", std::string(header, 18) + std::string("\x87\x40\x80\xc0", 4));
  const course::GrayImage image = course::load_gray(dir / "run.tga");
  REQUIRE(image.width == 4);
  REQUIRE(image.height == 2);
  CHECK(image.at(3, 1) == doctest::Approx(0.299 * 0xc0 + 0.587 * 0x80 + 0.114 * 0x40).epsilon(1e-3));
}

TEST_CASE("complete 8-bit and 16-bit binary PGMs load value for value") {
  const fs::path dir = fresh_dir("pgm-ok");
  write_bytes(dir / "eight.pgm", std::string("P5\n3 2\n255\n") + std::string("\x00\x10\x20\x30\x40\xff", 6));
  const course::GrayImage eight = course::load_gray(dir / "eight.pgm");
  REQUIRE(eight.width == 3);
  REQUIRE(eight.height == 2);
  CHECK(eight.at(1, 0) == doctest::Approx(16).epsilon(1e-4));
  CHECK(eight.at(2, 1) == doctest::Approx(255).epsilon(1e-4));
  // 16-bit values, big-endian; stb scales them to 8 bits.
  write_bytes(dir / "sixteen.pgm", std::string("P5\n2 1\n65535\n") + std::string("\x00\x00\xff\xff", 4));
  const course::GrayImage sixteen = course::load_gray(dir / "sixteen.pgm");
  REQUIRE(sixteen.width == 2);
  CHECK(sixteen.at(0, 0) == doctest::Approx(0));
  CHECK(sixteen.at(1, 0) == doctest::Approx(255).epsilon(1e-4));
}

TEST_CASE("JPEG Huffman tables with more than 256 codes are refused before the decoder builds them") {
  // Both files came from the fuzzer; the second hides its start-of-image marker behind fill bytes.
  for (const char* name : {"huffman-overflow.jpg", "huffman-overflow-after-fill.jpg"}) {
    CAPTURE(name);
    CHECK(load_error(hostile(name)).find("a Huffman table holds more than 256 codes") != std::string::npos);
  }
}

TEST_CASE("a PNG header with sides of 2^32 - 1 is refused without overflowing the size arithmetic") {
  CHECK(load_error(hostile("png-sides-overflow.png")).find("its header says 4294967295x4294967295 pixels") !=
        std::string::npos);
}

TEST_CASE("a PNM header number too long for an int is refused before the decoder parses it") {
  // From the fuzzer: a width of 99 digits.
  CHECK(load_error(hostile("pnm-width-overflow.ppm")).find("the PNM header holds a number with more than 9 digits") !=
        std::string::npos);
  // Nine digits still parse (and are then too large for the course).
  const fs::path dir = fresh_dir("pnm-digits");
  write_bytes(dir / "nine.pgm", "P5\n# a comment\n999999999 1\n255\n");
  CHECK(load_error(dir / "nine.pgm").find("its header says 999999999x1 pixels") != std::string::npos);
}

TEST_CASE("a PNG whose first data chunk is empty is refused before the decoder copies it") {
  // From the fuzzer: stb 2.27 would copy zero bytes into a buffer it has not allocated.
  CHECK(load_error(hostile("png-empty-first-idat.png")).find("its first IDAT chunk is empty") != std::string::npos);
}

TEST_CASE("a truncated JPEG is named as a damaged JPEG, without a stale reason about another format") {
  const std::string message = load_error(course::project_root() / "data/truncated.jpg");
  CHECK(message.find("truncated.jpg': the JPEG data is damaged or cut off") != std::string::npos);
  CHECK(message.find("Not a PNG") == std::string::npos);
}

TEST_CASE("a PNG, JPEG, BMP, PNM or TGA cut short is refused with its format's message, whatever stb decodes") {
  const fs::path dir = fresh_dir("cut-short");
  const course::GrayImage picture = course::random_gray(29, 13, 7);
  course::save_png(dir / "whole.png", picture);
  check_cut_offs(dir, "picture.png", read_bytes(dir / "whole.png"), "the PNG data is damaged or cut off");
  // stb 2.30 returns the top of a JPEG whose scan stops early; the course wants its end marker.
  check_cut_offs(dir, "picture.jpg", read_bytes(course::project_root() / "data/hubble_deep_field.jpg"),
                 "the JPEG data is damaged or cut off");
  auto le = [](std::uint32_t v, int bytes) {
    std::string out;
    for (int b = 0; b < bytes; ++b) out += static_cast<char>((v >> (8 * b)) & 0xFF);
    return out;
  };
  std::string pixels;
  for (int i = 0; i < 29 * 13 * 3; ++i) pixels += static_cast<char>(i * 7);
  // A 24-bit BMP, rows padded to 88 bytes but for the last, whose padding a BMP may lack.
  std::string rows;
  for (int y = 0; y < 13; ++y) rows += pixels.substr(std::size_t(y) * 87, 87) + std::string(y < 12 ? 1 : 0, '\0');
  const std::string info = le(40, 4) + le(29, 4) + le(13, 4) + le(1, 2) + le(24, 2) + le(0, 4) + le(0, 4) +
                           le(2835, 4) + le(2835, 4) + le(0, 4) + le(0, 4);
  check_cut_offs(dir, "picture.bmp", "BM" + le(54 + 88 * 13 - 1, 4) + le(0, 4) + le(54, 4) + info + rows,
                 "the BMP data is cut off");
  check_cut_offs(dir, "picture.ppm", "P6\n# a comment\n29 13\n255\n" + pixels, "the PNM data is cut off");
  const char header[18] = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 29, 0, 13, 0, 24, 0x20};
  check_cut_offs(dir, "raw.tga", std::string(header, 18) + pixels, "the TGA data is cut off");
  // Run-length coded: 13 rows of one run (a packet byte and a pixel) and 28 literal pixels.
  std::string packets;
  for (int y = 0; y < 13; ++y) packets += "\x80" + pixels.substr(0, 3) + "\x1b" + pixels.substr(3, 28 * 3);
  std::string rle_header(header, 18);
  rle_header[2] = 10;
  check_cut_offs(dir, "run-length.tga", rle_header + packets, "the TGA data is cut off");
}

TEST_CASE("a JPEG that lacks only its end-of-image marker is refused") {
  const fs::path dir = fresh_dir("jpeg-end");
  const std::string whole = read_bytes(course::project_root() / "data/hubble_deep_field.jpg");
  REQUIRE(whole.substr(whole.size() - 2) == "\xff\xd9");
  write_bytes(dir / "no-end.jpg", whole.substr(0, whole.size() - 2));
  const std::string message = load_error(dir / "no-end.jpg");
  CHECK(message.find("the JPEG data is damaged or cut off (the file ends before its end-of-image marker)") !=
        std::string::npos);
}

TEST_CASE("a PNM header that the file cuts short, or that promises no pixels, is named as such") {
  const fs::path dir = fresh_dir("pnm-header");
  write_bytes(dir / "short.pgm", "P5\n29 13\n25");
  CHECK(load_error(dir / "short.pgm").find("the PNM data is cut off (11 bytes, the file ends inside its header)") !=
        std::string::npos);
  write_bytes(dir / "empty.pgm", "P5\n0 13\n255\n");
  CHECK(load_error(dir / "empty.pgm").find("the PNM header says 0x13 pixels, an empty picture") != std::string::npos);
  write_bytes(dir / "largest.pgm", "P5\n1 1\n70000\n\x01\x02\x03\x04");
  CHECK(load_error(dir / "largest.pgm").find("the PNM header's largest value is 70000, not 1 to 65535") !=
        std::string::npos);
}

TEST_CASE("an empty file, a text file and a folder each get their own reason") {
  CHECK(load_error(hostile("empty.png")).find("the file is empty") != std::string::npos);
  CHECK(load_error(hostile("not-an-image.png")).find("not an image the course can read") != std::string::npos);
  CHECK(load_error(hostile("")).find("it is a folder") != std::string::npos);
}

TEST_CASE("a save that cannot complete leaves neither the file nor a temporary behind") {
  const fs::path dir = fresh_dir("save");
  const course::GrayImage image = course::random_gray(5, 3, 1);
  // The target is a folder: refused, and the folder holds nothing new.
  fs::create_directories(dir / "taken.png");
  CHECK_THROWS_AS(course::save_png(dir / "taken.png", image), course::InputError);
  // The parent is a plain file: no folder can be made there.
  write_bytes(dir / "plain", "x");
  CHECK_THROWS_AS(course::save_png(dir / "plain" / "out.png", image), course::InputError);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  CHECK(names.size() == 2);  // only "taken.png" (a folder) and "plain"
}

TEST_CASE("an option followed by another option reports its missing value instead of swallowing the next") {
  CHECK(usage_error({"--input", "--size", "64x64"}, [](const course::Options&) {}) ==
        "option '--input' needs a value (IMG)");
  CHECK(usage_error({"--radius"}, [](const course::Options&) {}) == "option '--radius' needs a value (R)");
  // A negative number is still a value, and so is a lone "--"-free dash.
  course::Options options = lesson_like_options();
  options.parse({"--offset", "-3", "--variant", "-"});
  CHECK(options.integer("offset", -10, 10) == -3);
  CHECK(options.text("variant") == "-");
}

TEST_CASE("numbers with junk, overflow, fractions or infinities are refused with the option's range") {
  auto repeat = [](const course::Options& o) { o.integer("repeat", 1, 1000); };
  for (const char* bad : {"abc", "3junk", "1.5", "-1", "0", "1001", "99999999999999999999", ""}) {
    CAPTURE(bad);
    CHECK(usage_error({"--repeat", bad}, repeat).find("option '--repeat' must be a whole number from 1 to 1000") == 0);
  }
  auto sigma = [](const course::Options& o) { o.number("sigma", 1e-3, 1e3); };
  for (const char* bad : {"inf", "nan", "-1", "0", "1e999", "two"}) {
    CAPTURE(bad);
    CHECK(usage_error({"--sigma", bad}, sigma).find("option '--sigma' must be a number from") == 0);
  }
}

TEST_CASE("sizes with zero, negative, huge or missing sides are refused") {
  auto size = [](const course::Options& o) { o.size("size"); };
  for (const char* bad : {"0x5", "5x0", "-5x3", "100000x100000", "64x", "x64", "x", "64x64x3", "4294967360x1"}) {
    CAPTURE(bad);
    CHECK(usage_error({"--size", bad}, size).find("option '--size' must be WIDTHxHEIGHT") == 0);
  }
}

TEST_CASE("the filter options refuse a negative or too large radius, sigma <= 0 and an unknown filter") {
  auto filter = [](const course::Options& o) { course::read_filter(o, 16); };
  CHECK(usage_error({"--radius", "-1"}, filter).find("option '--radius' must be a whole number from 0 to 16") == 0);
  CHECK(usage_error({"--radius", "17"}, filter).find("not '17'") != std::string::npos);
  CHECK(usage_error({"--sigma", "0"}, filter).find("option '--sigma' must be a number from") == 0);
  CHECK(usage_error({"--sigma", "-2"}, filter).find("option '--sigma'") == 0);
  CHECK(usage_error({"--filter", "sharpen"}, filter) == "option '--filter' must be one of: gaussian, box (not 'sharpen')");
  CHECK(usage_error({"--filter", "box", "--sigma", "2"}, filter) == "option '--sigma' only applies to --filter gaussian");
}

TEST_CASE("a matrix with the wrong count of numbers names the option and both counts") {
  auto matrix = [](const course::Options& o) { o.numbers("matrix", 6); };
  CHECK(usage_error({"--matrix", "1,0,0,1"}, matrix) == "option '--matrix' needs 6 comma-separated numbers, got 4");
  CHECK(usage_error({"--matrix", "1,0,0,1,0,0,7"}, matrix).find("got 7") != std::string::npos);
  CHECK(usage_error({"--matrix", "1,0,x,1,0,0"}, matrix) == "option '--matrix': 'x' is not a number");
  CHECK(usage_error({"--matrix", "1,,0,1,0,0"}, matrix) == "option '--matrix': '' is not a number");
  CHECK(usage_error({"--matrix", "1,0,inf,1,0,0"}, matrix).find("'inf' is not a number") != std::string::npos);
}

TEST_CASE("an unknown variant name is refused with the list of variants") {
  auto variant = [](const course::Options& o) { o.choice("variant", {"naive", "tiled"}); };
  CHECK(usage_error({"--variant", "fast"}, variant) == "option '--variant' must be one of: naive, tiled (not 'fast')");
}

TEST_CASE("unknown options, stray words and values given to flags are usage errors") {
  auto nothing = [](const course::Options&) {};
  CHECK(usage_error({"--radious", "3"}, nothing).find("unknown option '--radious'") == 0);
  CHECK(usage_error({"photo.png"}, nothing).find("unexpected argument 'photo.png'") == 0);
  CHECK(usage_error({"--quick=yes"}, nothing) == "option '--quick' takes no value");
  CHECK(usage_error({"--"}, nothing).find("unexpected argument '--'") == 0);
}
