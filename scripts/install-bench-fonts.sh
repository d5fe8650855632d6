#!/usr/bin/env bash
# Fonts for benchmarks that render screens (Tests/SecretCases/rendered.py): the shapes of text
# people see, beyond the DejaVu that install-deps.sh brings. Lens itself needs none of them.
set -euo pipefail
packages=(fonts-liberation2 fonts-noto-core fonts-noto-mono fonts-roboto-unhinted fonts-open-sans fonts-hack fonts-firacode fonts-inconsolata)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  sudo_cmd=(); [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
