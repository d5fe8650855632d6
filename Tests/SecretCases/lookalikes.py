"""How Tesseract's English model reads Greek and Cyrillic letters, measured, for the secret rules'
cue words in those scripts (`пароль`, `κωδικός`).

Lens OCRs with `eng` only, so a Greek or Russian label reaches the rules as Latin lookalikes:
`пароль` as `naponb`, `Naponb`, `Tlapomb`, `NAPOJIb`; `κωδικός` as `KWOLKOG`, `Kw61K6¢`,
`Kwdikdg`. Which ones depends on the font, so this script measures them instead of guessing:

    lookalikes.py table --out DIR [--seeds 7,13,17,19]
        renders the cue words (and a few words sharing their letters) once per font and theme of
        rendered.py, at a random size from 15 to 26 px per seed, OCRs them with `lens-bench ocr`
        (Lens's own preprocessing and Tesseract settings), aligns each reading with its word and
        writes Sources/LensCore/Assets/ocr-lookalikes.tsv: a letter, then every reading seen at
        least three times (`∅`: the letter was not read at all).

    lookalikes.py check --out DIR --lens LENS [--seed 11]
        held out: renders sentences that give a password or a code after those words (at other
        sizes than the table's seeds), OCRs them, and counts how many of the values `lens extract`
        masks. Run it with the binary before and after a change.

Needs chromium and chromedriver (scripts/install-deps.sh), Selenium (Tests/requirements.txt),
and `swift build -c release --product lens-bench`.
"""
import argparse
import collections
import itertools
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rendered  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "Sources", "LensCore", "Assets", "ocr-lookalikes.tsv")
WORDS = ["κωδικός", "Κωδικός", "ΚΩΔΙΚΟΣ", "επαλήθευσης", "πρόσβασης", "είναι",
         "пароль", "Пароль", "ПАРОЛЬ", "код", "Код", "подтверждения"]
# (Held out: values after the words, in sentences the table never saw, at other sizes.)
SENTENCES = [("Ο κωδικός επαλήθευσης είναι 283945", "283945"), ("Κωδικός πρόσβασης: Zq8vN2Lw", "Zq8vN2Lw"),
             ("ΚΩΔΙΚΟΣ: 551203", "551203"), ("Ваш пароль: Qm7rT2xk", "Qm7rT2xk"), ("Пароль: Xk29Lp4v", "Xk29Lp4v"),
             ("ПАРОЛЬ: 7Wq2Hn5c", "7Wq2Hn5c"), ("Ο κωδικός σας είναι 4821", "4821")]


def render(lines, out, seed):
    """One screen per font and theme of rendered.py, the lines one under another; the size drawn
    from 15–26 px by `seed`. Returns the image folder."""
    images = os.path.join(out, f"img-{seed}")
    os.makedirs(images, exist_ok=True)
    rng = random.Random(seed)
    driver = rendered.chrome()
    fonts = [(font, family) for family, names in rendered.FONTS.items() for font in names]
    try:
        for index, ((font, family), theme) in enumerate(itertools.product(fonts, rendered.THEMES)):
            rendered.shoot(driver, rendered.page(lines, font, rng.randint(15, 26), theme, family == "mono"), os.path.join(images, f"w{index:03d}.png"))
    finally:
        driver.quit()
    return images


def read(images, out, lines):
    """OCR each screen with Lens's settings; the screens whose reading has as many lines as were
    drawn, as lists of lines (the others cannot be told apart line by line)."""
    bench = os.path.join(ROOT, ".build", "release", "lens-bench")
    text = images + "-ocr"
    subprocess.run([bench, "ocr", images, "--output", text, "--steps", "psm6", "--workers", "2"], check=True,
                   stdout=subprocess.DEVNULL)
    readings = []
    for name in sorted(os.listdir(os.path.join(text, "psm6"))):
        got = [line for line in open(os.path.join(text, "psm6", name), encoding="utf-8").read().splitlines() if line.strip()]
        if len(got) == len(lines):
            readings.append(got)
    return readings


def align(pairs):
    """Each letter's readings: a word and its reading are aligned by dynamic programming, each
    letter read as zero to three characters (a stray glyph costs the most), with costs from the
    previous pass's counts (the first pass counts the readings as long as their word)."""
    counts = collections.defaultdict(collections.Counter)
    for word, reading in pairs:
        if len(word) == len(reading):
            for a, b in zip(word, reading):
                counts[a][b] += 1

    def cost(letter, chunk):
        seen = counts[letter]
        if not chunk:
            return 3.0
        if seen[chunk]:
            return 1.0 - seen[chunk] / sum(seen.values()) * 0.9
        return 2.0 if len(chunk) == 1 else 2.5

    for _ in range(3):
        new = collections.defaultdict(collections.Counter)
        for word, reading in pairs:
            n, m = len(word), len(reading)
            best = [[float("inf")] * (m + 1) for _ in range(n + 1)]
            back = {}
            best[0][0] = 0.0
            for i in range(n + 1):
                for j in range(m + 1):
                    if best[i][j] == float("inf"):
                        continue
                    if i < n:
                        for k in range(4):
                            if j + k > m:
                                break
                            c = best[i][j] + cost(word[i], reading[j:j + k])
                            if c < best[i + 1][j + k]:
                                best[i + 1][j + k], back[(i + 1, j + k)] = c, (i, j)
                    if i > 0 and j < m and best[i][j] + 2.5 < best[i][j + 1]:
                        best[i][j + 1], back[(i, j + 1)] = best[i][j] + 2.5, (i, j)
            i, j = n, m
            while (i, j) != (0, 0):
                pi, pj = back[(i, j)]
                if pi != i:
                    new[word[pi]][reading[pj:j]] += 1
                i, j = pi, pj
        counts = new
    return counts


def table(args):
    pairs = []
    for seed in [int(s) for s in args.seeds.split(",")]:
        for screen in read(render(WORDS, args.out, seed), args.out, WORDS):
            pairs += [(word, reading.replace(" ", "")) for word, reading in zip(WORDS, screen)]
    counts = align(pairs)
    with open(TABLE, "w", encoding="utf-8") as f:
        f.write("# How Tesseract's eng model, with Lens's settings, reads these Greek and Cyrillic letters:\n"
                "# a letter, a tab, how often it was read, a tab, its readings seen at least three times with their\n"
                "# counts (most often first), spaces between; ∅: not read at all.\n"
                f"# Measured by Tests/SecretCases/lookalikes.py table (seeds {args.seeds}; {len(pairs)} words read).\n")
        for letter in sorted(counts):
            kept = [f"{r or '∅'}:{n}" for r, n in counts[letter].most_common() if n >= 3 and " " not in r and ":" not in r]
            if kept:
                f.write(f"{letter}\t{sum(counts[letter].values())}\t{' '.join(kept)}\n")
    print(f"{len(pairs)} words read; table written to {TABLE}")


def check(args):
    lines = [sentence for sentence, _ in SENTENCES]
    screens = read(render(lines, args.out, args.seed), args.out, lines)
    masked = collections.Counter()
    total = collections.Counter()
    for screen in screens:
        for (sentence, value), reading in zip(SENTENCES, screen):
            if value not in reading:
                continue  # OCR misread the value itself: nothing to tell
            out = subprocess.run([args.lens, "extract", "--json"], input=reading.encode(), capture_output=True, check=True).stdout
            spans = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
            start = reading.encode().index(value.encode())
            hit = any("secret" in s["type"] and s["start"] <= start and s["end"] >= start + len(value.encode()) for s in spans)
            masked[sentence] += hit
            total[sentence] += 1
            if args.show and not hit:
                print(f"  not masked: {reading!r} ({sentence})")
    for sentence, _ in SENTENCES:
        print(f"{masked[sentence]:3d} of {total[sentence]:3d} masked  {sentence}")
    print(f"all: {sum(masked.values())} of {sum(total.values())} ({len(screens)} screens read line for line)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("table")
    t.add_argument("--out", required=True)
    t.add_argument("--seeds", default="7,13,17,19")
    c = sub.add_parser("check")
    c.add_argument("--out", required=True)
    c.add_argument("--lens", required=True)
    c.add_argument("--seed", type=int, default=11)
    c.add_argument("--show", action="store_true", help="print each reading whose value was not masked")
    args = parser.parse_args()
    table(args) if args.command == "table" else check(args)


if __name__ == "__main__":
    main()
