#!/usr/bin/env python3
"""Regenerates Lens's bundled sample screenshots and their ground-truth text.

Run from this folder: python3 make_samples.py   (needs Pillow, Debian's fonts-dejavu-core and qrencode)
Each NAME.png is drawn with real TrueType fonts at UI sizes; NAME.txt holds the text drawn,
one line per line. The PNGs are committed, so Lens's tests and demo never run this script.
"""
import io
import subprocess

from PIL import Image, ImageDraw, ImageFont, ImageOps

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
    # 11 px UI text: the size Tesseract misses most without upscaling.
    "small_text": dict(
        size=(640, 200), bg=(250, 250, 250), fg=(60, 60, 60), font="DejaVuSans.ttf", px=11,
        lines=[
            "Settings > Notifications > Advanced",
            "Send a summary every Monday at 08:30 to ops-team@example.org",
            "Retention period for archived conversations is 90 days",
            "Last synchronized on 2024-11-05 by Mateo Lefebvre",
        ]),
    # A phone screenshot at device scale 3: 16 px CSS text drawn 48 px high.
    "retina_chat": dict(
        size=(390, 420), scale=3, bg=(255, 255, 255), fg=(20, 20, 20), font="DejaVuSans.ttf", px=16,
        lines=[
            "Aoife Byrne",
            "Are we still on for lunch",
            "at the Marigold Bakery?",
            "Table for four at 12:30",
            "Call me on +44 20 7946 0018",
        ]),
    # QR codes: a ticket (dark modules on light) and a 2FA set-up page in dark mode (light modules).
    "qr_ticket": dict(
        size=(760, 330), bg=(255, 255, 255), fg=(30, 30, 30), font="DejaVuSans.ttf", px=17,
        qr="https://example.org/tickets/8F3K2Q?seat=14C",
        lines=[
            "Harbour Line Ferries",
            "Boarding pass 8F3K2Q",
            "Seat 14C, departs 09:45",
            "Scan at the gate",
        ]),
    "qr_dark_2fa": dict(
        size=(760, 330), bg=(24, 26, 30), fg=(225, 225, 225), font="DejaVuSans.ttf", px=17,
        qr="otpauth://totp/Lens:priya@example.org?secret=JBSWY3DPEHPK3PXP&issuer=Lens",
        lines=[
            "Two-factor authentication",
            "Scan this code with your",
            "authenticator app",
        ]),
    # A contact card that shares a person with chat_dark and a phone number with receipt_light:
    # the mind map connects the three.
    "contact_card": dict(
        size=(640, 300), bg=(246, 248, 252), fg=(25, 35, 50), font="DejaVuSans.ttf", px=17,
        lines=[
            "Contact",
            "Priya Nair",
            "Events manager, Café Lumière",
            "Phone (415) 555-0132",
            "priya.nair@cafe-lumiere.example",
        ]),
}


def qr_image(payload, module_px, dark, light):
    """A QR code drawn by qrencode, in the page's colours."""
    png = subprocess.run(["qrencode", "-o", "-", "-s", str(module_px), "-m", "2", payload],
                         check=True, capture_output=True).stdout
    mask = ImageOps.invert(Image.open(io.BytesIO(png)).convert("L"))  # modules are 255
    code = Image.new("RGB", mask.size, light)
    code.paste(Image.new("RGB", mask.size, dark), mask=mask)
    return code


def draw(name, spec):
    scale = spec.get("scale", 1)
    image = Image.new("RGB", (spec["size"][0] * scale, spec["size"][1] * scale), spec["bg"])
    pen = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONTS + spec["font"], spec["px"] * scale)
    y = 24 * scale
    for line in spec["lines"]:
        pen.text((28 * scale, y), line, font=font, fill=spec["fg"])
        y += int(spec["px"] * 2.1 * scale)
    if "qr" in spec:
        code = qr_image(spec["qr"], 4, spec["fg"], spec["bg"])
        image.paste(code, (image.width - code.width - 30, (image.height - code.height) // 2))
    image.save(f"{name}.png", optimize=True)
    with open(f"{name}.txt", "w", encoding="utf-8") as f:
        f.write("\n".join(spec["lines"]) + "\n")


if __name__ == "__main__":
    import sys
    for name, spec in SAMPLES.items():
        if len(sys.argv) == 1 or name in sys.argv[1:]:
            draw(name, spec)
