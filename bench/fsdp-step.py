"""One FSDP2 training step, timed: a Llama-shaped model (transformers' LlamaConfig, random weights) wrapped with
fully_shard per decoder layer, bf16 parameters with fp32 reduction, AdamW; optional CPU offload of parameters and
optimizer (CPUOffloadPolicy) and activation checkpointing. Runs under torchrun or any env:// launcher; with no
RANK in the environment it runs as one rank.

Usage: python3 bench/fsdp-step.py [--hidden 2048] [--layers 16] [--heads 16] [--inter 0] [--vocab 32000]
                                  [--seq 1024] [--mb 4] [--steps 8] [--offload] [--checkpoint] [--tag NAME]
Prints one JSON line a step ({"step": i, "step_time": s, "fwd": s, "bwd": s, "opt": s}) and a summary line
({"tag": ..., "params": N, "step_s_median": s, ...}; the median of steps 3..).
"""
import argparse, json, os, statistics, time

import torch
import torch.distributed as dist


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hidden", type=int, default=2048)
    ap.add_argument("--layers", type=int, default=16)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--inter", type=int, default=0, help="0: Llama's 8/3 x hidden rounded up to 256")
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--seq", type=int, default=1024)
    ap.add_argument("--mb", type=int, default=4)
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--offload", action="store_true")
    ap.add_argument("--checkpoint", action="store_true")
    ap.add_argument("--tag", default="")
    a = ap.parse_args()

    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    os.environ.setdefault("LOCAL_RANK", "0")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    local = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local)
    dist.init_process_group("nccl", device_id=torch.device("cuda", local))
    rank, world = dist.get_rank(), dist.get_world_size()

    from transformers import LlamaConfig, LlamaForCausalLM
    from torch.distributed.fsdp import fully_shard, MixedPrecisionPolicy, CPUOffloadPolicy

    inter = a.inter or ((a.hidden * 8 // 3 + 255) // 256) * 256
    cfg = LlamaConfig(hidden_size=a.hidden, num_hidden_layers=a.layers, num_attention_heads=a.heads,
                      num_key_value_heads=a.heads, intermediate_size=inter, vocab_size=a.vocab,
                      max_position_embeddings=max(2048, a.seq), tie_word_embeddings=False)
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    with torch.device("cuda" if not a.offload else "cpu"):
        model = LlamaForCausalLM(cfg)
    params = sum(p.numel() for p in model.parameters())
    if a.checkpoint:
        model.gradient_checkpointing_enable()
    mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    kw = {"mp_policy": mp}
    if a.offload:
        kw["offload_policy"] = CPUOffloadPolicy()
    for layer in model.model.layers:
        fully_shard(layer, **kw)
    fully_shard(model, **kw)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randint(0, a.vocab, (a.mb, a.seq), device="cuda")

    times = []
    for step in range(a.steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        loss = model(input_ids=x, labels=x).loss
        torch.cuda.synchronize()
        t1 = time.perf_counter()
        loss.backward()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        opt.step()
        opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        t3 = time.perf_counter()
        times.append(t3 - t0)
        if rank == 0:
            print(json.dumps({"step": step + 1, "step_time": round(t3 - t0, 5), "fwd": round(t1 - t0, 5),
                              "bwd": round(t2 - t1, 5), "opt": round(t3 - t2, 5)}), flush=True)
    med = statistics.median(times[2:]) if len(times) > 2 else times[-1]
    tokens = a.mb * a.seq * world
    flops = (8 if a.checkpoint else 6) * params * tokens
    if rank == 0:
        print(json.dumps({
            "tag": a.tag, "world": world, "gpu": torch.cuda.get_device_name(), "params": params,
            "hidden": a.hidden, "layers": a.layers, "inter": inter, "vocab": a.vocab, "seq": a.seq, "mb": a.mb,
            "offload": a.offload, "checkpoint": a.checkpoint,
            "omp_threads": torch.get_num_threads(), "step_s_median": med,
            "steps_s": [round(t, 4) for t in times], "tokens_per_s": tokens / med,
            "model_tflops_per_gpu": flops / med / world / 1e12,
            "peak_mem_gib": torch.cuda.max_memory_allocated() / 2**30,
            "torch": torch.__version__}), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
