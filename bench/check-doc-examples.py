#!/usr/bin/env python3
"""Runs every documented example of README.md and docs/*.md and compares its output with the doc.

Usage (from anywhere; build the jar first: ./build -q package -DskipTests):

  python3 bench/check-doc-examples.py [--measure] [--timeout S] [-v] [FILE.md ...]

Prints one line per example, `OK`, `DIFF` (with a short unified diff under it) or `SKIP` (with why), then a summary
`N OK, N DIFF, N SKIP`. Exit 0 when nothing differs, 1 when an example differs, 2 when the jar is not built.

What an example is. A fenced block (no language, or `console`/`shell`/`sh`/`bash`) whose first command runs
`./topolens`, in one of the forms the docs use:
  * `$ COMMAND` lines, each followed by its output up to the next `$` line (a command continues over lines ending
    in `\\`; `$ F=...` assignments carry to the block's later commands, and print nothing);
  * a block of commands only (no `$`): each line is run; when the next block follows with nothing but blank lines
    between, and is not itself a command block, that block is the output of the block's last command;
  * a block whose first line is a command and whose other lines are not: those lines are its output;
  * a block of output only, right after a paragraph that ends with `:` and whose last code span is a
    `./topolens ...` command: that command, given in prose.
A JSON block (`json`, `jsonc`) is checked only when such a paragraph names its command: each `"key": NUMBER` (or
list of numbers) it shows must be a value of that key in the command's JSON (stdout alone), to the block's precision
(`0.8063` stands for 0.80632...); its strings and the keys it shows without a number are a shape, not compared. The
other JSON blocks are shapes drawn from several inputs and are not run.
A command with no output shown passes when it exits 0 or 1 (a finding) and prints no Java stack trace; a trailing
`# ... exit N` comment must match its exit code, and each decimal number the comment quotes (`362.84`, `81%`) must
be in its output. Usage synopses (a `[` outside quotes: `./topolens diagnose PATH... [--format ...]`) are not run,
nor are YAML, Java or other blocks.

How it runs. From a copy of the working tree (git's tracked and untracked, not ignored, files, plus the built jar
and its AOT cache) in a temporary folder, so examples that write files (`-o h200-bench.html`, validate-model's
`--out docs/model-validation.md`) never touch the tree. Output is stdout and stderr merged (`2>&1`), lines
right-stripped. After each example every file it wrote or changed in the copy is compared with the tree's: a tracked
file it changed is a DIFF (the README's validate-model command must leave docs/model-validation.md as it is); then
the copy is put back. Paths under `/tmp/` in a command are moved into a fresh temporary folder, and that folder is
written back as `/tmp/` in the output; the README's `/tmp/kc.yaml` (a kubeconfig whose server is
https://127.0.0.1:1, where nothing listens) is written there first.

What is masked, because it varies run to run and is no part of the claim:
  * the temporary folder's absolute path (as above);
  * nothing else by default: every number topolens prints from the same inputs is deterministic.
    With --measure, examples that measure on this machine (`experiment` without `--dry-run`: the CPU probe and
    training through gloo) are run too, and every number in their output is masked (their numbers are timings),
    with the width of the spaces between columns (they move with the numbers' widths).

`...` in a block: a line that is only `...` (any indent) stands for any number of lines, so the block is an excerpt:
its parts between `...` lines are found in the output in order, each as a run of consecutive lines, the first at
the output's start unless the block starts with `...`; what follows the last part is not shown, so not compared. A
block without a `...` line is the whole output. `...` inside a line stands for any text.

Commands in prose are run too when they name files of the tree and no placeholder (`DIR`, `trainjob/NAME`): they
must exit 0 or 1 without a stack trace, and print the text the prose quotes after `shows`/`says` (`./topolens
diagnose examples/h200-p2p` shows `0.096 s median ...`).

What is skipped, with why: commands that need a cluster (`run`, `diagnose --job/--selector`, `kubectl`), a GPU
(`probe`), or minutes of work (`./build verify`, `experiment` without `--dry-run` unless --measure); commands that
name a file the tree does not hold; output shown with no command to run; a shell script to adapt. `./build ... &&
./topolens ...` runs only its topolens part: the jar is built already.
"""

import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JAR = "topolens-cli/target/topolens.jar"
AOT = "topolens-cli/target/topolens.aot"
SHELL_LANGS = {"", "console", "shell", "sh", "bash", "text"}
KUBECONFIG = """apiVersion: v1
kind: Config
clusters:
- name: nowhere
  cluster:
    server: https://127.0.0.1:1
contexts:
- name: nowhere
  context:
    cluster: nowhere
    user: nobody
current-context: nowhere
users:
- name: nobody
  user:
    token: none
"""


@dataclass
class Block:
    path: str
    line: int  # 1-based line of the opening fence
    lang: str
    body: list
    before: list  # the lines between the previous block (or the file's start) and this one


@dataclass
class Example:
    path: str
    line: int  # 1-based line of the command in the file
    command: str
    expected: list = None  # None: no output shown
    setup: list = field(default_factory=list)  # assignments run before it
    claim: str = ""  # the trailing `# ...` comment of a command-only line
    skip: str = ""  # why it cannot be run as written, when the doc's form says so
    contains: list = field(default_factory=list)  # inline: what the prose says it prints ("shows `...`")
    body: list = None  # a JSON block's text, whose numbers must be those the command prints
    jsonc: bool = False


def blocks(path):
    lines = Path(ROOT, path).read_text(encoding="utf-8").split("\n")
    out, i, last_end = [], 0, 0
    while i < len(lines):
        m = re.match(r"^\s*```(\w*)", lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].lstrip().startswith("```"):
            j += 1
        out.append(Block(path, i + 1, m.group(1), lines[i + 1 : j], lines[last_end:i]))
        last_end = j + 1
        i = j + 1
    return out


def unquoted(text):
    return re.sub(r"'[^']*'|\"[^\"]*\"", "", text)


def is_command(line):
    """A shell line the docs give to run (not output): topolens, the build, kubectl, an assignment."""
    s = line.strip()
    return bool(re.match(r"^(\./topolens|topolens [a-z-]+(\s|$)|kubectl |\./build|bench/|java |[A-Z_]+=\S+( |$))", s))


def runs_topolens(command):
    return bool(re.search(r"(^|[;&|(]\s*|\s)(\./)?topolens\s", command + " ")) and "./topolens" in command


def is_synopsis(command):
    return "[" in unquoted(command.split(" #")[0])


def split_comment(line):
    """`cmd  # comment` -> (cmd, comment), leaving `#` inside quotes alone."""
    for m in re.finditer(r"\s#\s", line):
        head = line[: m.start()]
        if head.count("'") % 2 == 0 and head.count('"') % 2 == 0:
            return head.rstrip(), line[m.end() :].strip()
    return line, ""


def join_continued(lines, i):
    """The command starting at lines[i] with its `\\` continuations; returns (command, next index)."""
    parts = [lines[i]]
    while parts[-1].rstrip().endswith("\\") and i + 1 < len(lines):
        i += 1
        parts.append(lines[i])
    return "\n".join(parts), i + 1


def examples(path):
    """The runnable examples of one Markdown file, and the synopses and output-only blocks left out."""
    found, synopses = [], 0
    bl = blocks(path)
    consumed = set()
    for k, b in enumerate(bl):
        if b.lang in ("json", "jsonc") and b.body:
            command = prose_command(b)
            if command:
                found.append(Example(path, b.line, command, body=b.body, jsonc=True))
            continue
        if k in consumed or b.lang not in SHELL_LANGS or not b.body:
            continue
        body = b.body
        if any(l.startswith("$ ") for l in body):
            setup, i = [], 0
            while i < len(body):
                if not body[i].startswith("$ "):
                    i += 1
                    continue
                start = i
                cmd, i = join_continued(body, i)
                cmd = re.sub(r"^\$ ", "", cmd)
                out = []
                while i < len(body) and not body[i].startswith("$ "):
                    out.append(body[i])
                    i += 1
                while out and not out[-1].strip():
                    out.pop()
                if re.fullmatch(r"[A-Za-z_]\w*=\S+", cmd.strip()) and not out:
                    setup.append(cmd.strip())
                    continue
                found.append(Example(path, b.line + 1 + start, cmd, out, list(setup)))
            continue
        first = body[0]
        if is_command(first):
            if not runs_topolens("\n".join(body)):
                continue
            if is_synopsis(first):
                synopses += 1
                continue
            cmds, i, rest_at = [], 0, None
            while i < len(body):
                if not body[i].strip():
                    i += 1
                    continue
                if not is_command(body[i]) and cmds:
                    rest_at = i
                    break
                at = i
                cmd, i = join_continued(body, i)
                cmd, claim = split_comment(cmd)
                cmds.append(Example(path, b.line + 1 + at, cmd, None, claim=claim))
            if rest_at is not None and re.match(r"^\s*(#|\[ |if |for |while )", body[rest_at]):
                found.append(Example(path, b.line + 1, "\n".join(body), None, skip="a shell script to adapt (its"
                                     " paths are the reader's), not an example with its output"))
                continue
            if rest_at is not None:
                cmds[-1].expected = body[rest_at:]
            elif k + 1 < len(bl):
                nxt = bl[k + 1]
                if (
                    not any(l.strip() for l in nxt.before)
                    and nxt.lang in SHELL_LANGS
                    and nxt.body
                    and not is_command(nxt.body[0])
                    and not nxt.body[0].startswith("$ ")
                ):
                    cmds[-1].expected = nxt.body
                    consumed.add(k + 1)
            found.extend(cmds)
            continue
        # output only: a command given in prose right before the block
        command = prose_command(b)
        if command:
            found.append(Example(path, b.line, command, body))
            continue
        if re.match(r"^topolens[: ]", body[0]):
            found.append(Example(path, b.line, body[0], body, skip="output shown without a command to run as"
                                 " written (a cluster's, or a file the doc does not give)"))
    given = {" ".join(e.command.split()) for e in found}
    found += [e for e in inline_examples(path, bl) if " ".join(e.command.split()) not in given]
    return found, synopses


def prose_command(b):
    """The command the paragraph right before a block gives, when it ends with `:` and its last code span is one."""
    para = []
    for l in reversed(b.before):
        if not l.strip():
            if para:
                break
            continue
        para.insert(0, l.strip())
    prose = " ".join(para)
    if prose.endswith(":"):
        spans = re.findall(r"`(\./topolens [^`]+)`", prose)
        if spans and not is_synopsis(spans[-1]):
            return spans[-1]
    return None


def inline_examples(path, bl):
    """Commands in prose (`./topolens diagnose examples/h200-p2p` shows `...`) that name files of the tree."""
    text = Path(ROOT, path).read_text(encoding="utf-8")
    setup = [re.sub(r"^\$ ", "", l).strip() for b in bl for l in b.body if re.fullmatch(r"\$ [A-Za-z_]\w*=\S+", l)]
    prose = re.sub(r"```.*?```", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    found = []
    for m in re.finditer(r"`(\./topolens [^`]+)`", prose):
        command = " ".join(m.group(1).split())
        try:
            words = shlex.split(command)[2:]
        except ValueError:
            continue  # unbalanced quotes: a fragment of a command, not one to run
        if (
            is_synopsis(command)
            or "..." in command
            or any(re.fullmatch(r"[A-Z][A-Z_]{2,}(\.\w+)?", part) for w in words for part in w.split("/"))
        ):
            continue  # a synopsis or a form with placeholders (DIR, trainjob/NAME)
        expanded = command
        for a in setup:
            name, value = a.split("=", 1)
            expanded = expanded.replace("$" + name, value)
        tokens, paths = shlex.split(expanded)[2:], []
        for n, w in enumerate(tokens):
            written = n > 0 and tokens[n - 1] in ("-o", "--output", "--out", "--html", "--save")
            if not written and not w.startswith("-") and re.search(r"/|\.(log|txt|out|ya?ml|jsonl?|xml|html|gz)$", w):
                paths.append(w)
        line = prose[: m.start()].count("\n") + 1
        if not paths:
            continue  # a fragment (`./topolens diagnose --format json` of a benchmark's description)
        missing = [w for w in paths if not (ROOT / w).exists()]
        if missing:
            found.append(Example(path, line, command, skip=f"names {missing[0]}, which the repository does not hold"))
            continue
        after = prose[m.end() : m.end() + 400]
        said = re.match(r"\s+(?:shows|says|prints)\s+`([^`]+)`", after)
        found.append(Example(path, line, command, setup=setup if "$" in command else [],
                             contains=[said.group(1)] if said else []))
    return found


def skip_reason(command, measure):
    c = " " + command + " "
    if "./build" in c and re.search(r"\./build\b[^&;|]*\bverify\b", c):
        return "runs the whole build and test suite (minutes)"
    if re.search(r"\./topolens\s+run\s", c) and "/tmp/kc.yaml" not in c:
        return "needs a Kubernetes cluster"
    if re.search(r"\s--(job|selector)\b", c) or re.search(r"(^|\s)kubectl\s", c):
        return "needs a Kubernetes cluster"
    if re.search(r"\./topolens\s+probe\s", c):
        return "needs GPUs (the collective probe)"
    if re.search(r"\./topolens\s+experiment\s", c) and "--dry-run" not in c and not measure:
        return "runs the experiment on this machine: minutes, and numbers that vary run to run (--measure runs it)"
    if "~/" in c:
        return "writes under the home folder"
    return None


NUMBER = re.compile(r"\d+(\.\d+)?")


def pattern(line, mask_numbers):
    text = line.rstrip()
    if mask_numbers:
        text = NUMBER.sub("\0", text)
    parts = re.split(r"\s*\.\.\.\s*", text)
    rx = r"\s*.*?\s*".join(re.escape(p).replace("\\\0", "\0").replace("\0", r"\d+(\.\d+)?") for p in parts)
    if mask_numbers:  # numbers of another width move the columns
        rx = re.sub(r"(\\ )+", lambda m: r"\s+", rx)
    return re.compile(rx + "$")


def compare(expected, actual, mask_numbers=False):
    """None when actual fits expected (with its `...` elisions), else a short unified diff."""
    exp = [l.rstrip() for l in expected]
    act = [l.rstrip() for l in actual]
    while act and not act[-1]:
        act.pop()
    segments, cur = [], []
    for l in exp:
        if l.strip() == "...":
            segments.append(cur)
            cur = []
        else:
            cur.append(l)
    segments.append(cur)
    # an excerpt (a block with `...`) shows parts of the output, in order, from its start: what follows its last part
    # is not shown; a block without `...` is the whole output
    anchored_start = bool(segments[0])
    anchored_end = len(segments) == 1
    pats = [[pattern(l, mask_numbers) for l in s] for s in segments]

    def fits(seg, at):
        return at + len(seg) <= len(act) and all(p.match(act[at + n]) for n, p in enumerate(seg))

    pos, failed = 0, []
    for n, seg in enumerate(pats):
        if not seg:
            continue
        last = n == len(pats) - 1 and anchored_end
        if n == 0 and anchored_start:
            candidates = [0]
        elif last:
            candidates = [len(act) - len(seg)]
        else:
            candidates = range(pos, len(act) - len(seg) + 1)
        hit = next((at for at in candidates if at >= pos and fits(seg, at)), None)
        if hit is None:
            failed.append(n)
            continue
        pos = hit + len(seg)
    if len(pats) == 1 and pats[0] and len(act) != len(pats[0]) and not failed:
        failed.append(0)
    if not failed:
        return None
    diff = []
    for n in failed:
        seg = segments[n]
        at, size = best_window(seg, act)
        start = 0 if n == 0 and anchored_start else at
        end = len(act) if n == len(segments) - 1 and anchored_end else at + size
        window = act[start:end]
        if mask_numbers:  # show only what differs besides the numbers
            seg, window = ([" ".join(NUMBER.sub("N", l).split()) for l in ls] for ls in (seg, window))
        diff += list(difflib.unified_diff(seg, window, "doc", "actual", n=1, lineterm=""))[2:]
    if len(diff) > 24:
        diff = diff[:24] + [f"... ({len(diff) - 24} more diff lines)"]
    return diff


JSON_NUMBER = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"


def json_numbers(body, out, code):
    """Each `"key": NUMBER` (or list of numbers) a JSON block shows must be a value of that key in the command's JSON,
    as printed to the block's precision (0.8063 stands for 0.80632...)."""
    try:
        real = json.loads(out)
    except ValueError as e:
        return [f"its output (exit {code}) is not JSON: {e}"]
    values = {}

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    values.setdefault(k, []).append([v])
                elif isinstance(v, list) and v and all(isinstance(x, (int, float)) for x in v):
                    values.setdefault(k, []).append(v)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(real)
    text = "\n".join(re.sub(r"\s//.*$", "", l) for l in body)
    # string values out (numbers in them are prose); strings are matched left to right, keys kept
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"(\s*:)?', lambda m: m.group(0) if m.group(1) else '""', text)
    problems = []
    for m in re.finditer(rf'"(\w+)":\s*(\[\s*{JSON_NUMBER}(?:\s*,\s*{JSON_NUMBER})*\s*\]|{JSON_NUMBER})', text):
        key, shown = m.group(1), re.findall(JSON_NUMBER, m.group(2))

        def fits(real_list):
            return len(real_list) == len(shown) and all(
                abs(r - float(t)) <= 0.5 * 10 ** -len((t.split(".") + [""])[1].split("e")[0].split("E")[0]) + 1e-9
                for r, t in zip(real_list, shown))

        if not any(fits(r) for r in values.get(key, [])):
            got = ", ".join(str(v if len(v) > 1 else v[0]) for v in values.get(key, [])[:4]) or "no such key"
            problems.append(f'the block shows "{key}": {m.group(2)}; the output has {got}')
    return problems


def best_window(seg, act):
    """Where the run of actual lines most like the expected part starts, and its length, for the diff."""
    if not act:
        return 0, 0
    size = min(len(seg), len(act))
    best, best_at = -1.0, 0
    joined = "\n".join(seg)
    for at in range(0, len(act) - size + 1):
        r = difflib.SequenceMatcher(None, joined, "\n".join(act[at : at + size]), autojunk=False).quick_ratio()
        if r > best:
            best, best_at = r, at
    return best_at, size


def tree_files():
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    return [f for f in listed if f and Path(ROOT, f).is_file()]


def snapshot(top):
    state = {}
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            state[os.path.relpath(p, top)] = (st.st_size, st.st_mtime_ns)
    return state


class Sandbox:
    """A copy of the working tree to run examples in, put back after each."""

    def __init__(self):
        self.base = Path(tempfile.mkdtemp(prefix="topolens-docs-"))
        self.tree = self.base / "tree"
        self.tracked = set(tree_files())
        for f in sorted(self.tracked) + [JAR, AOT]:
            src = ROOT / f
            if src.is_file():
                dst = self.tree / f
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
        self.state = snapshot(self.tree)

    def fresh_tmp(self):
        tmp = self.base / "tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        (tmp / "kc.yaml").write_text(KUBECONFIG)
        return str(tmp)

    def changes(self):
        """(files the example changed that the tree tracks, with a diff; files it added); puts the copy back."""
        now = snapshot(self.tree)
        changed, added = [], []
        for f, st in now.items():
            if f not in self.state:
                added.append(f)
                os.remove(self.tree / f)
            elif st != self.state[f]:
                a, b = (ROOT / f).read_bytes(), (self.tree / f).read_bytes()
                if a != b:
                    d = list(difflib.unified_diff(
                        a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines(),
                        f, f + " (after)", n=0, lineterm=""))
                    changed.append((f, d[:12]))
                shutil.copy2(ROOT / f, self.tree / f)
                self.state[f] = snapshot_one(self.tree / f)
        for f in [f for f in self.state if f not in now]:
            shutil.copy2(ROOT / f, self.tree / f)
            changed.append((f, [f"(deleted {f})"]))
            self.state[f] = snapshot_one(self.tree / f)
        return changed, added

    def close(self):
        shutil.rmtree(self.base, ignore_errors=True)


def snapshot_one(p):
    st = os.lstat(p)
    return (st.st_size, st.st_mtime_ns)


def run(box, ex, timeout, mask_numbers):
    tmp = box.fresh_tmp()
    # `./build ... && ./topolens ...`: the jar is built already (the build itself is what `./build verify` checks)
    command = re.sub(r"^\s*\./build\s[^&;|]*&&\s*", "", ex.command)
    script = "\n".join(ex.setup + [command.replace("/tmp/", tmp + "/")])
    try:
        p = subprocess.run(
            ["bash", "-c", script], cwd=box.tree, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if ex.jsonc else subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=timeout,
        )
        code, out = p.returncode, p.stdout.decode("utf-8", errors="replace")
    except subprocess.TimeoutExpired:
        box.changes()
        return "DIFF", [f"timed out after {timeout} s"]
    out = out.replace(tmp + "/", "/tmp/").replace(tmp, "/tmp")
    lines = out.split("\n")
    changed, _ = box.changes()
    problems = []
    if re.search(r"^\s+at [\w$.]+\(|^Exception in thread|^\S+(Exception|Error): ", out, re.M):
        problems.append("a Java stack trace or exception in its output")
    for f, d in changed:
        problems.append(f"it changed the tracked file {f}:")
        problems += ["  " + l for l in d]
    for want in ex.contains:
        rx = r"\s*.*?\s*".join(re.escape(" ".join(p.split())) for p in re.split(r"\s*\.\.\.\s*", want))
        if not any(re.search(rx, " ".join(l.split())) for l in lines):
            problems.append(f"the doc says it prints `{want}`, which its output (exit {code}) does not hold")
    if ex.jsonc:
        problems += json_numbers(ex.body, out, code)
    if ex.expected is not None:
        d = compare(ex.expected, lines, mask_numbers)
        if d:
            problems += [f"output differs (exit {code}):"] + ["  " + l for l in d]
    else:
        m = re.search(r"\bexit (\d+)", ex.claim)
        if m and int(m.group(1)) != code:
            problems.append(f"exit {code}, the doc says exit {m.group(1)}")
        elif not m and code not in (0, 1):
            problems.append(f"exit {code}: " + " | ".join(l for l in lines if l.strip())[-300:])
        for num in re.findall(r"\d+\.\d+|\d+%", ex.claim.split("exit")[0]):
            if num not in out:
                problems.append(f"the doc's comment says {num}, which its output does not")
    return ("DIFF", problems) if problems else ("OK", [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="Markdown files, relative to the repository root (default: all)")
    ap.add_argument("--measure", action="store_true", help="also run examples that measure on this machine")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per example (default 300)")
    ap.add_argument("-v", "--verbose", action="store_true", help="also print each example's whole command")
    args = ap.parse_args()
    if not (ROOT / JAR).is_file():
        print(f"check-doc-examples: {JAR} is not built; run: ./build -q package -DskipTests", file=sys.stderr)
        return 2
    files = args.files or ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))
    box = Sandbox()
    counts = {"OK": 0, "DIFF": 0, "SKIP": 0}
    synopses = 0
    try:
        for f in files:
            found, syn = examples(f)
            synopses += syn
            for ex in found:
                where = f"{ex.path}:{ex.line}"
                short = " ".join(ex.command.replace("\\\n", " ").split())
                short = short if len(short) <= 90 else short[:87] + "..."
                why = ex.skip or skip_reason(ex.command, args.measure)
                if why:
                    counts["SKIP"] += 1
                    print(f"SKIP {where}: {short} ({why})", flush=True)
                    continue
                measuring = bool(re.search(r"\./topolens\s+experiment\s", ex.command)) and "--dry-run" not in ex.command
                verdict, problems = run(box, ex, args.timeout, measuring)
                counts[verdict] += 1
                print(f"{verdict} {where}: {short}", flush=True)
                if args.verbose:
                    print("    $ " + "\n      ".join(ex.command.split("\n")), flush=True)
                for p in problems:
                    print("    " + p, flush=True)
    finally:
        box.close()
    print(f"{counts['OK']} OK, {counts['DIFF']} DIFF, {counts['SKIP']} SKIP ({synopses} usage synopses not run)")
    return 1 if counts["DIFF"] else 0


if __name__ == "__main__":
    sys.exit(main())
