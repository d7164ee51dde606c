#!/usr/bin/env python3
"""Per-module host time from bench/fsdp2-module-proxy.py's output (JSON lines): for each mode the least-squares
slope of forward+backward seconds against modules, per rep and pooled; FSDP2's own per module and pass is
(fsdp - plain) / 2, what CPU offload adds per module and pass is (offload - fsdp) / 2 (two passes: forward and
backward each unshard every module once). Usage: bench/fsdp2-module-proxy-fit.py FILE"""
import json
import sys


def slope(points):
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)


rows = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
reps = sorted({r["rep"] for r in rows})
for rep in reps + [None]:
    s = {}
    for mode in ("plain", "fsdp", "offload"):
        pts = [(r["modules"], r["fwd_bwd_s"]) for r in rows if r["mode"] == mode and rep in (None, r["rep"])]
        s[mode] = slope(pts)
    print(
        "%s: per module forward+backward plain %.3f ms, fsdp %.3f ms, offload %.3f ms;"
        " FSDP2 per module and pass %.3f ms, offload adds %.3f ms per module and pass"
        % (
            "pooled" if rep is None else "rep %d" % rep,
            1e3 * s["plain"],
            1e3 * s["fsdp"],
            1e3 * s["offload"],
            1e3 * (s["fsdp"] - s["plain"]) / 2,
            1e3 * (s["offload"] - s["fsdp"]) / 2,
        )
    )
