#!/usr/bin/env python3
"""Collects third-party entity test cases into Tests/EntityCases/*.jsonl.

Run by hand when the sources change (needs PyPI for the sdists, and a clone of the Broad
Twitter Corpus for names):

    python3 Tests/EntityCases/collect.py --btc PATH/TO/broad_twitter_corpus

Every case is one JSON object per line:

    {"source": "...", "licence": "...", "split": "dev" | "heldout", "text": "...",
     "types": ["date"], "reference": "2020-02-13T20:07:06" (optional),
     "region": "US" (optional), "entities": [{"type": "date", "value": "...", "normalized": "..."}]}

`types` lists the entity types the source annotates: the scorer counts only those, so a date
found in a URL test case is neither right nor wrong. `split` is taken from a hash of the text
(about half each): rules are written looking at `dev` misses only; `heldout` is scored, never read.
The cases are data from the test suites named in README.md, under their licences; no code of
theirs is kept.
"""
import argparse
import ast
import datetime
import decimal
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

PACKAGES = {
    "dateparser": ("dateparser==1.5.0", "BSD-3-Clause"),
    "price-parser": ("price-parser==0.5.1", "BSD-3-Clause"),
    "quantulum3": ("quantulum3==0.10.0", "MIT"),
    "urlextract": ("urlextract==1.10.0", "MIT"),
    "email-validator": ("email-validator==2.4.0", "Unlicense"),
    "linkify-it-py": ("linkify-it-py==2.2.0", "MIT"),
    "phonenumbers": ("phonenumbers==9.0.43", "Apache-2.0"),
}


def split_of(text):
    return "dev" if hashlib.sha1(text.encode()).digest()[0] % 2 == 0 else "heldout"


def case(source, text, types, entities, **extra):
    out = {"source": source, "licence": PACKAGES.get(source, ("", "CC-BY-4.0"))[1], "split": split_of(text),
           "text": text, "types": types, "entities": entities}
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def download(workdir):
    specs = [spec for spec, _ in PACKAGES.values()]
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-d", workdir] + specs,
                   check=True, stdout=subprocess.DEVNULL)
    roots = {}
    for archive in glob.glob(os.path.join(workdir, "*.tar.gz")):
        with tarfile.open(archive) as tar:
            tar.extractall(workdir)
        name = os.path.basename(archive)[:-len(".tar.gz")]
        roots[name.rsplit("-", 1)[0].replace("_", "-").lower()] = os.path.join(workdir, name)
    return roots


def decorated_lists(path, decorator_attr):
    """The first argument of every `@x.<decorator_attr>(...)` in a test file, as AST nodes."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == decorator_attr:
            yield node


def expanded_params(path, env):
    """Every `param(...)` of every `@parameterized.expand([...])` in a test file, evaluated with
    `env`; lists that need names `env` lacks are skipped."""
    for node in decorated_lists(path, "expand"):
        try:
            params = eval(compile(ast.Expression(node.args[0]), path, "eval"), env)
        except Exception:
            continue
        yield from (p for p in params if isinstance(p, Param))


class Param:
    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


# --- dates: dateparser's search tests (English) ---------------------------------------------
def dateparser_cases(root):
    path = os.path.join(root, "tests", "test_search.py")
    relative_base = datetime.datetime(2020, 2, 13, 20, 7, 6)
    env = {"param": Param, "datetime": datetime, "timedelta": datetime.timedelta, "relative_base": relative_base,
           "today": relative_base}
    cases = []
    for p in expanded_params(path, env):
        args, kw = list(p.args), dict(p.kwargs)
        if args and args[0] == "en" and len(args) >= 3:
            text, expected, settings = args[1], args[2], kw.get("settings") or (args[3] if len(args) > 3 else None)
        elif "text" in kw and "expected" in kw and (kw.get("languages") in (["en"], None)):
            text, expected, settings = kw["text"], kw["expected"], kw.get("settings")
        else:
            continue
        if not isinstance(text, str) or not text.isascii():
            continue
        base = (settings or {}).get("RELATIVE_BASE") if isinstance(settings, dict) else None
        if not isinstance(expected, (list, type(None))) or any(
                not (isinstance(e, tuple) and len(e) == 2 and isinstance(e[1], datetime.datetime)) for e in expected or []):
            continue
        entities = []
        for surface, when in expected or []:
            # Only explicit dates: a day and a month written in the text (not "yesterday",
            # "2 hours ago", a bare year or a bare weekday).
            if not explicit_date(surface):
                continue
            has_year = re.search(r"\b(1[89]\d\d|2\d\d\d)\b", surface) is not None
            entities.append({"type": "date", "value": surface,
                             "normalized": when.strftime("%Y-%m-%d") if has_year else when.strftime("--%m-%d")})
        if any(not explicit_date(s) for s, _ in expected or []) and not entities:
            continue  # a case about relative dates only: not what this set measures
        if not expected and explicit_date(text):
            continue  # dateparser declines a date here for reasons of its own API
        cases.append(case("dateparser", text, ["date"], entities,
                          reference=base.isoformat() if base else None))
    return cases


MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
ENGLISH_DATE_WORDS = set("""january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday
mon tue tues wed thu thur thurs fri sat sun st nd rd th at of the day on am pm a m p utc gmt z t""".split())


def dateparser_parse_cases(root):
    """dateparser's whole-string parse tests whose words are all English date words: the
    date forms people write, each alone in its text."""
    path = os.path.join(root, "tests", "test_date_parser.py")
    env = {"param": Param, "datetime": datetime.datetime, "timedelta": datetime.timedelta}
    cases = []
    for p in expanded_params(path, env):
        if len(p.args) != 2 or p.kwargs:
            continue
        text, when = p.args
        if not (isinstance(text, str) and isinstance(when, datetime.datetime) and text.isascii()):
            continue
        words = re.findall(r"[a-z]+", text.lower())
        if not explicit_date(text) or any(w not in ENGLISH_DATE_WORDS for w in words):
            continue
        has_year = re.search(r"\b\d{4}\b", text) is not None
        cases.append(case("dateparser", text, ["date"], [{"type": "date", "value": text,
                          "normalized": when.strftime("%Y-%m-%d") if has_year else when.strftime("--%m-%d")}]))
    return cases


def explicit_date(surface):
    s = surface.lower()
    numeric = re.search(r"\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b", s)
    named = re.search(MONTH, s) and re.search(r"\b\d{1,2}(st|nd|rd|th)?\b", s)
    return bool(numeric or named)


# --- money: price-parser and quantulum3 ------------------------------------------------------
def price_parser_cases(root):
    path = os.path.join(root, "tests", "test_price_parsing.py")
    tree = ast.parse(open(path, encoding="utf-8").read())
    cases = []

    def example(currency_raw, price_raw, currency, amount_text, amount, **_):
        return (currency_raw, price_raw, currency, amount_text, amount)

    env = {"Example": example, "Decimal": decimal.Decimal}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.List)
                and node.targets[0].id.startswith("PRICE_PARSING_EXAMPLES")):
            continue
        for item in node.value.elts:
            try:
                currency_raw, price_raw, currency, amount_text, amount = eval(compile(ast.Expression(item), path, "eval"), env)
            except Exception:
                continue
            if not price_raw or not price_raw.strip():
                continue
            # The text is what a page showed; the currency counts only when it is in that text.
            if currency and currency in price_raw and amount is not None:
                entities = [{"type": "money", "value": price_raw.strip(), "normalized": f"{decimal.Decimal(str(amount)):f}"}]
            elif currency is None:
                entities = []  # no currency shown: not money to Lens
            else:
                continue
            cases.append(case("price-parser", price_raw.strip(), ["money"], entities))
    return cases


CURRENCY_NAMES = {"dollar": "USD", "euro": "EUR", "pound sterling": "GBP", "united states dollar": "USD",
                  "japanese yen": "JPY", "indian rupee": "INR", "swiss franc": "CHF", "yen": "JPY"}


def quantulum_cases(root):
    cases = []
    folder = os.path.join(root, "quantulum3", "_lang", "en_US", "tests")
    for name in ("quantities.json", "quantities.ambiguity.json"):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            continue
        for item in json.load(open(path, encoding="utf-8")):
            entities = []
            for q in item["res"]:
                unit = q.get("unit", "").lower()
                code = CURRENCY_NAMES.get(unit)
                if code is None and not any(w in unit for w in ("dollar", "euro", "pound", "rupee", "yen", "franc", "markka", "krona", "peso")):
                    continue
                value = q["value"]
                if isinstance(value, list) or q.get("uncertainty"):
                    continue
                amount = f"{decimal.Decimal(str(value)).normalize():f}"
                entities.append({"type": "money", "value": q["surface"],
                                 "normalized": amount + (" " + code if code else "")})
            cases.append(case("quantulum3", item["req"], ["money"], entities))
    return cases


# --- urls and e-mails: urlextract, email-validator -------------------------------------------
def urlextract_cases(root):
    cases = []
    for path in sorted(glob.glob(os.path.join(root, "tests", "unit", "test_*.py"))):
        name = os.path.basename(path)
        # Options that change what counts (ports allowed only, DNS checks, limits) are not Lens's.
        if name in ("test_dns.py", "test_limit.py", "test_permit_list.py", "test_ignore_list.py",
                    "test_get_tld_pos.py", "test_has_urls.py", "test_preserveorder.py"):
            continue
        for node in decorated_lists(path, "parametrize"):
            try:
                names = ast.literal_eval(node.args[0])
                rows = eval(compile(ast.Expression(node.args[1]), path, "eval"), {"chr": chr})
            except Exception:
                continue
            if names.replace(" ", "") != "text,expected":
                continue
            for text, expected in rows:
                if not isinstance(expected, list) or not all(isinstance(e, str) for e in expected):
                    continue
                if name == "test_extract_email.py":
                    # the "enabled" table lists e-mails; the "disabled" one only URLs.
                    types = ["email"] if any("@" in e and "://" not in e for e in expected) else ["url"]
                    entities = [{"type": "email" if ("@" in e and "://" not in e and "/" not in e) else "url", "value": e}
                                for e in expected]
                    cases.append(case("urlextract", text, types, entities))
                    continue
                cases.append(case("urlextract", text, ["url"], [{"type": "url", "value": e} for e in expected]))
    return dedupe(cases)


def email_validator_cases(root):
    path = os.path.join(root, "tests", "test_syntax.py")
    cases = []
    for node in decorated_lists(path, "parametrize"):
        try:
            names = ast.literal_eval(node.args[0])
        except Exception:
            continue
        if names == "email_input,output":
            for row in node.args[1].elts:
                try:
                    written = ast.literal_eval(row.elts[0])
                    fields = {k.arg: ast.literal_eval(k.value) for k in row.elts[1].keywords}
                except Exception:
                    continue
                # The address the validator reads out of the input (without a display name).
                address = fields.get("normalized") or fields.get("ascii_email")
                if address and '"' not in address and "[" not in address:
                    cases.append(case("email-validator", f"Write to {written} today.", ["email"],
                                      [{"type": "email", "value": address}]))
        elif names == "email_input,error_msg":
            for row in node.args[1].elts:
                try:
                    address = ast.literal_eval(row.elts[0])
                except Exception:
                    continue
                # Invalid addresses are negatives only where the address itself is wrong (doubled
                # dots, lengths, labels), not its surroundings (`<a@b.c`, a display name).
                if (address.isascii() and " " not in address and address.count("@") == 1 and "\n" not in address
                        and not any(c in address for c in "<>\"()[],;:\\")):
                    cases.append(case("email-validator", f"Write to {address} today.", ["email"], [],
                                      invalid=address))
    return cases


def linkify_cases(root):
    """linkify-it's fixtures (the Python port's copy): a line, then the first link in it (or the
    line itself); `not_links.txt` lines hold none. `% ...` after a space is the fixture's comment."""
    def lines_of(name):
        with open(os.path.join(root, "test", "fixtures", name), encoding="utf-8") as f:
            lines = [re.sub(r"(^|\s+)%.*$", "", line.rstrip("\n")).rstrip() for line in f]
        return lines

    def entity(link):
        if "@" in link and "://" not in link and "/" not in link:
            return {"type": "email", "value": re.sub(r"(?i)^mailto:", "", link)}
        return {"type": "url", "value": link}

    cases = []
    lines = lines_of("links.txt")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        following = lines[i + 1] if i + 1 < len(lines) else ""
        expected = following if following.strip() else line
        i += 2 if following.strip() else 1
        cases.append(case("linkify-it-py", line, ["url", "email"], [entity(expected)]))
    for line in lines_of("not_links.txt"):
        if line.strip():
            cases.append(case("linkify-it-py", line, ["url", "email"], []))
    return cases


# --- phones: libphonenumber's matcher tests (Python port) -------------------------------------
def phone_cases(root):
    sys.path.insert(0, root)
    try:
        import phonenumbers  # the sdist's own copy: real metadata
    except Exception:
        return []
    path = os.path.join(root, "tests", "phonenumbermatchertest.py")
    source = open(path, encoding="utf-8").read()
    cases = []
    for block in ("IMPOSSIBLE_CASES", "POSSIBLE_ONLY_CASES", "VALID_CASES", "STRICT_GROUPING_CASES", "EXACT_GROUPING_CASES"):
        match = re.search(block + r" = \[(.*?)\]\n", source, re.S)
        if not match:
            continue
        for raw, region in re.findall(r'NumberTest\((?:u\()?"([^"]+)"\)?, "([A-Z]{2})"\)', match.group(1)):
            try:
                raw = raw.encode().decode("unicode_escape")
            except Exception:
                pass
            text = f"Call {raw} today"
            entities = []
            if block != "IMPOSSIBLE_CASES":
                try:
                    number = phonenumbers.parse(raw, region)
                except Exception:
                    continue
                if not phonenumbers.is_valid_number(number):
                    continue  # valid only in the test metadata
                entities = [{"type": "phone", "value": raw,
                             "normalized": phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)}]
            cases.append(case("phonenumbers", text, ["phone"], entities, region=region))
    return cases


# --- person names: the Broad Twitter Corpus ---------------------------------------------------
def btc_cases(btc):
    """Section F (the corpus's recommended test section) as texts with PER spans. Tokens are
    joined with spaces (the corpus has no offsets in its CoNLL files), `@ name` back to `@name`.
    @-mentions and hashtags are annotated PER in the corpus but are handles and tags, not names
    as written: they are dropped from the expected names and the scorer ignores names found
    inside them."""
    path = os.path.join(btc, "f.conll.fix")
    if not os.path.exists(path):
        path = os.path.join(btc, "f.conll")
    return [case("broad-twitter-corpus", text, ["person"], entities)
            for text, entities in conll_documents(path)]


def conll_documents(path):
    tokens = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip():
            if tokens:
                yield document(tokens)
            tokens = []
            continue
        parts = line.split()
        tokens.append((parts[0], parts[-1]))
    if tokens:
        yield document(tokens)


def document(tokens):
    text, spans, current = "", [], None
    previous = None
    for word, label in tokens:
        glue = previous in ("@", "#")
        if text and not glue:
            text += " "
        start = len(text)
        text += word
        if label == "B-PER" or (label == "I-PER" and current is None):
            current = [start, len(text), previous == "@" or word == "@"]
            spans.append(current)
        elif label == "I-PER" and current is not None:
            current[1] = len(text)
        else:
            current = None
        previous = word
    entities = [{"type": "person", "value": text[s:e]} for s, e, handle in spans
                if not handle and not text[s:e].startswith(("@", "#"))]
    return text, entities


def dedupe(cases):
    seen, out = set(), []
    for c in cases:
        key = (c["source"], c["text"], json.dumps(c["entities"], sort_keys=True))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def write(name, cases):
    path = os.path.join(HERE, name)
    with open(path, "w", encoding="utf-8") as out:
        for c in cases:
            out.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"{name}: {len(cases)} cases, {sum(len(c['entities']) for c in cases)} entities")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--btc", help="a clone of github.com/GateNLP/broad_twitter_corpus")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        roots = download(work)
        write("dates.jsonl", dedupe(dateparser_cases(roots["dateparser"]) + dateparser_parse_cases(roots["dateparser"])))
        write("money.jsonl", dedupe(price_parser_cases(roots["price-parser"]) + quantulum_cases(roots["quantulum3"])))
        write("web.jsonl", dedupe(urlextract_cases(roots["urlextract"]) + email_validator_cases(roots["email-validator"])
                                       + linkify_cases(roots["linkify-it-py"])))
        write("phones.jsonl", dedupe(phone_cases(roots["phonenumbers"])))
    if args.btc:
        write("names.jsonl", dedupe(btc_cases(args.btc)))


if __name__ == "__main__":
    main()
