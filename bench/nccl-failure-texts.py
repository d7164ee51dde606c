#!/usr/bin/env python3
"""Derives, from NCCL's failure formats, the literal of each that tells it without NCCL's header.

Users paste NCCL's failure text without the `host:pid:tid [dev] file:line NCCL WARN` header (an issue title, a
quoted line, a launcher that drops it), often without any word NCCL. The reader takes a line holding one of these
literals as NCCL's WARN text (io/topolens/nccl/failure-texts.txt, read by `NcclFailureTexts`).

Inputs (paths relative to the repository root):
  bench/results/nccl-messages/libnccl-2.28.3-log-calls.tsv  every WARN format of libnccl.so.2.28.3 (disassembled
                                                            by bench/nccl-log-calls.py); its INFO formats are the
                                                            healthy texts
  bench/results/nccl-messages/other-formats.tsv             WARN formats of other versions, copied from sources
  topolens-core/src/test/resources/nccl/messages/messages.tsv
                                                            the failure rows no format above prints (older and
                                                            newer forms, aws-ofi-nccl): their sample values (any
                                                            token holding a digit, errno texts) cut them into
                                                            literals; INFO rows
                                                            that announce a failure are taken out of the healthy
                                                            texts, healthy rows (`-`) added to them

For each format: the literal parts between its conversions (`%s`, `%d`, `%lx`, ...), each stripped of spaces;
the longest is kept when it has MIN bytes or more. A leading subsystem tag (`Net : `, `NET/IB : `,
`Bootstrap : `) is cut off when what is left still has TAGLESS bytes: titles and quotes drop it. A literal is left out
when it occurs in a healthy text (an INFO format that announces no failure, a healthy row), when it is on the
reviewed list EXCLUDE below (words other programs print too), or when another kept literal occurs in it (the
shorter one finds the same lines), or when a line of a healthy log holds it (the files under HEALTHY and every
test resource named `*healthy*`: older versions print some of these texts at INFO, `Could not find real path of`
in a VM). The output is sorted; `--check DIR...` also lists every line of the files under DIR that holds a
literal but no `WARN` (for review).

Each literal is written with its needle: the WINDOW bytes of it whose byte triples are rarest in the healthy logs
and in training jobs' own lines (STEPS: triples counted over their lines). The line filter looks for the needles
in its one Wu-Manber pass, whose shift table takes the triples of the first 8 bytes of every needle: windows of rare
triples keep its skips long on ordinary text, where whole literals (`Call to `, `failed with error`) would shorten
them. A line holding a
needle is then asked for the whole literal.

Usage: python3 bench/nccl-failure-texts.py > topolens-core/src/main/resources/io/topolens/nccl/failure-texts.txt
"""
import math
import os
import re
import sys

MIN = 16
# a format's other literals (not its longest) count from this length (measured: bench/results/nccl-messages/other-literals.txt)
OTHER_MIN = 18
ALL_LITERALS = True
# reviewed: other literals that other programs' lines say too
OTHER_EXCLUDE = {'allocated on device', 'localHostHash = 0x'}
WINDOW = 12
# the line filter's pass shifts by the first this many bytes of each needle (NeedleSet: its shortest long needle)
SHIFT_BYTES = 8
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CALLS = 'bench/results/nccl-messages/libnccl-2.28.3-log-calls.tsv'
OTHER = 'bench/results/nccl-messages/other-formats.tsv'
MESSAGES = 'topolens-core/src/test/resources/nccl/messages/messages.tsv'
HEALTHY = ['examples', 'topolens-core/src/test/resources/fixtures']
RESOURCES = 'topolens-core/src/test/resources'
STEPS = 'topolens-core/src/test/resources/public/steps'

CONVERSION = re.compile(r'%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcspn%]')
TAG = re.compile(r'^[A-Za-z][A-Za-z/ ]{1,23} : ')
# A tag is cut off only where this much is left, so what is left still names one failure.
TAGLESS = 24
# the sample values of a row: any token holding a digit, and the errno texts NCCL prints with %s (strerror)
SAMPLE = re.compile(r'\S*\d\S*|' + '|'.join(re.escape(e) for e in [
    'Invalid argument', 'No such file or directory', 'Connection refused', 'Connection timed out',
    'No route to host', 'Cannot allocate memory', 'No space left on device', 'Permission denied',
    'Too many open files', 'Operation not permitted', 'Software caused connection abort',
    'Network is unreachable', 'No data available', 'Operation not supported', 'Resource temporarily unavailable',
    'Connection reset by peer', 'Broken pipe', 'Address family not supported by protocol']))

# Reviewed: literals of NCCL formats that other programs' lines hold too, or that say nothing of a failure.
EXCLUDE = {
    # generic wording other programs print too (parsers, Python objects, video devices, CUDA apps)
    'argument is NULL',
    'has already been destroyed',
    'Unable to open device',
    'Unable to query device',
    'could not find GPU',
    'Could not find id',
    'Could not find handle',
    'could not find mr',
    'unexpected trailing',
    'unterminated comment',
    'Cannot use physical device',
    'Expected (double) quote.',
    'unable to allocate requests',
    'unable to allocate subtasks',
    'Failed to malloc',
    'Could not enable',
    'not supported between',
    'missing responses',
    "'invalid argument'",
    # other loggers' WARN lines hold it (SocketInterfaceRuleTest: a line that is not NCCL's)
    'Socket creation failed :',
    # CUDA's error string (a %s value), which frameworks print in their own words too: the filter's own
    # needle (Needles.PEER_ACCESS) reads those as theirs
    'peer access is not supported between these two devices',
    # a fallback NCCL takes and goes on (a WARN in 2.28.3, yet healthy logs hold it)
    'falling back to simple order',
    # the source history sweep's older wordings (source-history-warns.tsv), reviewed: words of any
    # program's allocator, socket, affinity or argument checks (the longer NCCL forms stay:
    # socketProgress: Connection closed by remote peer)
    'failed to allocate memory',
    'Connection closed by remote peer',
    'Failed to set CPU affinity',
    'is in abort state',
    'is being ignored because it is not a power of',
    # 2.29's net_ib/connect.cc (branch ncclsweep), reviewed: any RDMA program's QP creation (UCX, perftest)
    'failed to create QP:',
}


def read(path):
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        return [l.rstrip('\n') for l in f if l.strip() and not l.startswith('#')]


def pattern(fmt):
    """A regular expression matching what the format prints."""
    parts = CONVERSION.split(fmt.replace('\\n', '\n'))
    return re.compile('.*?'.join(re.escape(p) for p in parts), re.S)


def literal(parts):
    best = max((p.strip() for p in parts), key=len, default='')
    tag = TAG.match(best)
    if tag and len(best.strip()) - tag.end() >= TAGLESS:
        best = best[tag.end():].strip()
    return best


def window(lit, pairs):
    """The WINDOW bytes of a literal whose first SHIFT_BYTES cost the pass least on ordinary text: a triple ending
    at place j of them lets the pass skip only SHIFT_BYTES - 1 - j bytes where it occurs (so the last costs most,
    and there every occurrence is compared in full)."""
    b = lit.encode('latin1')
    most = SHIFT_BYTES - 1
    best, best_score = b[:WINDOW], None
    for s in range(0, len(b) - WINDOW + 1):
        w = b[s:s + WINDOW]
        score = 0.0
        for j in range(2, SHIFT_BYTES):
            n = pairs.get(w[j - 2:j + 1], 0)
            skip = most - j
            score += n * ((1.0 / skip - 1.0 / most) if skip > 0 else 2.0)
        if best_score is None or score < best_score:
            best, best_score = w, score
    return best.decode('latin1')


def files(top):
    for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
        for name in sorted(names):
            yield os.path.join(dirpath, name)


def ordinary_lines():
    """Training jobs' own lines (tqdm bars, loss dictionaries, DeepSpeed timers), what the filter mostly reads."""
    out = []
    for p in files(STEPS):
        with open(p, encoding='utf-8', errors='replace') as f:
            out += [l for l in f if 'NCCL' not in l]
    return out


def healthy_lines():
    paths = [p for d in HEALTHY for p in files(d)]
    paths += [p for p in files(RESOURCES) if 'healthy' in os.path.basename(p) and p.endswith('.log')]
    out = []
    for p in paths:
        with open(p, encoding='utf-8', errors='replace') as f:
            out += [l for l in f if 'WARN' not in l]
    return out


def main(argv):
    warn, info = [], []
    for l in read(CALLS):
        f = l.split('\t')
        (warn if f[1] == '2' else info).append(f[4])
    other = [l.split('\t')[1] for l in read(OTHER)]
    rows = [l.split('\t') for l in read(MESSAGES)]
    formats = sorted(set(warn) | set(other))
    # the formats that have a literal: a row one of them prints needs no literal of its own
    known = [pattern(f) for f in formats
             if len(literal(CONVERSION.split(f.replace('\\n', ' ')))) >= MIN]
    failing_info = [r[4] for r in rows if r[1] == 'INFO' and r[0] != '-']
    healthy = [f for f in set(info)
               if not any(pattern(f).fullmatch(t) for t in failing_info)]
    healthy += [r[4] for r in rows if r[0] == '-']
    literals = {}
    for fmt in formats:
        parts = CONVERSION.split(fmt.replace('\\n', ' '))
        lit = literal(parts)
        if len(lit) >= MIN:
            literals.setdefault(lit, fmt)
        # the format's other literals of OTHER_MIN bytes or more: quoted without the longest
        # (a blog's "Error: rank 27 and rank 19 both on CUDA device 53000", the header and the
        # literal before the first number dropped), they still tell the format
        if len(argv) > 1 and argv[1] == '--all-literals' or ALL_LITERALS:
            for p in parts:
                q = p.strip()
                if len(q) >= OTHER_MIN and q[0].isalpha() and not TAG.match(q) and q not in OTHER_EXCLUDE:
                    literals.setdefault(q, fmt)
    for r in rows:
        if r[0] in ('-', 'unnamed') or r[1] == 'TEXT' or any(p.fullmatch(r[4]) for p in known):
            continue
        lit = literal(SAMPLE.split(r[4]))
        if len(lit) >= MIN:
            literals.setdefault(lit, r[4])
    healthy += healthy_lines()
    kept = [l for l in literals
            if l not in EXCLUDE and not any(l in h for h in healthy)]
    kept = sorted(l for l in kept if not any(o != l and o in l for o in kept))
    pairs = {}
    for line in healthy + ordinary_lines():
        b = line.encode('latin1', 'replace')
        for i in range(len(b) - 2):
            pairs[b[i:i + 3]] = pairs.get(b[i:i + 3], 0) + 1
    print('# NCCL failure texts that tell a line is NCCL\'s WARN text without its header: literal TAB needle.')
    print('# Generated by bench/nccl-failure-texts.py (it says how; reviewed: its EXCLUDE list); do not edit by hand.')
    print('# %d literals of %d WARN formats (libnccl.so.2.28.3 and %s) and the failure rows of %s.'
          % (len(kept), len(formats), OTHER, MESSAGES))
    for l in kept:
        print('%s\t%s' % (l, window(l, pairs)))
    if len(argv) > 2 and argv[1] == '--check':
        for d in argv[2:]:
            for dirpath, _, files in os.walk(d):
                for name in files:
                    p = os.path.join(dirpath, name)
                    try:
                        lines = open(p, encoding='utf-8', errors='replace').read().splitlines()
                    except OSError:
                        continue
                    for i, line in enumerate(lines):
                        if 'WARN' in line:
                            continue
                        for l in kept:
                            if l in line:
                                print('%s:%d: [%s] %s' % (p, i + 1, l, line[:160]), file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv)
