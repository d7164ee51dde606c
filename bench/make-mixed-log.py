#!/usr/bin/env python3
"""Synthesizes a large pod log of a training job whose lines are mostly the job's own, with NCCL lines interleaved.

Usage: python3 bench/make-mixed-log.py NCCL_SOURCE.log APP_SOURCE.log OUT.log SIZE_MIB [HOSTS]   (HOSTS default 1024)
Each host (node-00000, ...) holds 4 ranks and prints, in this order, as `kubectl logs` of its pod shows it:
the start-up lines of APP_SOURCE (a real pod log's non-NCCL lines) with the NCCL lines of NCCL_SOURCE (rewritten as
bench/make-big-log.py does, so that all hosts form one communicator of 4 x HOSTS ranks) shuffled among them, then
the training loop of an HF Trainer + DeepSpeed ZeRO-3 job (tqdm progress, loss dictionaries, DeepSpeed step and
timer lines, a periodic warning) until the host has its share of SIZE_MIB. The output is the same for the same
arguments (seeded per host).
"""
import importlib.util
import os
import random
import sys

spec = importlib.util.spec_from_file_location("make_big_log", os.path.join(os.path.dirname(__file__), "make-big-log.py"))
big = importlib.util.module_from_spec(spec)
spec.loader.exec_module(big)

BAR = " ▏▎▍▌▋▊▉█"
# torch's warning when a rank enters barrier() before its first collective: a job's line that names NCCL
BARRIER = ("[rank%d]:[W1228 16:05:31.%06d 152 torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:4561] [PG ID 0 PG GUID 0 "
           "Rank %d]  using GPU %d to perform barrier as devices used by this process are currently unknown. This can "
           "potentially cause a hang if this rank to GPU mapping is incorrect. Specify device_ids in barrier() to force "
           "use of a particular device, or call init_process_group() with a device_id.")


def clock(t):
    t = int(t)
    h, m, s = t // 3600, t // 60 % 60, t % 60
    return "%d:%02d:%02d" % (h, m, s) if h else "%02d:%02d" % (m, s)


def tqdm(step, total, elapsed, rate):
    frac = step / total
    filled = frac * 10
    full = int(filled)
    bar = "█" * full + (BAR[int((filled - full) * 8)] if full < 10 else "")
    bar = bar.ljust(10)
    return "%3d%%|%s| %d/%d [%s<%s, %.2fs/it]" % (int(frac * 100), bar, step, total, clock(elapsed),
                                                    clock((total - step) * rate), rate)


def stamp(t):
    t = int(t)
    return "2024-12-28 %02d:%02d:%02d,%03d" % (16 + t // 3600 % 8, t // 60 % 60, t % 60, (t * 37) % 1000)


def training(rng, h, budget):
    """The training loop's lines of host h, about `budget` bytes."""
    out = []
    size = 0
    total = 1722
    step = 0
    t = 120.0 + rng.random() * 10
    loss = 2.4 + rng.random() * 0.2
    while size < budget:
        step = step % total + 1
        rate = 3.3 + rng.random() * 0.4
        t += rate
        loss = max(0.9, loss - 0.0004 + rng.gauss(0, 0.01))
        lines = [tqdm(step, total, t - 120, rate)]
        for rank in range(4):
            lines.append("[%s] [INFO] [timer.py:264:stop] epoch=0/micro_step=%d/global_step=%d, RunningAvgSamplesPerSec=%.2f, "
                         "CurrSamplesPerSec=%.2f, MemAllocated=%.2fGB, MaxMemAllocated=%.2fGB"
                         % (stamp(t), step * 4, step, 4.3 + rng.random() * 0.1, 4.2 + rng.random() * 0.3, 0.03, 1.99))
        if step % 10 == 0:
            lines.append("[%s] [INFO] [logging.py:128:log_dist] [Rank %d] step=%d, skipped=0, lr=[%.6e], mom=[(0.9, 0.999)]"
                         % (stamp(t), 4 * h, step, 2e-5 * (1 - step / total)))
            lines.append("{'loss': %.4f, 'grad_norm': %.10f, 'learning_rate': %.4e, 'epoch': %.2f}"
                         % (loss, 0.3 + rng.random(), 2e-5 * (1 - step / total), 3 * step / total))
        if step % 50 == 0:
            lines.append("[rank%d]:W1228 %s.%06d 152 site-packages/torch/utils/checkpoint.py:87] None of the inputs have "
                         "requires_grad=True. Gradients will be None" % (4 * h + rng.randrange(4), stamp(t)[11:19],
                                                                          rng.randrange(10 ** 6)))
        for l in lines:
            out.append(l)
            size += len(l.encode("utf-8")) + 1
    return out


def main():
    nccl_src, app_src, out, size = sys.argv[1:5]
    hosts = int(sys.argv[5]) if len(sys.argv) > 5 else 1024
    nccl = open(nccl_src, encoding="utf-8", errors="replace").read().splitlines()
    app = [l for l in open(app_src, encoding="utf-8", errors="replace").read().splitlines() if "NCCL" not in l]
    budget = int(size) * 1024 * 1024 // hosts
    total = 4 * hosts
    with open(out, "w", encoding="utf-8") as f:
        for h in range(hosts):
            rng = random.Random(h)
            ncl = big.host_lines(nccl, h, total)
            start = list(app)
            for rank in range(4 * h, 4 * h + 4):
                start.insert(rng.randrange(len(start)), BARRIER % (rank, rng.randrange(10 ** 6), rank, rank % 4))
            # the NCCL lines keep their order; the start-up lines fall between them
            merged = []
            i = j = 0
            while i < len(ncl) or j < len(start):
                if j < len(start) and (i >= len(ncl) or rng.random() < len(start) / (len(start) + len(ncl))):
                    merged.append(start[j])
                    j += 1
                else:
                    merged.append(ncl[i])
                    i += 1
            used = sum(len(l.encode("utf-8")) + 1 for l in merged)
            f.write("\n".join(merged + training(rng, h, budget - used)) + "\n")
    print("wrote %s: %d hosts, %d ranks" % (out, hosts, total))


if __name__ == "__main__":
    main()
