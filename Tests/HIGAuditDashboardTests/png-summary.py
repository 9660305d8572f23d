"""Prints "WIDTH HEIGHT COLOURS LUMINANCE" for an 8-bit RGB(A) PNG: its size, how many distinct colours it
has (up to 4096 counted) and its mean luminance (0-255). The dashboard's browser test uses it to tell a
rendered page from a blank one, and a light page from a dark one, without an image library."""
import struct
import sys
import zlib


def rows(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "only 8-bit RGB or RGBA"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b, c = previous[i], previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + predictor) & 255
        previous = line
        yield width, height, channels, line


colours, total, count = set(), 0, 0
for width, height, channels, line in rows(sys.argv[1]):
    for x in range(0, width * channels, channels * 4):
        r, g, b = line[x], line[x + 1], line[x + 2]
        if len(colours) < 4096:
            colours.add((r, g, b))
        total += (299 * r + 587 * g + 114 * b) // 1000
        count += 1
print(width, height, len(colours), total // max(count, 1))
