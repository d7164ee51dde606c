"""Measures PyTorch's CPU AdamW throughput (parameters updated per second per host), the way FSDP2 with
CPUOffloadPolicy runs it: N processes on one host, each stepping its 1/N shard of a Llama-shaped model's
fp32 parameters with torch.optim.AdamW (defaults) on the CPU, all at once.

Usage: python3 bench/cpu-adam.py [procs=4] [hidden=2048] [layers=16] [steps=6]
Prints one JSON line with the per-host rate (sum of the processes' rates, median step of each).
"""
import json, os, statistics, sys, time
import multiprocessing as mp


def shapes(hidden, layers, vocab=32000, inter=None):
    inter = inter or int(hidden * 8 / 3 / 256 + 0.999) * 256  # Llama's intermediate size rounding
    out = [(vocab, hidden), (vocab, hidden), (hidden,)]  # embeddings, lm_head, final norm
    for _ in range(layers):
        out += [(hidden, hidden)] * 4 + [(inter, hidden)] * 2 + [(hidden, inter)] + [(hidden,)] * 2
    return out


def worker(rank, procs, hidden, layers, steps, q):
    import torch
    torch.manual_seed(rank)
    params = []
    for s in shapes(hidden, layers):
        shard = list(s)
        shard[0] = max(1, s[0] // procs)  # FSDP2 shards dim 0
        p = torch.nn.Parameter(torch.randn(*shard, dtype=torch.float32))
        p.grad = torch.randn_like(p)
        params.append(p)
    n = sum(p.numel() for p in params)
    opt = torch.optim.AdamW(params, lr=1e-4)
    times = []
    for _ in range(steps):
        t = time.perf_counter()
        opt.step()
        times.append(time.perf_counter() - t)
    q.put({"rank": rank, "params": n, "step_s": statistics.median(times[1:]), "threads": torch.get_num_threads()})


def main():
    defaults = [4, 2048, 16, 6]
    args = sys.argv[1:]
    procs, hidden, layers, steps = (int(args[i]) if i < len(args) else defaults[i] for i in range(4))
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    ps = [ctx.Process(target=worker, args=(r, procs, hidden, layers, steps, q)) for r in range(procs)]
    for p in ps:
        p.start()
    res = [q.get() for _ in ps]
    for p in ps:
        p.join()
    total = sum(r["params"] for r in res)
    rate = sum(r["params"] / r["step_s"] for r in res)
    import torch
    print(json.dumps({"procs": procs, "hidden": hidden, "layers": layers, "params_total": total,
                      "host_rate_params_per_s": rate, "per_proc": sorted(res, key=lambda r: r["rank"]),
                      "torch": torch.__version__, "cpus": os.cpu_count()}))


if __name__ == "__main__":
    main()
