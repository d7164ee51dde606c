"""The probe's launch micro-benchmark and FSDP2's world-1 step in ONE process, side by side (issue 12, the host's
launch speed): whether the micro-benchmark tracks the per-layer launch time when both run under the same conditions.

One FSDP2 model of train_fsdp.py (bench/fsdp-phases.py's build, world 1 over NCCL) is built once; then, ITERS times,
the probe's own launch_costs() (probe.py, the function the probe runs) and 3 timed steps (forward+backward with a
synchronisation after each phase, as fsdp-phases.py times them). With --pin the main thread moves to the next vCPU
each iteration (os.sched_setaffinity of the calling thread), so the vCPUs' differences fall on both alike.
Prints one JSON line per iteration: {"label", "iter", "cpu", "launch": {op: us}, "fb_s": [...]}.
Usage: python3 bench/launch-inprocess.py --shape h2048-l16-s1024-mb2 --iters 16 [--pin] --label NAME
"""
import argparse, importlib.util, json, os, statistics, sys, time

import torch
import torch.distributed as dist


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="h2048-l16-s1024-mb2")
    ap.add_argument("--iters", type=int, default=16)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--pin", action="store_true")
    ap.add_argument("--label", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--hf", action="store_true",
                    help="transformers' LlamaForCausalLM as bench/fsdp-step.py builds it (the fit of"
                         " compute.launchPerLayerS), heads = hidden / 128")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    probe_path = os.path.join(here, "probe.py")
    if not os.path.exists(probe_path):
        probe_path = os.path.join(here, "..", "topolens-lab", "src", "main", "resources", "io", "topolens", "lab",
                                  "probe", "probe.py")
    probe = load("probe", probe_path)
    phases = load("fsdp_phases", os.path.join(here, "fsdp-phases.py"))
    tf = phases.train_fsdp()
    for k, v in (("RANK", "0"), ("WORLD_SIZE", "1"), ("MASTER_ADDR", "127.0.0.1"), ("MASTER_PORT", "29544")):
        os.environ.setdefault(k, v)
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", device_id=torch.device("cuda", 0))
    sh = phases.parse_shape(a.shape)
    torch.manual_seed(0)
    if a.hf:
        from transformers import LlamaConfig, LlamaForCausalLM
        inter = ((sh["hidden"] * 8 // 3 + 255) // 256) * 256
        cfg = LlamaConfig(hidden_size=sh["hidden"], num_hidden_layers=sh["layers"], num_attention_heads=sh["heads"],
                          num_key_value_heads=sh["heads"], intermediate_size=inter, vocab_size=32000,
                          max_position_embeddings=max(2048, sh["seq"]), tie_word_embeddings=False)
        cfg._attn_implementation = "sdpa"
        with torch.device("cuda"):
            hf = LlamaForCausalLM(cfg)
        layers = hf.model.layers

        class Loss(torch.nn.Module):
            def __init__(self, m):
                super().__init__()
                self.m = m

            def forward(self, x):
                return self.m(input_ids=x, labels=x).loss
        model = hf
    else:
        with torch.device("cuda"):
            model = tf.Llama(32000, sh["hidden"], sh["layers"], sh["heads"], sh["inter"])
        layers = model.layers
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
    kw = {"mp_policy": MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)}
    for layer in layers:
        fully_shard(layer, **kw)
    fully_shard(model, **kw)
    if a.hf:
        model = Loss(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, 32000, (sh["mb"], sh["seq"]), device="cuda")

    def step():
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        loss = model(ids)
        torch.cuda.synchronize()
        t1 = time.perf_counter()
        loss.backward()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        opt.step()
        opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        return t2 - t0

    for _ in range(3):
        step()
    cpus = sorted(os.sched_getaffinity(0))
    device = torch.device("cuda", 0)
    for i in range(a.iters):
        cpu = cpus[i % len(cpus)] if a.pin else None
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
        mu = probe.launch_costs(torch, dist, device, 200, 3, lambda: None)
        fb = [step() for _ in range(a.steps)]
        line = json.dumps({"label": a.label, "shape": a.shape, "hf": a.hf, "layers": sh["layers"], "iter": i, "cpu": cpu,
                           "launch": {k: round(v, 3) for k, v in mu.items()}, "fb_s": [round(x, 5) for x in fb]})
        print(line, flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(line + "\n")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
