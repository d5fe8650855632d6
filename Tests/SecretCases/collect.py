#!/usr/bin/env python3
"""Collects third-party secret-detection test cases into cases.jsonl (run once; the output is committed).

Usage: python3 collect.py PRESIDIO DETECT_SECRETS GITLEAKS PARSE_OTP_MESSAGE PYTHON_MNEMONIC > cases.jsonl

Each checkout is a git directory (bare or not); files are read at HEAD with `git show`. Every case
keeps its source file and the project's licence. Nothing here is tuned: cases are taken as their
projects label them, with only the mapping from their detector names to Lens's kinds below.
"""
import ast
import json
import re
import subprocess
import sys
import textwrap


def show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", f"HEAD:{path}"], capture_output=True, text=True, check=True).stdout


def head(repo):
    return subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def module_constants(tree):
    """Module-level NAME = <expr> that evaluate without imports (strings, .format, lists of tuples)."""
    import base64, random
    namespace = {"textwrap": textwrap, "base64": base64, "randint": random.randint}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                namespace[node.targets[0].id] = eval(compile(ast.Expression(node.value), "<const>", "eval"), namespace)
            except Exception:
                pass
    return namespace


def parametrized(source):
    """(first, second) pairs of every @pytest.mark.parametrize list that evaluates statically."""
    tree = ast.parse(source)
    namespace = module_constants(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "parametrize" and len(node.args) >= 2:
            try:
                values = eval(compile(ast.Expression(node.args[1]), "<param>", "eval"), dict(namespace))
            except Exception:
                continue
            for value in values:
                if isinstance(value, tuple) and len(value) >= 2:
                    yield value


def presidio(repo):
    commit = head(repo)
    for name, kind in [("test_credit_card_recognizer.py", "card"), ("test_iban_recognizer.py", "iban")]:
        path = f"presidio-analyzer/tests/{name}"
        for value in parametrized(show(repo, path)):
            text, expected = value[0], value[1]
            if not isinstance(text, str) or not isinstance(expected, int):
                continue
            yield dict(text=text, kinds=[kind] if expected > 0 else [], source=f"microsoft/presidio@{commit[:12]}:{path}", licence="MIT")


DETECT_SECRETS_PLUGINS = {
    # plugin test file -> Lens kind (every provider key is an api_key; private keys and JWTs too)
    "aws_key_test.py": "api_key", "github_token_test.py": "api_key", "gitlab_token_test.py": "api_key",
    "jwt_test.py": "api_key", "private_key_test.py": "api_key", "slack_test.py": "api_key",
    "stripe_key_test.py": "api_key", "openai_test.py": "api_key", "npm_test.py": "api_key",
    "pypi_token_test.py": "api_key", "sendgrid_test.py": "api_key", "twilio_test.py": "api_key",
    "basic_auth_test.py": "api_key", "discord_test.py": "api_key", "telegram_token_test.py": "api_key",
    "mailchimp_key_test.py": "api_key", "square_oauth_test.py": "api_key", "artifactory_test.py": "api_key",
    "azure_storage_key_test.py": "api_key",
}


def detect_secrets(repo):
    commit = head(repo)
    for name, kind in DETECT_SECRETS_PLUGINS.items():
        path = f"tests/plugins/{name}"
        try:
            source = show(repo, path)
        except subprocess.CalledProcessError:
            continue
        for value in parametrized(source):
            text, flag = value[0], value[1]
            if not isinstance(text, str) or not isinstance(flag, bool):
                continue
            yield dict(text=text, kinds=[kind] if flag else [], source=f"Yelp/detect-secrets@{commit[:12]}:{path}", licence="Apache-2.0")
    # The keyword plugin: only its language-neutral configuration-file cases (its C, Go… tables
    # depend on the file's language, which a screenshot does not have).
    path = "tests/plugins/keyword_test.py"
    tree = ast.parse(show(repo, path))
    namespace = module_constants(tree)
    for text, secret in namespace.get("CONFIG_TEST_CASES", []):
        if len(text) > 500:
            continue
        yield dict(text=text, kinds=["password|api_key"] if secret else [], secret=secret,
                   source=f"Yelp/detect-secrets@{commit[:12]}:{path} CONFIG_TEST_CASES", licence="Apache-2.0")


GO_STRING = re.compile(r'`([^`]*)`|"((?:[^"\\]|\\.)*)"')


def gitleaks(repo):
    """Literal strings in the rules' `tps`/`fps` lists (generated samples are skipped)."""
    commit = head(repo)
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", "HEAD", "cmd/generate/config/rules/"],
                             capture_output=True, text=True, check=True).stdout.split()
    for path in listing:
        if not path.endswith(".go") or path.endswith("_test.go"):
            continue
        source = show(repo, path)
        for match in re.finditer(r'\b(tps|fps)\s*:?=\s*\[\]string\{(.*?)\n\t\}', source, re.S):
            positive = match.group(1) == "tps"
            for line in match.group(2).splitlines():
                line = line.strip()
                if not line or line.startswith("//"):
                    continue
                if "utils." in line or "secrets." in line or "+" in line.split("//")[0].replace('"+"', ""):
                    continue  # generated or concatenated: not a literal case
                m = GO_STRING.fullmatch(line.rstrip(",").strip())
                if not m:
                    continue
                text = m.group(1) if m.group(1) is not None else bytes(m.group(2), "utf-8").decode("unicode_escape")
                if len(text) > 400:
                    continue
                yield dict(text=text, kinds=["api_key"] if positive else [],
                           source=f"gitleaks/gitleaks@{commit[:12]}:{path}", licence="MIT")


JS_STRING = r"'((?:[^'\\]|\\.)*)'"


def parse_otp_message(repo):
    """parse-otp-message's test table: each message with the code it holds, or `undefined`."""
    commit = head(repo)
    path = "test/index.js"
    source = show(repo, path)
    pattern = re.compile(r"message:\s*" + JS_STRING + r",\s*result:\s*(undefined|\{\s*code:\s*(undefined|" + JS_STRING + r"))", re.S)
    for m in pattern.finditer(source):
        text = bytes(m.group(1), "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")
        if not text:
            continue
        has_code = m.group(4) is not None
        yield dict(text=text, kinds=["otp"] if has_code else [], secret=m.group(4),
                   source=f"transitive-bullshit/parse-otp-message@{commit[:12]}:{path}", licence="MIT")


def bip39_vectors(repo):
    """The English BIP-39 test vectors' mnemonics (12 to 24 words)."""
    commit = head(repo)
    for entropy, mnemonic, *_ in json.loads(show(repo, "vectors.json"))["english"]:
        yield dict(text=mnemonic, kinds=["seed_phrase"], source=f"trezor/python-mnemonic@{commit[:12]}:vectors.json", licence="MIT")


def noseyparker(repo):
    """Nosey Parker's rules: each rule's `examples` (secrets) and `negative_examples`, for the rules
    whose categories include `secret` (its other rules find identifiers, not secrets)."""
    import yaml
    commit = head(repo)
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD", "crates/noseyparker/data/default/builtin/rules/"],
                             capture_output=True, text=True, check=True).stdout.split()
    for path in listing:
        if not path.endswith(".yml"):
            continue
        for rule in yaml.safe_load(show(repo, path)).get("rules", []):
            if "secret" not in rule.get("categories", []):
                continue
            source = f"praetorian-inc/noseyparker@{commit[:12]}:{path} {rule.get('id')}"
            for text in rule.get("examples", []) or []:
                yield dict(text=text, kinds=["api_key|password"], source=source, licence="Apache-2.0")
            for text in rule.get("negative_examples", []) or []:
                yield dict(text=text, kinds=[], source=source, licence="Apache-2.0")


def main():
    if sys.argv[1] == "--noseyparker":
        for case in noseyparker(sys.argv[2]):
            print(json.dumps(case, ensure_ascii=False))
        return
    presidio_repo, detect_repo, gitleaks_repo, otp_repo, mnemonic_repo = sys.argv[1:6]
    seen = set()
    for case in [*presidio(presidio_repo), *detect_secrets(detect_repo), *gitleaks(gitleaks_repo),
                 *parse_otp_message(otp_repo), *bip39_vectors(mnemonic_repo)]:
        key = (case["text"], tuple(case["kinds"]))
        if key in seen:
            continue
        seen.add(key)
        print(json.dumps(case, ensure_ascii=False))


if __name__ == "__main__":
    main()
