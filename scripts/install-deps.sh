#!/usr/bin/env bash
# Installs the Debian packages Lens builds and runs with (uses sudo when not root).
# Swift itself is not a Debian package: it must already be on PATH (see README).
set -euo pipefail

packages=(
  pkg-config
  libtesseract-dev libleptonica-dev tesseract-ocr-eng   # OCR (libtesseract C API + leptonica)
  tesseract-ocr-osd                                     # Tesseract's orientation model: the language-switch test reads with it
  libzbar-dev                                           # QR codes and barcodes, decoded in the OCR pass
  libphonenumber-dev libprotobuf-dev                    # phone numbers (C++, wrapped by CPhoneNumber)
  publicsuffix                                          # the Public Suffix List, for bare-domain URLs
  graphviz                                              # lens graph --format svg (dot, sfdp); the tests run both
  libsqlite3-dev                                        # SQLite with FTS5, used through GRDB
  zlib1g-dev                                            # stored text is deflated
  systemd                                               # systemd-analyze checks the user unit in the tests
  xdg-utils                                             # lens open starts the browser with xdg-open
)
# Only for the tests: the page is tested in a real browser (LENS_DEPS=run skips these).
test_packages=(
  chromium chromium-driver                              # lens serve's page, driven by Selenium
  fonts-dejavu-core                                     # the browser tests render screenshots with it
  python3-venv                                          # a venv for Selenium, pytest and Pillow from PyPI (test tooling only)
  curl iproute2                                         # lens serve reached from a second network namespace
)
[[ "${LENS_DEPS:-test}" == "run" ]] || packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null; then
  echo "swift is not on PATH: install Swift 6 for Linux (https://www.swift.org/install/linux/) and retry." >&2
  exit 2
fi
