#!/usr/bin/env bash
# Builds Lens in release mode and installs it for the current user: the binary, shell completions
# (bash, zsh, fish) and man pages generated from the command definitions, and the systemd user
# unit (not enabled: see the README). PREFIX (default ~/.local) decides where.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${PREFIX:-$HOME/.local}

LENS_DEPS=run bash scripts/install-deps.sh
swift build -c release --product lens
install -Dm755 .build/release/lens "$prefix/bin/lens"

lens="$prefix/bin/lens"
"$lens" --generate-completion-script bash | install -Dm644 /dev/stdin "$prefix/share/bash-completion/completions/lens"
"$lens" --generate-completion-script zsh | install -Dm644 /dev/stdin "$prefix/share/zsh/site-functions/_lens"
"$lens" --generate-completion-script fish | install -Dm644 /dev/stdin "$prefix/share/fish/vendor_completions.d/lens.fish"

# One page per command (lens.1, lens.search.1, ...), from swift-argument-parser's generate-manual plugin.
swift package plugin --allow-writing-to-package-directory generate-manual --multi-page >/dev/null
for page in .build/plugins/GenerateManual/outputs/lens/*.1; do
  install -Dm644 "$page" "$prefix/share/man/man1/$(basename "$page")"
done

install -Dm644 systemd/lens.service "${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/lens.service"
install -Dm644 systemd/lens-web.service "${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/lens-web.service"

echo "Installed $lens, completions, man pages (man lens) and the user units lens and lens-web."
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "Add $prefix/bin to PATH." ;; esac
echo "zsh: add $prefix/share/zsh/site-functions to fpath if it is not there."
