"""Does a host-bound FSDP2 step slow down when the CPU threads oversubscribe the vCPUs (issue 12, section 7's
1x2-offload-none)? Runs examples/experiment/train_fsdp.py on PROCS ranks of one host (env:// like topolens
experiment's local runner: RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR/PORT; both GPUs visible, one pod) with each
setting of OMP_NUM_THREADS ("default" leaves it unset: torch's own default, as in section 7) and optionally SPIN
busy-looping co-processes (`yes > /dev/null`, one vCPU each), shapes x settings in turn, REPEATS times over.

While the ranks run, /proc/<pid>/stat is read when rank 0 prints step 3 and its last step: the ranks' CPU seconds
over those steps' wall seconds (`cpu_busy`: how many vCPUs the ranks kept busy) and their thread count. One JSON
line per run: shape, setting, repeat, step times, `step_s_median` (median of steps 3..), cpu_busy, threads.

Usage (from the repository root): python3 bench/host-threads.py --procs 2 --repeats 3 --steps 12 --settings 1,16,default,64,1+spin32
       [--shape NAME=train_fsdp.py args]...
A setting is THREADS or THREADS+spinK (K spinning co-processes).
"""
import argparse, json, os, statistics, subprocess, sys, time

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15 of stat)
    except OSError:
        return float("nan")


def threads(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("Threads:"))
    except (OSError, StopIteration):
        return -1


def run(train, shape, args, setting, procs, steps, port):
    omp, _, spin = setting.partition("+spin")
    spinners = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(int(spin or 0))]
    ranks = []
    try:
        for r in range(procs):
            env = dict(os.environ, RANK=str(r), WORLD_SIZE=str(procs), LOCAL_RANK=str(r), LOCAL_WORLD_SIZE=str(procs),
                       MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), NCCL_NVLS_ENABLE="0",
                       TORCH_SYMM_MEM_DISABLE_MULTICAST="1", NVSHMEM_DISABLE_NVLS="1", PYTHONUNBUFFERED="1")
            env.pop("OMP_NUM_THREADS", None)
            if omp != "default":
                env["OMP_NUM_THREADS"] = omp
            ranks.append(subprocess.Popen([sys.executable, train, "--steps", str(steps)] + args, env=env,
                                          stdout=subprocess.PIPE if r == 0 else subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL, text=True))
        head, times, marks = None, [], {}
        for line in ranks[0].stdout:
            if not line.startswith("{"):
                continue
            j = json.loads(line)
            if "step" not in j:
                head = j
                continue
            times.append(j["step_time"])
            if j["step"] in (2, steps):  # after step 2 ends, steps 3.. begin
                marks[j["step"]] = (time.perf_counter(), [cpu_seconds(p.pid) for p in ranks],
                                    [threads(p.pid) for p in ranks])
        rcs = [p.wait(timeout=120) for p in ranks]
    finally:
        for p in ranks + spinners:
            if p.poll() is None:
                p.kill()
                p.wait()
    out = {"shape": shape, "setting": setting, "omp_num_threads": omp, "spin": int(spin or 0), "procs": procs,
           "rcs": rcs, "cpu_threads": (head or {}).get("cpu_threads"), "vcpus": os.cpu_count(), "steps": times}
    if len(times) >= 3 and 2 in marks and steps in marks:
        (w0, c0, _), (w1, c1, th) = marks[2], marks[steps]
        out["step_s_median"] = round(statistics.median(times[2:]), 5)
        out["cpu_busy"] = [round((b - a) / (w1 - w0), 2) for a, b in zip(c0, c1)]
        out["threads"] = th
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--settings", default="1,16,default,64")
    ap.add_argument("--shape", action="append", default=[], help="NAME=train_fsdp.py args")
    ap.add_argument("--train", default="examples/experiment/train_fsdp.py", help="the training script (from the repository root)")
    a = ap.parse_args()
    shapes = [s.split("=", 1) for s in a.shape] or [["h2048-l16-s1024", ""]]
    port = 29611
    for rep in range(a.repeats):
        for name, args in shapes:
            for setting in a.settings.split(","):
                port += 1
                t = time.time()
                out = run(a.train, name, args.split(), setting, a.procs, a.steps, port)
                out["repeat"] = rep
                out["run_wall_s"] = round(time.time() - t, 1)
                print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
