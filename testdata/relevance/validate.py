#!/usr/bin/env python3
"""Consistency checks for the search-relevance fixture.

Usage: python3 testdata/relevance/validate.py   (from anywhere)

Checks the record files under dataset/ (one envelope per .json file, one per
line in .jsonl files, or a JSON array of envelopes in a .json file) and the
labels in queries.json. Exits non-zero on the first class of errors found and
prints a summary otherwise.
"""
import json
import os
import re
import sys
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.abspath(__file__))
DATASET = os.path.join(ROOT, "dataset")
QUERIES = os.path.join(ROOT, "queries.json")

FIELDS = [
    "id", "repo", "slug", "errorCode", "errorMessage", "messagePattern", "errorType", "errorClass",
    "httpStatus", "severity", "filePath", "lineNumber", "sourceCode", "sourceCodeStart", "sourceCodeEnd",
    "githubUrl", "documentation", "triggerScenarios", "commonSituations", "solutions", "exampleFix",
    "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern", "preventionTips", "tags",
    "backgroundTag", "analyzedSha", "analyzedAt", "contentChangedAt", "schemaVersion",
]
CODE_FIELDS = ["sourceCode", "exampleFix", "validationCode", "typeGuard", "tryCatchPattern"]
PROSE_FIELDS = ["errorCode", "errorMessage", "messagePattern", "errorClass", "documentation",
                "triggerScenarios", "commonSituations", "solutions", "preventionTips", "tags"]
KINDS = ["code", "class", "id", "numeric", "message", "filled", "wrapped", "logline", "slog",
         "jsonlog", "apibody", "typo", "fragment"]
SEVERITIES = {"error", "warning", "fatal", "info"}

errors = []


def err(msg):
    errors.append(msg)


# --------------------------------------------------------------------------- load
def load_envelopes():
    out = []  # (path, envelope)
    for dirpath, _, files in os.walk(DATASET):
        for fn in sorted(files):
            path = os.path.join(dirpath, fn)
            rel = os.path.relpath(path, ROOT)
            try:
                if fn.endswith(".jsonl"):
                    with open(path, encoding="utf-8") as f:
                        for n, line in enumerate(f, 1):
                            if line.strip():
                                out.append((f"{rel}:{n}", json.loads(line)))
                elif fn.endswith(".json"):
                    with open(path, encoding="utf-8") as f:
                        data = json.load(f)
                    if isinstance(data, list):
                        out += [(f"{rel}[{i}]", e) for i, e in enumerate(data)]
                    else:
                        out.append((rel, data))
                else:
                    err(f"{rel}: unexpected file type")
            except json.JSONDecodeError as e:
                err(f"{rel}: invalid JSON: {e}")
    return out


# --------------------------------------------------------------------------- patterns
PRINTF = re.compile(r"%[-+# 0]*\d*(?:\.\d+|\.\*)?(?:zu|ll|l|h|z)?[a-zA-Z]")
NAMED = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|\{\d+\}")


def is_regex_pattern(p):
    return p.startswith("^") or p == "(.+)" or any(t in p for t in ("\\d", "\\S", "\\w", "\\(", "\\."))


def pattern_regex(p):
    """Compile a messagePattern (literal, printf, {name} or RE2-style regex) for searching."""
    if is_regex_pattern(p):
        return re.compile(p.lstrip("^").rstrip("$"))
    out, pos = [], 0
    for m in re.finditer(PRINTF.pattern + "|" + NAMED.pattern, p):
        out.append(re.escape(p[pos:m.start()]))
        tok = m.group(0)
        if tok.startswith("%") and tok[-1] in "diu":
            out.append(r"-?\d+")
        elif tok.startswith("%") and tok[-1] == "q":
            out.append(r'"(?:[^"\\]|\\.)*"')
        else:
            out.append(r".+?")
        pos = m.end()
    out.append(re.escape(p[pos:]))
    return re.compile("".join(out))


def unescape(q):
    """Undo one level of JSON string escaping so messages inside JSON logs can be matched."""
    return q.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")


def norm_code(s):
    return re.sub(r"[\s_\-.]+", " ", s.lower()).strip()


# --------------------------------------------------------------------------- records
def check_records(envs):
    recs = []
    ids, repo_slugs = Counter(), Counter()
    for where, env in envs:
        if set(env) != {"record", "datasetVersion"}:
            err(f"{where}: envelope keys {sorted(env)}")
            continue
        r = env["record"]
        recs.append((where, r))
        if list(r) != FIELDS:
            err(f"{where}: field order/set differs from the reference record")
            continue
        ids[r["id"]] += 1
        repo_slugs[(r["repo"], r["slug"])] += 1
        if not re.fullmatch(r"[0-9a-f]{16}", r["id"]):
            err(f"{where}: bad id {r['id']!r}")
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*/[a-z0-9][a-z0-9-]*", r["repo"]):
            err(f"{where}: bad repo {r['repo']!r}")
        expected_dir = os.path.join("dataset", *r["repo"].split("/"))
        if not where.startswith(expected_dir + os.sep):
            err(f"{where}: record of {r['repo']} stored outside {expected_dir}")
        if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", r["slug"]):
            err(f"{where}: slug not kebab-case: {r['slug']!r}")
        if r["severity"] not in SEVERITIES:
            err(f"{where}: severity {r['severity']!r}")
        if r["httpStatus"] is not None and not isinstance(r["httpStatus"], int):
            err(f"{where}: httpStatus must be int or null")
        if r["schemaVersion"] != 2 or r["contentChangedAt"] is not None:
            err(f"{where}: schemaVersion/contentChangedAt")
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z", r["analyzedAt"]):
            err(f"{where}: analyzedAt {r['analyzedAt']!r}")
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z", env["datasetVersion"]):
            err(f"{where}: datasetVersion {env['datasetVersion']!r}")
        s, e, ln = r["sourceCodeStart"], r["sourceCodeEnd"], r["lineNumber"]
        if not all(isinstance(x, int) for x in (s, e, ln)) or not (s <= ln <= e):
            err(f"{where}: line numbers start={s} line={ln} end={e}")
        nlines = len(r["sourceCode"].split("\n"))
        if nlines != e - s + 1:
            err(f"{where}: snippet has {nlines} lines, expected {e - s + 1}")
        if not 10 <= nlines <= 40:
            err(f"{where}: snippet length {nlines} outside 10..40")
        url = f"https://github.com/{r['repo']}/blob/{r['analyzedSha']}/{r['filePath']}#L{s}-L{e}"
        if r["githubUrl"] != url or not re.fullmatch(r"[0-9a-f]{40}", r["analyzedSha"]):
            err(f"{where}: githubUrl {r['githubUrl']!r} != {url!r}")
        for f in ("solutions", "preventionTips", "tags"):
            if not (isinstance(r[f], list) and r[f] and all(isinstance(x, str) and x for x in r[f])):
                err(f"{where}: {f} must be a non-empty list of strings")
        if any(t != t.lower() for t in r["tags"]):
            err(f"{where}: tags must be lowercase")
        for f in CODE_FIELDS + ["documentation", "triggerScenarios", "commonSituations", "errorMessage",
                                "errorClass", "errorCode", "handlingStrategy", "backgroundTag", "filePath"]:
            if not isinstance(r[f], str) or not r[f].strip():
                err(f"{where}: {f} must be a non-empty string")
        try:
            pattern_regex(r["messagePattern"])
        except re.error as ex:
            err(f"{where}: messagePattern does not compile: {ex}")
    for k, n in ids.items():
        if n > 1:
            err(f"duplicate id {k}")
    for k, n in repo_slugs.items():
        if n > 1:
            err(f"duplicate repo+slug {k}")
    return [r for _, r in recs]


# --------------------------------------------------------------------------- queries
def check_queries(recs):
    with open(QUERIES, encoding="utf-8") as f:
        queries = json.load(f)
    by_id = {r["id"]: r for r in recs}
    generic = {r["id"] for r in recs if r["messagePattern"] == "(.+)"}
    regexes = {r["id"]: pattern_regex(r["messagePattern"]) for r in recs}
    texts = {r["id"]: json.dumps(r, ensure_ascii=False) for r in recs}
    code_owner = defaultdict(set)
    for r in recs:
        code_owner[(r["errorCode"])].add(r["id"])
    msg_owner = defaultdict(set)
    for r in recs:
        msg_owner[r["errorMessage"]].add(r["id"])
    seen = Counter()
    kinds = Counter()
    for i, q in enumerate(queries):
        where = f"queries[{i}]"
        if set(q) != {"kind", "q", "want", "lookup"}:
            err(f"{where}: keys {sorted(q)}")
            continue
        kind, text, want, lookup = q["kind"], q["q"], q["want"], q["lookup"]
        kinds[kind] += 1
        seen[text] += 1
        if kind not in KINDS:
            err(f"{where}: unknown kind {kind!r}")
        if want not in by_id:
            err(f"{where}: want {want!r} is not a record id")
            continue
        if not isinstance(lookup, bool) or not isinstance(text, str) or not text.strip():
            err(f"{where}: bad q/lookup")
            continue
        r = by_id[want]
        if lookup and want in generic and kind not in ("id", "code", "class"):
            err(f"{where}: a (.+) wrapper can only be a lookup target by id/code/class")
        if kind == "id":
            if text != want or not lookup:
                err(f"{where}: id query must be the want id with lookup=true")
        elif kind == "code":
            if norm_code(r["errorCode"]) not in norm_code(text):
                err(f"{where}: code query {text!r} does not contain {r['errorCode']!r}")
            if lookup and len(code_owner[r["errorCode"]]) > 1:
                err(f"{where}: code {r['errorCode']} is shared; lookup must be false")
        elif kind == "message":
            if text != r["errorMessage"]:
                err(f"{where}: message query differs from errorMessage")
            if lookup and len(msg_owner[text]) > 1:
                err(f"{where}: message shared by several records; lookup must be false")
        elif kind == "class":
            ident = re.split(r"::|\.|\*", text)[-1]
            if not re.search(r"\b" + re.escape(ident) + r"\b", texts[want]):
                err(f"{where}: identifier {ident!r} not in record")
            if lookup:
                owners = [k for k, t in texts.items()
                          if re.search(r"\b" + re.escape(ident) + r"\b", t)]
                cls_owners = [k for k in by_id if by_id[k]["errorClass"] == ident]
                if len(cls_owners) > 1 or (not cls_owners and owners != [want]):
                    err(f"{where}: identifier {ident!r} not unique to want (owners={len(owners)})")
        elif kind == "numeric":
            nums = re.findall(r"\d{4,6}", text)
            code_text = " ".join(r[f] for f in CODE_FIELDS)
            if not nums or any(n not in code_text or n in r["errorCode"] for n in nums):
                err(f"{where}: numeric {text!r} not found in want's code fields only")
            others = [k for k in by_id if k != want and any(
                re.search(r"\b" + n + r"\b", " ".join(by_id[k][f] for f in CODE_FIELDS)) for n in nums)]
            if lookup and others:
                err(f"{where}: numeric code also in {others}; lookup must be false")
        elif kind == "fragment":
            if text != text.lower() or lookup:
                err(f"{where}: fragments are lowercase and never lookups")
        elif kind in ("filled", "wrapped", "logline", "slog", "jsonlog", "apibody"):
            hay = unescape(text) if kind in ("jsonlog", "slog", "apibody") else text
            m = regexes[want].search(hay)
            if kind == "filled":
                full = is_regex_pattern(r["messagePattern"]) and re.fullmatch(r["messagePattern"].lstrip("^").rstrip("$"), text)
                if not (full or regexes[want].fullmatch(text) or re.fullmatch(regexes[want].pattern.replace(".+?", ".+"), text)):
                    err(f"{where}: filled {text!r} does not fully match pattern {r['messagePattern']!r}")
            elif not m and lookup:
                # lookup=false evidence may be truncated or partial; a lookup must carry the full message
                err(f"{where}: {kind} {text[:80]!r} does not contain a match of {r['messagePattern']!r}")
            if lookup and m:
                greedy = re.compile(regexes[want].pattern.replace(".+?", ".+"))
                gm = greedy.search(hay)
                span = gm.span() if gm else m.span()
                for k, rx in regexes.items():
                    if k == want or k in generic:
                        continue
                    om = rx.search(hay)
                    if om and not (span[0] <= om.start() and om.end() <= span[1]
                                   and om.end() - om.start() < span[1] - span[0]):
                        err(f"{where}: {kind} also matches {by_id[k]['repo']}/{by_id[k]['slug']} "
                            f"outside want's span; lookup=true is doubtful")
        # typo: free-form, no automatic check
    for text, n in seen.items():
        if n > 1:
            err(f"duplicate query text {text!r}")
    return queries, kinds


def main():
    envs = load_envelopes()
    recs = check_records(envs)
    queries, kinds = check_queries(recs)

    per_repo = Counter(r["repo"] for r in recs)
    generic = [r for r in recs if r["messagePattern"] == "(.+)"]
    shared = {c: n for c, n in Counter((r["repo"], r["errorCode"]) for r in recs).items() if n > 1}
    code_only = {}
    for r in recs:
        nums = set()
        for f in ("validationCode", "typeGuard", "tryCatchPattern"):
            nums |= set(re.findall(r"(?:ErrorCode|err_code|VendorCode\(\))\D{0,6}(\d{4,6})", r[f]))
        prose = " ".join(json.dumps(r[f]) for f in PROSE_FIELDS)
        nums = {n for n in nums if n not in prose}
        if nums:
            code_only[f"{r['repo']}/{r['slug']}"] = sorted(nums)

    if len(recs) < 80 or len(per_repo) < 5:
        err(f"need >= 80 records across >= 5 projects (have {len(recs)} / {len(per_repo)})")
    if len(generic) < 3:
        err("need >= 3 records whose messagePattern is (.+)")
    if len(code_only) < 6:
        err(f"need >= 6 records with numeric codes only in code fields (have {len(code_only)})")
    if len(shared) < 2:
        err("need >= 2 codes shared by two records of one repo")
    if len(queries) < 400:
        err(f"need >= 400 queries (have {len(queries)})")
    for k in KINDS:
        if kinds[k] < 20:
            err(f"kind {k!r} has {kinds[k]} queries (< 20)")

    print(f"envelopes: {len(envs)} in {len({w.split(':')[0].split('[')[0] for w, _ in envs})} files")
    print("records per project:")
    for repo, n in sorted(per_repo.items()):
        print(f"  {repo:32s} {n}")
    print(f"(.+) wrappers: {len(generic)}; shared codes: {sorted(c for _, c in shared)}")
    print(f"numeric codes only in code fields: {len(code_only)} records")
    print(f"queries: {len(queries)} (lookup=true {sum(q['lookup'] for q in queries)})")
    for k in KINDS:
        lk = sum(1 for q in queries if q["kind"] == k and q["lookup"])
        print(f"  {k:9s} {kinds[k]:4d}  (lookup {lk})")
    if errors:
        print(f"\n{len(errors)} problem(s):")
        for e in errors:
            print("  -", e)
        sys.exit(1)
    print("\nOK")


if __name__ == "__main__":
    main()
