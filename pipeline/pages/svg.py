"""Charts written as inline SVG text: lines, points and a histogram, as the list
reports, the comparison page and the site draw them. Plain text from the numbers, no plotting library
(nothing to load, byte-identical reruns); every label escaped."""
from __future__ import annotations

import math
from html import escape

COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")
WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 12, 40
MARKED = 30  # lines of at most this many points get a marker (with its value) on each


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (steps of 1, 2 or 5 times a power of ten)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    return [first + i * step for i in range(int(math.ceil((high - first) / step)) + 1)]


def chart_frame(ticks: list[float], y, x_labels: list[tuple[float, str]], y_title: str, x_title: str) -> list[str]:
    """The opening of a chart's SVG: its frame, the y ticks' lines and labels, the x labels
    and both titles (the parts a chart then adds its marks to and closes)."""
    bottom = HEIGHT - BOTTOM
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'font-family="sans-serif" font-size="11">']
    for t in ticks:
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#ddd"/>'
                     f'<text x="{LEFT - 4}" y="{y(t) + 4:.1f}" text-anchor="end" fill="#555">{t:g}</text>')
    for x, label in x_labels:
        parts.append(f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle" fill="#555">{escape(label)}</text>')
    if y_title:
        parts.append(f'<text x="12" y="{(TOP + bottom) / 2:.0f}" transform="rotate(-90 12 {(TOP + bottom) / 2:.0f})" '
                     f'text-anchor="middle" fill="#333">{escape(y_title)}</text>')
    if x_title:
        parts.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle" '
                     f'fill="#333">{escape(x_title)}</text>')
    return parts


DASHES = {"solid": "", "dashed": ' stroke-dasharray="6 3"', "dotted": ' stroke-dasharray="2 3"'}


def line_chart(lines: dict[str, list[tuple[float, float]]], x_labels: dict[float, str] | None = None,
               y_title: str = "", x_title: str = "", legend: bool = True, styles: dict[str, str] | None = None,
               colours: dict[str, str] | None = None) -> str:
    """Lines of (x, y) points, one colour each (the first eight colours, then again, or
    `colours`), solid unless `styles` says dashed or dotted; `x_labels`: the text under
    some x values; a legend of the names when there are several."""
    points = [p for line in lines.values() for p in line if not math.isnan(p[1])]
    if not points:
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}"></svg>'
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    ticks = nice_ticks(min(ys), max(ys))
    x_low, x_high = min(xs), max(max(xs), min(xs) + 1)
    right = WIDTH - RIGHT - (150 if legend and len(lines) > 1 else 0)
    x = lambda v: LEFT + (v - x_low) / (x_high - x_low) * (right - LEFT)  # noqa: E731
    y = lambda v: HEIGHT - BOTTOM - (v - ticks[0]) / (ticks[-1] - ticks[0]) * (HEIGHT - BOTTOM - TOP)  # noqa: E731
    parts = chart_frame(ticks, y, [(x(v), t) for v, t in (x_labels or {}).items()], y_title, x_title)
    for k, (name, line) in enumerate(lines.items()):
        colour = (colours or {}).get(name, COLOURS[k % len(COLOURS)])
        dash = DASHES[(styles or {}).get(name, "solid")]
        shown = [(a, b) for a, b in line if not math.isnan(b)]
        path = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in shown)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{path}"/>')
        if len(shown) <= MARKED:  # a long line is read from its table: no marker a point
            parts.append(f'<g fill="{colour}">' + "".join(
                f'<circle cx="{x(a):.1f}" cy="{y(b):.1f}" r="2.5"><title>{escape(name)}: {b:g}</title></circle>'
                for a, b in shown) + "</g>")
        if legend and len(lines) > 1:
            parts.append(f'<line x1="{right + 10}" x2="{right + 22}" y1="{TOP + 14 * k + 1}" y2="{TOP + 14 * k + 1}" '
                         f'stroke="{colour}" stroke-width="2"{dash}/>'
                         f'<text x="{right + 26}" y="{TOP + 14 * k + 5}" fill="#333">{escape(name[:30])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def scatter(points: list[tuple[float, float]], x_title: str = "", y_title: str = "") -> str:
    """Points (x, y), on equal scales with the diagonal x = y drawn."""
    if not points:
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}"></svg>'
    values = [v for p in points for v in p]
    ticks = nice_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]
    x = lambda v: LEFT + (v - low) / (high - low) * (WIDTH - RIGHT - LEFT)  # noqa: E731
    y = lambda v: HEIGHT - BOTTOM - (v - low) / (high - low) * (HEIGHT - BOTTOM - TOP)  # noqa: E731
    parts = chart_frame(ticks, y, [(x(t), f"{t:g}") for t in ticks], y_title, x_title)
    parts.append(f'<line x1="{x(low):.1f}" y1="{y(low):.1f}" x2="{x(high):.1f}" y2="{y(high):.1f}" stroke="#999"/>')
    parts.append('<g fill="#4c72b0" fill-opacity="0.4">' + "".join(
        f'<circle cx="{x(a):.1f}" cy="{y(b):.1f}" r="1.5"/>' for a, b in points) + "</g>")
    parts.append("</svg>")
    return "".join(parts)


def histogram(values: list[float], start: float, stop: float, width: float, x_title: str = "",
              y_title: str = "") -> str:
    """Counts of `values` in bins of `width` from `start` to `stop`, as bars."""
    counts: dict[float, int] = {}
    for v in values:
        if start <= v < stop:
            low = start + (v - start) // width * width
            counts[low] = counts.get(low, 0) + 1
    return bars(counts, start, stop, width, x_title, y_title)


def bars(counts: dict[float, int], start: float, stop: float, width: float, x_title: str = "",
         y_title: str = "") -> str:
    """Bars of the counts of bins (each bin's low end: count), `width` wide, from `start` to `stop`."""
    ticks = nice_ticks(0, max(counts.values(), default=0) or 1)
    x = lambda v: LEFT + (v - start) / (stop - start) * (WIDTH - RIGHT - LEFT)  # noqa: E731
    y = lambda v: HEIGHT - BOTTOM - v / ticks[-1] * (HEIGHT - BOTTOM - TOP)  # noqa: E731
    labels = [(x(v), f"{v:g}") for v in nice_ticks(start, stop, 8) if start <= v <= stop]
    parts = chart_frame(ticks, y, labels, y_title, x_title)
    parts.append('<g fill="#4c72b0">' + "".join(
        f'<rect x="{x(low) + 0.5:.1f}" y="{y(c):.1f}" width="{x(width) - x(0) - 1:.1f}" '
        f'height="{y(0) - y(c):.1f}"><title>{low:g}–{low + width:g}: {c}</title></rect>'
        for low, c in sorted(counts.items()) if c and start <= low < stop) + "</g>")
    parts.append("</svg>")
    return "".join(parts)
