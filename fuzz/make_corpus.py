#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus: one tiny picture in each format and flavour the course reads.

Small (8x6 pixels) so that the fuzzer mutates headers and compressed data, not pixels.
Needs OpenCV's Python module (python3-opencv). Writes into corpus/ next to itself.
"""
import pathlib
import struct

try:
    import cv2
    import numpy as np
except ImportError:  # exit 2, as the course does for a missing package
    import sys
    print("fuzz/make_corpus.py needs OpenCV for Python, which is not installed here: "
          "sudo apt-get install python3-opencv (Debian, Ubuntu)", file=sys.stderr)
    sys.exit(2)

corpus = pathlib.Path(__file__).resolve().parent / "corpus"
corpus.mkdir(exist_ok=True)

height, width = 6, 8
y, x = np.mgrid[0:height, 0:width]
gray = ((x * 29 + y * 41) % 256).astype(np.uint8)
colour = np.dstack([gray, 255 - gray, (x * 60 % 256).astype(np.uint8)])
alpha = np.dstack([colour, np.full((height, width), 200, np.uint8)])
gray16 = gray.astype(np.uint16) * 257


def encode(name, image, params=()):
    ok, data = cv2.imencode(pathlib.Path(name).suffix, image, list(params))
    assert ok, name
    (corpus / name).write_bytes(data.tobytes())


encode("gray.png", gray)
encode("colour.png", colour)
encode("alpha.png", alpha)
encode("gray16.png", gray16)
encode("palette-like.png", gray, [cv2.IMWRITE_PNG_BILEVEL, 1])
encode("gray.jpg", gray, [cv2.IMWRITE_JPEG_QUALITY, 80])
encode("colour.jpg", colour, [cv2.IMWRITE_JPEG_QUALITY, 80])
encode("progressive.jpg", colour, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
encode("colour.bmp", colour)
encode("gray.bmp", gray)
encode("gray.pgm", gray, [cv2.IMWRITE_PXM_BINARY, 1])
encode("colour.ppm", colour, [cv2.IMWRITE_PXM_BINARY, 1])
encode("gray16.pgm", gray16, [cv2.IMWRITE_PXM_BINARY, 1])

# An uncompressed 24-bit TGA, written by hand (OpenCV does not write TGA).
tga_header = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, width, height, 24, 0x20)
(corpus / "colour.tga").write_bytes(tga_header + colour[:, :, ::-1].tobytes())
