"""Draw the theme's PNG icons (app, maskable, Apple touch, shortcuts) in pure Python.

Run it (``invoke icons`` in the repository) after changing a shape or a colour; it
rewrites ``static/icons/*.png`` beside it. The shapes are signed-distance functions in the
64-unit design space of ``icon.svg``; one sample per pixel with the distance as
coverage gives smooth edges without supersampling. Output is an indexed PNG
(palette + transparency), which is what keeps each file to a few kilobytes.
Deterministic: the same script always writes the same bytes.
"""

import math
import struct
import sys
import zlib
from pathlib import Path

ICONS_DIR = Path(__file__).resolve().parent / "static" / "icons"
BRAND = (0x0B, 0x5D, 0x3B)  # --brand in static/css/dalil.css
GLYPH = (0xFF, 0xFF, 0xFF)
DESIGN = 64.0  # icon.svg's viewBox
LEVELS = 63  # coverage steps: few colours, so the palette stays under 256


# -- signed distances, in design units (negative inside) ----------------------

def disc(cx, cy, r):
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def ring(cx, cy, r, width):
    return lambda x, y: abs(math.hypot(x - cx, y - cy) - r) - width / 2


def capsule(ax, ay, bx, by, r):
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy

    def sdf(x, y):
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
        return math.hypot(x - ax - t * dx, y - ay - t * dy) - r
    return sdf


def rounded_box(x0, y0, x1, y1, r):
    cx, cy, hx, hy = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - r, (y1 - y0) / 2 - r

    def sdf(x, y):
        qx, qy = abs(x - cx) - hx, abs(y - cy) - hy
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
        return outside + min(max(qx, qy), 0.0) - r
    return sdf


def box_outline(x0, y0, x1, y1, r, width):
    inner = rounded_box(x0, y0, x1, y1, r)
    return lambda x, y: abs(inner(x, y)) - width / 2


def polygon(*points):
    """Exact distance to a simple polygon (Inigo Quilez's formulation)."""
    count = len(points)

    def sdf(x, y):
        best = float("inf")
        sign = 1.0
        j = count - 1
        for i in range(count):
            (xi, yi), (xj, yj) = points[i], points[j]
            ex, ey = xj - xi, yj - yi
            wx, wy = x - xi, y - yi
            t = max(0.0, min(1.0, (wx * ex + wy * ey) / (ex * ex + ey * ey)))
            best = min(best, math.hypot(wx - ex * t, wy - ey * t))
            crosses = (y >= yi, y < yj, ex * wy > ey * wx)
            if all(crosses) or not any(crosses):
                sign = -sign
            j = i
        return sign * best
    return sdf


def union(*shapes):
    return lambda x, y: min(shape(x, y) for shape in shapes)


# -- the glyphs (white on the brand colour) ------------------------------------

GLYPHS = {
    # icon.svg's magnifying glass
    "search": union(ring(28, 28, 13, 6), capsule(39, 39, 50, 50, 3.5)),
    # four tiles: the directory's categories
    "directory": union(*(rounded_box(x, y, x + 16, y + 16, 3)
                         for x in (14, 34) for y in (14, 34))),
    # a page with lines of text, right-aligned as Arabic is
    "news": union(box_outline(13, 13, 51, 51, 5, 4), capsule(21, 25, 43, 25, 2),
                  capsule(21, 32, 43, 32, 2), capsule(29, 39, 43, 39, 2)),
    # a bookmark
    "saved": polygon((20, 11), (44, 11), (44, 53), (32, 42), (20, 53)),
}

# name: (size in px, glyph, glyph scale around the centre, rounded corners?)
ICONS = {
    "icon-192.png": (192, "search", 1.0, True),
    "icon-512.png": (512, "search", 1.0, True),
    # Maskable: full bleed; the glyph stays inside the safe zone (a circle of 40 %).
    "icon-maskable-512.png": (512, "search", 0.8, False),
    # iOS rounds the corners itself and shows transparency as black.
    "apple-touch-icon.png": (180, "search", 0.85, False),
    "shortcut-search.png": (96, "search", 1.0, True),
    "shortcut-directory.png": (96, "directory", 1.0, True),
    "shortcut-news.png": (96, "news", 1.0, True),
    "shortcut-saved.png": (96, "saved", 1.0, True),
}


def coverage(distance_px):
    """Anti-aliased coverage of a pixel whose centre is ``distance_px`` from the edge."""
    value = max(0.0, min(1.0, 0.5 - distance_px))
    return round(value * LEVELS)


def render(size, glyph_name, scale, rounded):
    """Rows of palette indices and the palette (RGBA tuples)."""
    glyph = GLYPHS[glyph_name]
    background = rounded_box(0, 0, DESIGN, DESIGN, 14) if rounded else None
    unit = size / DESIGN  # pixels per design unit
    centre = DESIGN / 2
    palette, index, rows = [], {}, []
    for py in range(size):
        row = bytearray()
        y = (py + 0.5) / unit
        for px in range(size):
            x = (px + 0.5) / unit
            alpha = coverage(background(x, y) * unit) if background else LEVELS
            ink = 0
            if alpha:
                gx, gy = centre + (x - centre) / scale, centre + (y - centre) / scale
                ink = coverage(glyph(gx, gy) * unit * scale)
            key = (alpha, ink)
            if key not in index:
                index[key] = len(palette)
                palette.append(key)
            row.append(index[key])
        rows.append(bytes(row))
    colours = []
    for alpha, ink in palette:
        rgb = tuple(round(b + (g - b) * ink / LEVELS) for b, g in zip(BRAND, GLYPH))
        colours.append((*rgb, round(255 * alpha / LEVELS)))
    return rows, colours


def png(rows, colours):
    """An 8-bit indexed PNG; transparency only when some pixel needs it."""
    if len(colours) > 256:
        raise ValueError("too many colours for a palette PNG")
    width, height = len(rows[0]), len(rows)

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    plte = b"".join(bytes(colour[:3]) for colour in colours)
    alphas = bytes(colour[3] for colour in colours).rstrip(b"\xff")
    raw = b"".join(b"\x00" + row for row in rows)  # filter "none" suits palettes
    parts = [b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", header), chunk(b"PLTE", plte)]
    if alphas:
        parts.append(chunk(b"tRNS", alphas))
    parts += [chunk(b"IDAT", zlib.compress(raw, 9)), chunk(b"IEND", b"")]
    return b"".join(parts)


def main(target=ICONS_DIR):
    target = Path(target)
    target.mkdir(parents=True, exist_ok=True)
    for name, (size, glyph, scale, rounded) in ICONS.items():
        data = png(*render(size, glyph, scale, rounded))
        (target / name).write_bytes(data)
        print(f"{name}: {size}x{size}, {len(data)} bytes")


if __name__ == "__main__":
    main(*sys.argv[1:])
