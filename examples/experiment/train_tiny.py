"""A tiny data-parallel training job for experiments on CPU (gloo) or GPUs (NCCL): an MLP on random data,
DistributedDataParallel, SGD. Runs under any env:// launcher (topolens experiment starts the ranks itself).
Rank 0 prints one JSON line a step, {"step": i, "step_time": seconds}, the form topolens reads step times from.

Usage: python3 train_tiny.py [--steps 20] [--hidden 1024] [--layers 4] [--batch 64]
"""
import argparse, json, os, time

import torch
import torch.distributed as dist


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--hidden", type=int, default=1024)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--batch", type=int, default=64)
    a = ap.parse_args()

    gpu = torch.cuda.is_available()
    if gpu:
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    dist.init_process_group("nccl" if gpu else "gloo")
    rank = dist.get_rank()
    device = torch.device("cuda") if gpu else torch.device("cpu")
    torch.manual_seed(0)
    layers = []
    for _ in range(a.layers):
        layers += [torch.nn.Linear(a.hidden, a.hidden), torch.nn.GELU()]
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(*layers).to(device))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(a.batch, a.hidden, device=device)
    for step in range(a.steps):
        if gpu:
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        loss = model(x).square().mean()
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        if gpu:
            torch.cuda.synchronize()
        t = time.perf_counter() - t0
        if rank == 0:
            print(json.dumps({"step": step + 1, "step_time": round(t, 5), "loss": round(loss.item(), 6)}),
                  flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
