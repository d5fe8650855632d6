#!/usr/bin/env python3
"""Regenerates Lens's bundled sample screenshots and their ground-truth text.

Run from this folder: python3 make_samples.py   (needs Pillow and Debian's fonts-dejavu-core)
Each NAME.png is drawn with real TrueType fonts at UI sizes; NAME.txt holds the text drawn,
one line per line. The PNGs are committed, so Lens's tests and demo never run this script.
"""
from PIL import Image, ImageDraw, ImageFont

FONTS = "/usr/share/fonts/truetype/dejavu/"

SAMPLES = {
    "receipt_light": dict(
        size=(760, 420), bg=(255, 255, 255), fg=(30, 30, 30), font="DejaVuSans.ttf", px=17,
        lines=[
            "Café Lumière — Receipt #4417",
            "2 x Crème brûlée          $12.50",
            "1 x Espresso doppio        $3.20",
            "Total paid                $15.70",
            "Questions? Call (415) 555-0132",
            "Write to billing@cafe-lumiere.example",
            "Menu: https://example.org/docs/menu?lang=fr",
        ]),
    "chat_dark": dict(
        size=(760, 380), bg=(32, 34, 37), fg=(220, 221, 222), font="DejaVuSans.ttf", px=16,
        lines=[
            "Priya Nair 09:14",
            "The quarterly report draft is ready for review",
            "Jon Smith 09:16",
            "Thanks! I will send comments before Thursday",
            "Priya Nair 09:17",
            "Deployment notes are at wiki.example.com/releases/42",
        ]),
    "terminal": dict(
        size=(760, 330), bg=(0, 0, 0), fg=(200, 200, 200), font="DejaVuSansMono.ttf", px=15,
        lines=[
            "$ git log --oneline -3",
            "4f2a9c1 Fix flaky upload retry in worker pool",
            "9b03e7d Add Prometheus metrics endpoint",
            "1c77d20 Bump tokenizer to version 2.4.1",
            "$ systemctl --user status lens",
            "Active: active (running) since Tue 2024-03-05",
        ]),
}


def draw(name, spec):
    image = Image.new("RGB", spec["size"], spec["bg"])
    pen = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONTS + spec["font"], spec["px"])
    y = 24
    for line in spec["lines"]:
        pen.text((28, y), line, font=font, fill=spec["fg"])
        y += int(spec["px"] * 2.1)
    image.save(f"{name}.png", optimize=True)
    with open(f"{name}.txt", "w", encoding="utf-8") as f:
        f.write("\n".join(spec["lines"]) + "\n")


if __name__ == "__main__":
    for name, spec in SAMPLES.items():
        draw(name, spec)
