#!/usr/bin/env python3
"""Turns gitleaks' default rules into the data file the secret detector reads (run once per update;
the output is committed).

    python3 scripts/gitleaks-rules.py GITLEAKS_CHECKOUT > Sources/LensCore/Assets/gitleaks-rules.json

GITLEAKS_CHECKOUT is a git directory (bare or not) of github.com/gitleaks/gitleaks; its
`config/gitleaks.toml` and `LICENSE` are read at HEAD. Nothing is edited: every rule keeps its
regex, secret group, entropy floor, keywords and allowlists. Left out, because a screenshot has no
file path: rules that only apply to some paths, and allowlist entries that only name paths. The
licence (MIT) and the commit travel inside the file.
"""
import json
import subprocess
import sys
import tomllib


def show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", f"HEAD:{path}"], capture_output=True, check=True).stdout


def allowlists(entries):
    kept = []
    for entry in entries or []:
        regexes, stopwords = entry.get("regexes", []), entry.get("stopwords", [])
        condition = entry.get("condition", "OR").upper()
        if condition == "AND" and (entry.get("paths") or entry.get("commits")):
            continue  # can never hold without a path
        if not regexes and not stopwords:
            continue
        kept.append({"target": entry.get("regexTarget", "secret"), "condition": condition,
                     "regexes": regexes, "stopwords": [word.lower() for word in stopwords]})
    return kept


def main():
    repo = sys.argv[1]
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    config = tomllib.loads(show(repo, "config/gitleaks.toml").decode())
    rules = []
    for rule in config["rules"]:
        if "regex" not in rule or "path" in rule:
            continue
        rules.append({"id": rule["id"], "regex": rule["regex"], "secretGroup": rule.get("secretGroup", 0),
                      "entropy": rule.get("entropy", 0), "keywords": [k.lower() for k in rule.get("keywords", [])],
                      "allowlists": allowlists(rule.get("allowlists"))})
    out = {
        "source": f"github.com/gitleaks/gitleaks@{commit}:config/gitleaks.toml",
        "licence": show(repo, "LICENSE").decode(),
        "allowlists": allowlists([config.get("allowlist", {})]),
        "rules": rules,
    }
    json.dump(out, sys.stdout, indent=0, ensure_ascii=False)
    sys.stdout.write("\n")


main()
