#!/usr/bin/env bash
# The demo: install what is missing, build Lens in release mode, import the bundled samples
# into a throw-away database and search them.
set -euo pipefail
cd "$(dirname "$0")/.."

LENS_DEPS=run bash scripts/install-deps.sh
swift build -c release --product lens
lens=".build/release/lens"

# A fresh demo database under .build (ignored by git), kept so that the page can show it afterwards.
db=".build/demo/lens-demo.db"
rm -rf .build/demo

echo; echo "\$ lens import samples/"
"$lens" import --db "$db" samples/
for query in '"quarterly report"' 'cafe lumiere' '555-0132' 'example.org/docs' 'deploy*' 'tickets'; do
  echo; echo "\$ lens search $query"
  "$lens" search --db "$db" "$query"
done
# The 2FA sample's QR code holds a TOTP secret: it is masked before it is stored.
echo; echo "\$ lens search JBSWY3DPEHPK3PXP    # the 2FA secret on samples/qr_dark_2fa.png"
"$lens" search --db "$db" JBSWY3DPEHPK3PXP
echo; echo "\$ lens search --type secret"
"$lens" search --db "$db" --type secret
echo; echo "\$ lens show samples/qr_dark_2fa.png"
"$lens" show --db "$db" samples/qr_dark_2fa.png
echo; echo "\$ lens show samples/qr_ticket.png --mark-below 80"
"$lens" show --db "$db" samples/qr_ticket.png --mark-below 80
echo; echo "\$ lens status"
"$lens" status --db "$db"
echo
echo "See the same library in your browser (Ctrl-C stops it):"
echo "  $lens serve --db $db"
