#!/usr/bin/env python3
"""Renders screenshots with (fake) secrets on them, for Lens's privacy tests.

Run from this folder: python3 make.py   (needs Pillow, fonts-dejavu-core and qrencode, like samples/make_samples.py)
Every value is a published test value or made up here: Stripe's test card, the IBAN example of
the standard, AWS's documented example key, a random token in GitHub's shape. secrets.json lists
the values that must be in no file Lens writes, and words next to them that must still find the
screenshot. The PNGs are committed, so the tests never run this script.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../samples"))
from make_samples import draw  # noqa: E402

SHOTS = {
    # A checkout page, light, UI size.
    "checkout_light": dict(
        size=(820, 380), bg=(255, 255, 255), fg=(30, 30, 30), font="DejaVuSans.ttf", px=17,
        lines=[
            "Checkout - Marigold Bakery",
            "Card number 4242 4242 4242 4242",
            "Expiry 12/29   CVC 737",
            "Pay by transfer: IBAN DE89 3704 0044 0532 0130 00",
            "Total due 48.20 EUR",
        ]),
    # A terminal, dark, small monospaced text.
    "terminal_secrets_dark": dict(
        size=(900, 300), bg=(12, 12, 12), fg=(210, 210, 210), font="DejaVuSansMono.ttf", px=13,
        lines=[
            "$ export GITHUB_TOKEN=ghp_Zq8RkW2mT5xVb7NcLp4HsJd9FgYa3Ue6Qi0O",
            "$ aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE",
            "$ psql postgres://deploy:Tr0ub4dor3xK@db.internal:5432/orders",
            "$ git log --oneline -1",
            "9fceb02d0ae598e95dc970b74767f19372d61af8 Fix rounding in invoices",
        ]),
    # A chat, light, small text: a one-time code and a Wi-Fi password.
    "chat_codes_small": dict(
        size=(700, 260), bg=(248, 248, 248), fg=(40, 40, 40), font="DejaVuSans.ttf", px=12,
        lines=[
            "Marigold Bank: 804513 is your verification code. Do not share it.",
            "Wi-Fi for the bakery guests, password: Sunfl0wer!92",
            "See you at the bakery on Friday",
        ]),
    # A Wi-Fi QR code in dark mode: the password is in the payload only.
    "wifi_qr_dark": dict(
        size=(760, 330), bg=(24, 26, 30), fg=(225, 225, 225), font="DejaVuSans.ttf", px=17,
        qr="WIFI:T:WPA;S:Marigold Guests;P:Cr0issant-Oven-77;;",
        lines=[
            "Marigold Guests network",
            "Scan to join the Wi-Fi",
        ]),
}

EXPECTED = {
    "checkout_light": dict(values=["4242 4242 4242 4242", "4242424242424242", "DE89 3704 0044 0532 0130 00", "737"],
                           kinds=["card", "iban"], words=["Checkout", "Marigold", "transfer"]),
    "terminal_secrets_dark": dict(values=["ghp_Zq8RkW2mT5xVb7NcLp4HsJd9FgYa3Ue6Qi0O", "AKIAIOSFODNN7EXAMPLE", "Tr0ub4dor3xK"],
                                  kinds=["api_key"], words=["export", "configure", "orders", "rounding"]),
    "chat_codes_small": dict(values=["804513", "Sunfl0wer!92"], kinds=["otp", "password"], words=["verification", "bakery"]),
    "wifi_qr_dark": dict(values=["Cr0issant-Oven-77"], kinds=["password"], words=["Guests", "network"]),
}

if __name__ == "__main__":
    for name, spec in SHOTS.items():
        draw(name, spec)
    with open("secrets.json", "w", encoding="utf-8") as f:
        json.dump(EXPECTED, f, indent=2)
        f.write("\n")
