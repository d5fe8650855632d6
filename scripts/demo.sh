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
for query in '"quarterly report"' 'cafe lumiere' '555-0132' 'example.org/docs' 'deploy*' 'JBSWY3DPEHPK3PXP'; do
  echo; echo "\$ lens search $query"
  "$lens" search --db "$db" "$query"
done
echo; echo "\$ lens show samples/qr_ticket.png --mark-below 80"
"$lens" show --db "$db" samples/qr_ticket.png --mark-below 80
echo; echo "\$ lens status"
"$lens" status --db "$db"
echo
echo "See the same library in your browser (Ctrl-C stops it):"
echo "  $lens serve --db $db"
