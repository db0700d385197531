#!/usr/bin/env python3
"""Writes the small hostile inputs the reliability tests feed to the lessons.

Each file is a few bytes; they are committed, and this script says how they were made.
Run it from any folder: it writes next to itself.
"""
import pathlib
import struct
import zlib

here = pathlib.Path(__file__).resolve().parent


def png_chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


# Zero bytes: what an interrupted download or `touch photo.png` leaves.
(here / "empty.png").write_bytes(b"")

# Text with an image's name.
(here / "not-an-image.png").write_bytes(b"These are notes about a photograph, not a photograph.\n")

# A valid PNG header that claims 100000 x 100000 gray pixels (10^10 bytes decoded), with a few
# bytes of data: a loader that trusts the header allocates gigabytes before finding out.
header = struct.pack(">IIBBBBB", 100000, 100000, 8, 0, 0, 0, 0)
(here / "huge-header.png").write_bytes(
    b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(b"\0" * 64))
    + png_chunk(b"IEND", b""))

# A BMP header that claims 100000 x 100000 pixels at 24 bits, and no pixels.
bmp_info = struct.pack("<IiiHHIIiiII", 40, 100000, 100000, 1, 24, 0, 0, 2835, 2835, 0, 0)
(here / "huge-header.bmp").write_bytes(b"BM" + struct.pack("<IHHI", 54, 0, 0, 54) + bmp_info)

# A binary PGM whose header promises 640 x 480 pixels but whose data stops after 100.
(here / "cut-off.pgm").write_bytes(b"P5\n640 480\n255\n" + bytes(range(100)))

# A 24-bit BMP whose header promises 640 x 480 pixels but whose data stops after 100 bytes.
bmp_info = struct.pack("<IiiHHIIiiII", 40, 640, 480, 1, 24, 0, 0, 2835, 2835, 0, 0)
(here / "cut-off.bmp").write_bytes(b"BM" + struct.pack("<IHHI", 54 + 640 * 480 * 3, 0, 0, 54) + bmp_info
                                   + bytes(range(100)))

# A raw 32-bit TGA whose header promises 2000 x 1000 pixels, with 64 bytes of them.
tga_header = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, 2000, 1000, 32, 0x28)
(here / "cut-off.tga").write_bytes(tga_header + bytes(64))
