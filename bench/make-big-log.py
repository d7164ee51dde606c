#!/usr/bin/env python3
"""Synthesizes a large NCCL log of a job of many hosts from a real 4-GPU log, as thousands of ranks would print it.

Usage: python3 bench/make-big-log.py SOURCE.log OUT.log SIZE_MIB [traces=K]   (or hosts=N for exactly N hosts)
Each copy of SOURCE becomes one host (node-00000, node-00001, ...) holding 4 ranks: hostnames, pids, comm ranks
and nranks are rewritten so that all copies form one communicator of 4 x hosts ranks, and each host's last rank
sends to the next host's first rank over NET/Socket (the ring between nodes).
traces=K writes each of SOURCE's trace lines (COLL `opCount` and TUNING `Bytes -> Algo` lines) K times where it
stands: the same job running K times longer, so hosts=1705 traces=13 is the 6820-rank job of the 1 GiB log in
about 10 GiB. With SIZE_MIB and traces=K the hosts are fitted to the size of a host's K-fold lines.
"""
import re
import sys

head = re.compile(r"^vm:(\d+):(\d+) ")
conn = re.compile(r"(Channel \d+/\d+ : )(\d+)\[(\d+)\] -> (\d+)\[(\d+)\]")
comm_rank = re.compile(r"( rank )(\d+)( n[Rr]anks )(\d+)")


def is_trace(line):
    return "opCount" in line or "Bytes -> Algo" in line


def host_lines(lines, h, total, traces=1):
    """The lines of SOURCE as host h of a job of `total` ranks prints them, each trace line `traces` times, ring
    connection to the next host last."""
    base = 4 * h
    name = "node-%05d" % h
    chunk = []
    pid3 = 0
    for l in lines:
        l = head.sub(lambda m: "%s:%d:%d " % (name, int(m.group(1)) + h * 10, int(m.group(2)) + h * 10), l)
        l = conn.sub(lambda m: "%s%d[%s] -> %d[%s]" % (m.group(1), int(m.group(2)) + base, m.group(3), int(m.group(4)) + base, m.group(5)), l)
        l = comm_rank.sub(lambda m: "%s%d%s%d" % (m.group(1), int(m.group(2)) + base, m.group(3), total), l)
        if l.startswith(name + ":") and " [3] " in l[:40]:
            pid3 = int(l.split(":")[1])
        chunk.append(l)
        if traces > 1 and is_trace(l):
            chunk.extend([l] * (traces - 1))
    nxt = (base + 4) % total
    for ch in range(2):
        chunk.append("%s:%d:%d [3] NCCL INFO Channel %02d/0 : %d[3] -> %d[0] [send] via NET/Socket/0" % (name, pid3, pid3, ch, base + 3, nxt))
    return chunk


def main():
    src, out, size = sys.argv[1], sys.argv[2], sys.argv[3]
    traces = 1
    for arg in sys.argv[4:]:
        if not arg.startswith("traces="):
            sys.exit("unknown argument %s (traces=K)" % arg)
        traces = max(1, int(arg[len("traces="):]))
    lines = open(src, encoding="utf-8", errors="replace").read().splitlines()
    host_bytes = sum((len(l) + 1) * (traces if is_trace(l) else 1) for l in lines)
    if size.startswith("hosts="):
        hosts = max(1, int(size[len("hosts="):]))
    else:
        hosts = max(1, int(size) * 1024 * 1024 // host_bytes)
    total = 4 * hosts
    with open(out, "w", encoding="utf-8") as f:
        for h in range(hosts):
            f.write("\n".join(host_lines(lines, h, total, traces)) + "\n")
    print("wrote %s: %d hosts, %d ranks, each trace line %d times" % (out, hosts, total, traces))


if __name__ == "__main__":
    main()
