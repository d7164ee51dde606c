"""Where the time of an FSDP2 step goes, phase by phase (issue 12, the one-pod step).

Builds train_fsdp.py's Llama-shaped model (examples/experiment/train_fsdp.py, the model of the 4-GPU layout
experiments) for each shape given and times its steps three ways per phase (forward, backward, optimizer):
the wall time with a device synchronisation after each phase (as train_fsdp.py reports them), the host time until
the phase's Python call returned (before that synchronisation: how long the host took to issue the phase), and the
CUDA-event time of the phase. One more step is then profiled (torch.profiler, CPU and CUDA): the kernels launched,
their summed time, the union of their intervals (the time the GPU was busy) with and without NCCL's kernels.

Modes:
  plain  the module alone, parameters in bf16, no FSDP (what a step costs without FSDP's hooks and copies)
  fsdp   FSDP2 as train_fsdp.py wraps it (fully_shard per layer and the root, bf16 parameters, fp32 reduction),
         over NCCL with the env:// world it is started in (world 1 by default)
  fake   the same FSDP2 wrapping over torch's fake process group of --world ranks on one GPU: FSDP2's sharding,
         copy-in/copy-out and casts for that world size, with no communication and no waiting for other ranks

Each rank prints one JSON line per shape. Usage (one GPU):
  python3 bench/fsdp-phases.py --mode fsdp --shapes h2048-l16-s1024-mb2,h2048-l8-s1024-mb2
Shapes are h<hidden>-l<layers>-s<seq>-mb<micro-batch>; heads = hidden / 128; intermediate 5632 at hidden 2048
(train_fsdp.py's default), else 8/3 x hidden rounded up to 256.
"""
import argparse, importlib.util, json, os, socket, statistics, sys, time

import torch
import torch.distributed as dist


def train_fsdp():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "train_fsdp.py")  # a copy carried beside this script, else the repository's
    if not os.path.exists(path):
        path = os.path.join(here, "..", "examples", "experiment", "train_fsdp.py")
    spec = importlib.util.spec_from_file_location("train_fsdp", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def parse_shape(s):
    parts = dict((p[0] if not p.startswith("mb") else "mb", int(p[2:] if p.startswith("mb") else p[1:]))
                 for p in s.split("-"))
    h = parts["h"]
    inter = 5632 if h == 2048 else ((h * 8 // 3 + 255) // 256) * 256
    return {"hidden": h, "layers": parts["l"], "seq": parts["s"], "mb": parts["mb"], "heads": h // 128, "inter": inter}


def barrier(d, tag, n, rank):
    """Waits until n processes reached tag (independent processes sharing one host)."""
    if not d:
        return
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, f"{tag}.{rank}"), "w").close()
    t = time.time()
    while sum(1 for f in os.listdir(d) if f.startswith(tag + ".")) < n and time.time() - t < 120:
        time.sleep(0.05)


def profile_step(run_step):
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        run_step()
        torch.cuda.synchronize()
    kernels, launches, ksum, nccl_sum = 0, 0, 0.0, 0.0
    iv_all, iv_comp = [], []
    for e in prof.events():
        name = e.name
        if e.device_type == torch.autograd.DeviceType.CUDA:
            r = (e.time_range.start, e.time_range.end)
            kernels += 1
            ksum += r[1] - r[0]
            iv_all.append(r)
            if "nccl" in name.lower():
                nccl_sum += r[1] - r[0]
            else:
                iv_comp.append(r)
        elif name.startswith(("cudaLaunchKernel", "cuLaunchKernel", "cudaLaunchKernelExC")):
            launches += 1

    def union(iv):
        tot, end = 0.0, None
        start = None
        for a, b in sorted(iv):
            if end is None or a > end:
                if end is not None:
                    tot += end - start
                start, end = a, b
            else:
                end = max(end, b)
        if end is not None:
            tot += end - start
        return tot / 1e6

    span = (max(b for _, b in iv_all) - min(a for a, _ in iv_all)) / 1e6 if iv_all else 0.0
    return {"kernels": kernels, "launch_calls": launches, "kernel_sum_s": ksum / 1e6, "nccl_kernel_sum_s": nccl_sum / 1e6,
            "gpu_busy_s": union(iv_all), "compute_busy_s": union(iv_comp), "kernel_span_s": span}


def one_shape(tf, mode, shape, steps, warm, rank, world, barrier_dir, barrier_n, brank, profile=True):
    sh = parse_shape(shape)
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = tf.Llama(32000, sh["hidden"], sh["layers"], sh["heads"], sh["inter"])
    params = sum(p.numel() for p in model.parameters())
    if mode == "plain":
        model = model.to(torch.bfloat16)
    else:
        from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
        kw = {"mp_policy": MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)}
        for layer in model.layers:
            fully_shard(layer, **kw)
        fully_shard(model, **kw)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, 32000, (sh["mb"], sh["seq"]), device="cuda")
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(4)]

    def run_step():
        loss = model(ids)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    rows = []
    barrier(barrier_dir, shape + "-" + mode, barrier_n, brank)
    for i in range(warm + steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        ev[0].record()
        loss = model(ids)
        h1 = time.perf_counter()
        ev[1].record()
        torch.cuda.synchronize()
        t1 = time.perf_counter()
        loss.backward()
        h2 = time.perf_counter()
        ev[2].record()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        opt.step()
        opt.zero_grad(set_to_none=True)
        h3 = time.perf_counter()
        ev[3].record()
        torch.cuda.synchronize()
        t3 = time.perf_counter()
        if i >= warm:
            rows.append([t1 - t0, t2 - t1, t3 - t2, h1 - t0, h2 - t1, h3 - t2,
                         ev[0].elapsed_time(ev[1]) / 1e3, ev[1].elapsed_time(ev[2]) / 1e3,
                         ev[2].elapsed_time(ev[3]) / 1e3])
    # the same steps without a synchronisation between phases: what the phases' syncs cost
    free = []
    for i in range(steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        run_step()
        torch.cuda.synchronize()
        free.append(time.perf_counter() - t0)
    try:
        prof = profile_step(run_step) if profile else {"skipped": True}
    except Exception as e:  # the timings stand without it
        prof = {"error": repr(e)[:300]}
    med = lambda j: statistics.median(r[j] for r in rows)
    out = {"tag": shape, "mode": mode, "world": world, "rank": rank, "gpu": torch.cuda.get_device_name(),
           "host": socket.gethostname(), "params": params, **sh,
           "omp_threads": torch.get_num_threads(), "torch": torch.__version__,
           "step_s": med(0) + med(1) + med(2), "fwd_s": med(0), "bwd_s": med(1), "opt_s": med(2),
           "fwd_host_s": med(3), "bwd_host_s": med(4), "opt_host_s": med(5),
           "fwd_event_s": med(6), "bwd_event_s": med(7), "opt_event_s": med(8),
           "step_nosync_s": statistics.median(free), "steps": [[round(x, 6) for x in r] for r in rows],
           "steps_nosync": [round(x, 6) for x in free], "profile": prof,
           "peak_mem_gib": torch.cuda.max_memory_allocated() / 2 ** 30}
    del model, opt
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["plain", "fsdp", "fake"], required=True)
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--warm", type=int, default=3)
    ap.add_argument("--world", type=int, default=4, help="fake mode: the world size FSDP2 shards for")
    ap.add_argument("--out", default="", help="append each JSON line to this file too")
    ap.add_argument("--barrier-dir", default="")
    ap.add_argument("--barrier-n", type=int, default=1)
    ap.add_argument("--no-profile", action="store_true", help="skip the profiled step")
    ap.add_argument("--label", default="", help="a name for the run, kept in every line")
    a = ap.parse_args()
    tf = train_fsdp()
    local = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local)
    rank, world = 0, 1
    if a.mode == "fsdp":
        os.environ.setdefault("RANK", "0")
        os.environ.setdefault("WORLD_SIZE", "1")
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", "29533")
        dist.init_process_group("nccl", device_id=torch.device("cuda", local))
        rank, world = dist.get_rank(), dist.get_world_size()
    elif a.mode == "fake":
        from torch.testing._internal.distributed.fake_pg import FakeStore
        dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=a.world)
        world = a.world
    brank = int(os.environ.get("BARRIER_RANK", rank))
    for shape in a.shapes.split(","):
        try:
            line = one_shape(tf, a.mode, shape, a.steps, a.warm, rank, world, a.barrier_dir, a.barrier_n, brank,
                             not a.no_profile)
        except Exception as e:
            line = {"tag": shape, "mode": a.mode, "world": world, "rank": rank, "error": repr(e)[:500]}
            torch.cuda.empty_cache()
        line["label"] = a.label
        line["barrier_rank"] = brank
        s = json.dumps(line)
        print(s, flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(s + "\n")
    if dist.is_initialized():
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
