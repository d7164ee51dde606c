"""GPU micro-measurements the step model rests on, one JSON line each:
- copy: host-to-device and device-to-host GB/s, pinned and pageable host memory, 1 MiB to 1 GiB;
- matmul: bf16 dense matrix products shaped like a Llama layer's (tokens x hidden x out), TFLOP/s.
Usage: python3 bench/gpu-micro.py
"""
import json, time

import torch


def timed(fn, reps):
    torch.cuda.synchronize()
    for _ in range(2):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / reps


def copies():
    for mib in (1, 16, 256, 1024):
        n = mib * 2**20
        dev = torch.empty(n, dtype=torch.uint8, device="cuda")
        for pinned in (True, False):
            host = torch.empty(n, dtype=torch.uint8, pin_memory=pinned)
            host.fill_(1)
            reps = 20 if mib <= 256 else 5
            h2d = timed(lambda: dev.copy_(host, non_blocking=pinned), reps)
            d2h = timed(lambda: host.copy_(dev, non_blocking=pinned), reps)
            print(json.dumps({"kind": "copy", "mib": mib, "pinned": pinned,
                              "h2d_gbps": n / h2d / 1e9, "d2h_gbps": n / d2h / 1e9}), flush=True)


def matmuls():
    for hidden in (1024, 2048, 4096, 8192):
        inter = ((hidden * 8 // 3 + 255) // 256) * 256
        for tokens in (2048, 4096, 8192, 16384):
            a = torch.randn(tokens, hidden, dtype=torch.bfloat16, device="cuda")
            for out in (hidden, inter):
                w = torch.randn(hidden, out, dtype=torch.bfloat16, device="cuda")
                t = timed(lambda: a @ w, 20)
                print(json.dumps({"kind": "matmul", "tokens": tokens, "hidden": hidden, "out": out,
                                  "tflops": 2 * tokens * hidden * out / t / 1e12}), flush=True)


if __name__ == "__main__":
    print(json.dumps({"kind": "device", "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                      "cuda": torch.version.cuda}), flush=True)
    copies()
    matmuls()
