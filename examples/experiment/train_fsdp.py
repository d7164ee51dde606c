"""A short FSDP2 training run of a Llama-shaped model (about 1B parameters by default: hidden 2048, 16 layers,
16 heads, SwiGLU 5632, vocabulary 32000) written in plain PyTorch (no transformers), random weights and tokens:
fully_shard per decoder layer, bf16 parameters with fp32 gradient reduction, AdamW, and with --offload cpu the
parameters and optimizer on the host (CPUOffloadPolicy). Runs under any env:// launcher; topolens experiment starts
the ranks itself and passes {offload}. Rank 0 prints one JSON line a step ({"step": i, "step_time": s, "fwd": s,
"bwd": s, "opt": s}), the form topolens reads step times from. Needs torch 2.6 or later and GPUs.

Usage: python3 train_fsdp.py [--offload none|cpu] [--steps 8] [--hidden 2048] [--layers 16] [--seq 1024] [--mb 2]
"""
import argparse, json, math, os, time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps).to(x.dtype)


def rope(x, base=10000.0):
    b, h, t, d = x.shape
    inv = 1.0 / (base ** (torch.arange(0, d, 2, device=x.device, dtype=torch.float32) / d))
    ang = torch.outer(torch.arange(t, device=x.device, dtype=torch.float32), inv)
    cos, sin = ang.cos().to(x.dtype), ang.sin().to(x.dtype)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class Block(nn.Module):
    def __init__(self, d, heads, inter):
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = RMSNorm(d), RMSNorm(d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, d, bias=False)
        self.gate = nn.Linear(d, inter, bias=False)
        self.up = nn.Linear(d, inter, bias=False)
        self.down = nn.Linear(inter, d, bias=False)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(rope(q), rope(k), v, is_causal=True)
        x = x + self.out(a.transpose(1, 2).reshape(b, t, d))
        h = self.norm2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Llama(nn.Module):
    def __init__(self, vocab, d, layers, heads, inter):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(Block(d, heads, inter) for _ in range(layers))
        self.norm = RMSNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x)
        logits = self.head(self.norm(x))
        return F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)).float(), ids[:, 1:].reshape(-1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--offload", default="none", choices=["none", "cpu", "optimizer"])
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--hidden", type=int, default=2048)
    ap.add_argument("--layers", type=int, default=16)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--inter", type=int, default=5632)
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--seq", type=int, default=1024)
    ap.add_argument("--mb", type=int, default=2)
    a = ap.parse_args()

    from torch.distributed.fsdp import CPUOffloadPolicy, MixedPrecisionPolicy, fully_shard

    local = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local)
    dist.init_process_group("nccl", device_id=torch.device("cuda", local))
    rank = dist.get_rank()
    offload = a.offload != "none"  # FSDP2's CPUOffloadPolicy moves parameters and optimizer together
    torch.manual_seed(0)
    with torch.device("cpu" if offload else "cuda"):
        model = Llama(a.vocab, a.hidden, a.layers, a.heads, a.inter)
    params = sum(p.numel() for p in model.parameters())
    kw = {"mp_policy": MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)}
    if offload:
        kw["offload_policy"] = CPUOffloadPolicy()
    for layer in model.layers:
        fully_shard(layer, **kw)
    fully_shard(model, **kw)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, a.vocab, (a.mb, a.seq), device="cuda")
    if rank == 0:
        print(json.dumps({"params": params, "world": dist.get_world_size(), "offload": a.offload,
                          "gpu": torch.cuda.get_device_name(), "cpu_threads": torch.get_num_threads(),
                          "omp_num_threads": os.environ.get("OMP_NUM_THREADS"), "cpus": os.cpu_count()}),
              flush=True)
    for step in range(a.steps):
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
        t3 = time.perf_counter()
        if rank == 0:
            print(json.dumps({"step": step + 1, "step_time": round(t3 - t0, 5), "fwd": round(t1 - t0, 5),
                              "bwd": round(t2 - t1, 5), "opt": round(t3 - t2, 5),
                              "loss": round(loss.item(), 4)}), flush=True)
    assert math.isfinite(loss.item())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
