#!/usr/bin/env python3
"""topolens probe: collective bandwidth of torch.distributed, printed as nccl-tests prints it.

Runs under torchrun or any launcher that sets the env:// variables (RANK, WORLD_SIZE, LOCAL_RANK,
MASTER_ADDR, MASTER_PORT), Kubeflow's PET_* variables, or Open MPI's OMPI_COMM_WORLD_*. NCCL on
GPUs, gloo on CPUs. Rank 0 prints one nccl-tests table per collective on stdout (so
`topolens bench` reads it), progress, the pairs matrix and `nvidia-smi topo -m` on stderr, and
with --json FILE everything as JSON. Time, algbw and busbw follow nccl-tests 2.19 (src/common.cu,
src/<collective>.cu, doc/PERFORMANCE.md); docs/probe.md in topolens says where each comes from.

Standard library and torch only; Python 3.8+, torch 1.13 and later.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import time

PROBE_VERSION = "1"
PREFIX = "topolens-probe"
TOPO_BEGIN = "# topolens-probe: nvidia-smi topo -m begin"
TOPO_END = "# topolens-probe: nvidia-smi topo -m end"

COLLECTIVES = ["all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast"]
# busbw = algbw x factor (nccl-tests src/<collective>.cu, *GetBw)
FACTORS = {
    "all_reduce": lambda n: 2.0 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "alltoall": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
}
REDUCING = ("all_reduce", "reduce_scatter")
# nccl-tests' type names; values filled in by dtypes() once torch is imported
TYPE_NAMES = ["int8", "uint8", "int32", "int64", "half", "float", "double", "bfloat16"]
ALIASES = {"float16": "half", "float32": "float", "float64": "double", "int": "int32",
           "char": "int8"}


class ProbeError(Exception):
    """A failure the user can act on: printed as one line, exit 1 (2 for bad arguments)."""


def parse_size(text):
    """Bytes from nccl-tests' size syntax: a number with an optional K, M or G (binary units)."""
    t = text.strip()
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    mult = 1
    if t and t[-1].lower() in units:
        mult = units[t[-1].lower()]
        t = t[:-1]
    try:
        value = float(t)
    except ValueError:
        raise argparse.ArgumentTypeError("not a size: %r (a number with K, M or G)" % text)
    if value < 0:
        raise argparse.ArgumentTypeError("negative size: %r" % text)
    return int(value * mult)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="probe.py",
        description="Collective bandwidth of torch.distributed (NCCL or gloo) in nccl-tests' layout.")
    p.add_argument("--collectives", default="all_reduce,all_gather,reduce_scatter",
                   help="comma-separated, of: " + ",".join(COLLECTIVES) + " (or 'all'; '' for none)")
    p.add_argument("--pairs", action="store_true",
                   help="also send/recv between every pair of ranks (rounds of disjoint pairs)")
    p.add_argument("--pairs-bytes", type=parse_size, default=None,
                   help="message size of --pairs (default: -e)")
    p.add_argument("-b", "--minbytes", type=parse_size, default=parse_size("8"))
    p.add_argument("-e", "--maxbytes", type=parse_size, default=parse_size("128M"))
    p.add_argument("-f", "--stepfactor", type=int, default=2)
    p.add_argument("-w", "--warmup_iters", type=int, default=5)
    p.add_argument("-n", "--iters", type=int, default=20)
    p.add_argument("-c", "--check", type=int, default=1, choices=[0, 1])
    p.add_argument("-d", "--datatype", default="float")
    p.add_argument("-o", "--op", default="sum", choices=["sum", "prod", "min", "max"])
    p.add_argument("-r", "--root", type=int, default=0)
    p.add_argument("-a", "--average", type=int, default=1, choices=[0, 1, 2, 3],
                   help="time reported: 0 rank 0, 1 average over ranks (nccl-tests' default), 2 min, 3 max")
    p.add_argument("--backend", default="auto", choices=["auto", "nccl", "gloo"])
    p.add_argument("--json", default=None, metavar="FILE", help="rank 0 writes the results as JSON")
    p.add_argument("--timeout", type=float, default=600, help="seconds before a rendezvous or collective gives up")
    p.add_argument("--launch-ops", type=int, default=200,
                   help="ops per round of the launch micro-benchmark (GPUs only; 0 leaves it out)")
    p.add_argument("--launch-rounds", type=int, default=5, help="rounds of the launch micro-benchmark")
    a = p.parse_args(argv)
    names = COLLECTIVES if a.collectives.strip() == "all" else [
        c.strip() for c in a.collectives.split(",") if c.strip()]
    for c in names:
        if c not in COLLECTIVES:
            p.error("unknown collective %r (known: %s)" % (c, ", ".join(COLLECTIVES)))
    a.collective_list = names
    if a.stepfactor < 2:
        p.error("-f must be 2 or more")
    if a.iters < 1 or a.warmup_iters < 0:
        p.error("-n must be 1 or more and -w 0 or more")
    if a.minbytes > a.maxbytes:
        p.error("-b is larger than -e")
    a.datatype = ALIASES.get(a.datatype, a.datatype)
    if a.datatype not in TYPE_NAMES:
        p.error("unknown type %r (known: %s)" % (a.datatype, ", ".join(TYPE_NAMES)))
    if a.launch_ops < 0 or a.launch_rounds < 1:
        p.error("--launch-ops must be 0 or more and --launch-rounds 1 or more")
    if not names and not a.pairs and a.launch_ops == 0:
        p.error("nothing to measure: no collective, no --pairs and --launch-ops 0")
    return a


def launch_environment(env):
    """RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR/PORT from the launcher's variables, or None to spawn.

    torchrun and most launchers set the env:// variables; a Kubeflow pod without torchrun has PET_*;
    mpirun sets OMPI_COMM_WORLD_*. Returns (settings, local_count): local_count > 1 means this
    process must start that many ranks itself (PET_NPROC_PER_NODE without torchrun).
    """
    s = {}
    if "RANK" in env and "WORLD_SIZE" in env:
        s["RANK"] = env["RANK"]
        s["WORLD_SIZE"] = env["WORLD_SIZE"]
        s["LOCAL_RANK"] = env.get("LOCAL_RANK", env.get("OMPI_COMM_WORLD_LOCAL_RANK", "0"))
    elif "OMPI_COMM_WORLD_RANK" in env:
        s["RANK"] = env["OMPI_COMM_WORLD_RANK"]
        s["WORLD_SIZE"] = env["OMPI_COMM_WORLD_SIZE"]
        s["LOCAL_RANK"] = env.get("OMPI_COMM_WORLD_LOCAL_RANK", "0")
    elif "PET_NNODES" in env or "PET_NODE_RANK" in env:
        nnodes = int(env.get("PET_NNODES", "1").split(":")[-1])
        per = env.get("PET_NPROC_PER_NODE", "1")
        if not per.isdigit():
            # "auto"/"gpu": one rank per visible GPU, else one
            per = str(max(1, _gpu_count()))
        per = int(per)
        node = int(env.get("PET_NODE_RANK", "0"))
        s["WORLD_SIZE"] = str(nnodes * per)
        s["NODE_RANK"] = str(node)
        s["LOCAL_WORLD_SIZE"] = str(per)
        s["MASTER_ADDR"] = env.get("PET_MASTER_ADDR", env.get("MASTER_ADDR", ""))
        s["MASTER_PORT"] = env.get("PET_MASTER_PORT", env.get("MASTER_PORT", "29500"))
        if per > 1:
            return s, per
        s["RANK"] = str(node)
        s["LOCAL_RANK"] = "0"
    else:
        raise ProbeError("no launcher variables: set RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and"
                         " MASTER_PORT (torchrun does), or run under Kubeflow (PET_*) or mpirun")
    s.setdefault("MASTER_ADDR", env.get("MASTER_ADDR", env.get("PET_MASTER_ADDR", "")))
    s.setdefault("MASTER_PORT", env.get("MASTER_PORT", env.get("PET_MASTER_PORT", "29500")))
    if not s["MASTER_ADDR"]:
        raise ProbeError("MASTER_ADDR is not set: the address of rank 0, where the ranks meet")
    return s, 1


def _gpu_count():
    try:
        import torch
        return torch.cuda.device_count() if torch.cuda.is_available() else 0
    except Exception:
        return 0


def spawn_local_ranks(settings, per, argv):
    """Starts `per` ranks of this node (PET_NPROC_PER_NODE without torchrun) and waits for them."""
    node = int(settings["NODE_RANK"])
    procs = []
    for local in range(per):
        env = dict(os.environ)
        env.update(settings)
        env["RANK"] = str(node * per + local)
        env["LOCAL_RANK"] = str(local)
        env.setdefault("NCCL_NVLS_ENABLE", "0")
        procs.append(subprocess.Popen([sys.executable, os.path.abspath(__file__)] + argv, env=env))
    worst = 0
    for p in procs:
        rc = p.wait()
        if rc != 0 and worst == 0:
            worst = rc
    return worst


def say(msg):
    sys.stderr.write(PREFIX + ": " + msg + "\n")
    sys.stderr.flush()


class Probe:
    def __init__(self, args, settings):
        import torch
        import torch.distributed as dist
        self.torch = torch
        self.dist = dist
        self.args = args
        self.rank = int(settings["RANK"])
        self.world = int(settings["WORLD_SIZE"])
        self.local_rank = int(settings["LOCAL_RANK"])
        os.environ.update({k: v for k, v in settings.items() if k in (
            "RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")})
        cuda = torch.cuda.is_available()
        self.backend = args.backend if args.backend != "auto" else ("nccl" if cuda else "gloo")
        if self.backend == "nccl" and not cuda:
            raise ProbeError("--backend nccl needs CUDA, and torch.cuda.is_available() is False")
        self.on_gpu = self.backend == "nccl"
        if self.on_gpu:
            ndev = torch.cuda.device_count()
            self.device_index = self.local_rank % ndev
            torch.cuda.set_device(self.device_index)
            self.device = torch.device("cuda", self.device_index)
        else:
            self.device_index = self.local_rank
            self.device = torch.device("cpu")
        self.dtype = dtypes(torch)[args.datatype]
        import datetime
        dist.init_process_group(self.backend, init_method="env://", rank=self.rank,
                                world_size=self.world,
                                timeout=datetime.timedelta(seconds=args.timeout))
        self.ops = {"sum": dist.ReduceOp.SUM, "prod": dist.ReduceOp.PRODUCT,
                    "min": dist.ReduceOp.MIN, "max": dist.ReduceOp.MAX}

    # ---- plumbing -------------------------------------------------------------------------

    def barrier(self):
        if self.on_gpu:
            self.dist.barrier(device_ids=[self.device_index])
        else:
            self.dist.barrier()

    def sync(self):
        if self.on_gpu:
            self.torch.cuda.synchronize()

    def combine(self, value, how):
        """nccl-tests' Allreduce of one number over ranks: 0 rank 0, 1 average, 2 min, 3 max, 4 sum."""
        t = self.torch.tensor([float(value)], dtype=self.torch.float64, device=self.device)
        if how == 0:
            self.dist.broadcast(t, src=0)
        elif how in (1, 4):
            self.dist.all_reduce(t, op=self.dist.ReduceOp.SUM)
        elif how == 2:
            self.dist.all_reduce(t, op=self.dist.ReduceOp.MIN)
        else:
            self.dist.all_reduce(t, op=self.dist.ReduceOp.MAX)
        v = t.item()
        return v / self.world if how == 1 else v

    def timed(self, fn, iters):
        """Seconds per iteration on this rank: CUDA events around the loop on GPU, perf_counter on CPU.

        nccl-tests (common.cu BenchTime) starts its timer after a barrier, launches all iterations
        and stops after the stream completes; events on the current stream bracket the same span.
        """
        self.barrier()
        if self.on_gpu:
            start = self.torch.cuda.Event(enable_timing=True)
            end = self.torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(iters):
                fn()
            end.record()
            end.synchronize()
            return start.elapsed_time(end) / 1000.0 / iters
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        return (time.perf_counter() - t0) / iters

    # ---- launch speed -----------------------------------------------------------------------

    def launch_costs(self):
        """This rank's {op: us} of the launch micro-benchmark ({@link launch_costs})."""
        return launch_costs(self.torch, self.dist, self.device, self.args.launch_ops, self.args.launch_rounds,
                            self.barrier)

    # ---- identity ---------------------------------------------------------------------------

    def identity(self):
        host = socket.gethostname()
        rec = {
            "rank": self.rank,
            "local_rank": self.local_rank,
            "host": host.split(".")[0],
            "pod": os.environ.get("POD_NAME") or os.environ.get("HOSTNAME") or host,
            "pid": os.getpid(),
            "device": self.device_index,
            "gpu": "cpu",
            "bus_id": "cpu",
            "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
            "nccl_hostid": os.environ.get("NCCL_HOSTID"),
            "topo": None,
        }
        if self.on_gpu:
            props = self.torch.cuda.get_device_properties(self.device_index)
            rec["gpu"] = props.name
            rec["bus_id"] = bus_id(props)
        if self.local_rank == 0:
            rec["topo"] = topo_matrix()
        gathered = [None] * self.world
        self.dist.all_gather_object(gathered, rec)
        return gathered

    # ---- collectives ------------------------------------------------------------------------

    def plan(self, name, size):
        """nccl-tests' setupArgs: (printed bytes, printed count, elements per rank) for `size` bytes."""
        ts = elem_size(self.torch, self.dtype)
        count = size // ts
        n = self.world
        if name in ("all_gather", "reduce_scatter", "alltoall"):
            base = (count // n) & ~(max(1, 16 // ts) - 1)
            return base * n * ts, base, base
        return count * ts, count, count

    def supported(self, name):
        """Which way a collective runs here: 'native', 'list' (gloo all_gather), 'ring', or a reason."""
        d = self.dist
        if self.on_gpu:
            return "native"
        probe_in = self.torch.zeros(self.world, dtype=self.dtype)
        one = self.torch.zeros(1, dtype=self.dtype)
        try:
            if name == "all_gather":
                fn = getattr(d, "all_gather_into_tensor", None) or d._all_gather_base
                fn(probe_in.clone(), one)
            elif name == "reduce_scatter":
                fn = getattr(d, "reduce_scatter_tensor", None) or d._reduce_scatter_base
                fn(one.clone(), probe_in)
            return "native"
        except RuntimeError as e:
            if "support" not in str(e):
                raise
            if name == "all_gather":
                return "list"
            return "ring"

    def run_collective(self, name):
        a = self.args
        torch = self.torch
        n = self.world
        how = self.supported(name)
        sizes = []
        s = a.minbytes
        while s <= a.maxbytes:
            sizes.append(s)
            s *= a.stepfactor
        maxb, _, maxc = self.plan(name, a.maxbytes)
        big = max(maxc * (n if name in ("all_gather", "reduce_scatter", "alltoall") else 1), 1)
        send = torch.zeros(big, dtype=self.dtype, device=self.device)
        recv = torch.zeros(big, dtype=self.dtype, device=self.device)
        op = self.ops[a.op]
        redop = a.op if name in REDUCING else "none"
        root = a.root if name == "broadcast" else -1
        if name == "broadcast" and not 0 <= a.root < n:
            raise ProbeError("-r %d: no such rank (world size %d)" % (a.root, n))

        def call(count, in_place):
            return self.op_call(name, how, count, in_place, send, recv, op)

        # nccl-tests TimeTest: warm up every size (factor 2) before the sweep
        s = a.minbytes
        while s <= a.maxbytes:
            fn = call(self.plan(name, s)[2], False)
            for _ in range(a.warmup_iters if self.plan(name, s)[2] > 0 else 0):
                fn()
            s *= 2
        self.sync()
        rows = []
        for size in sizes:
            nbytes, count, per = self.plan(name, size)
            row = {"bytes": nbytes, "count": count, "type": a.datatype, "redop": redop, "root": root}
            for key, in_place in (("out_of_place", False), ("in_place", True)):
                if per == 0:
                    # nothing to send (size below one element per rank); gloo crashes on empty tensors
                    row[key] = {"time_us": 0.0, "algbw": 0.0, "busbw": 0.0,
                                "wrong": 0 if a.check and not (name == "alltoall" and in_place) else None}
                    continue
                fn = call(per, in_place)
                fn()  # nccl-tests BenchTime: one call to sync before the timed loop
                sec = self.timed(fn, a.iters)
                sec = self.combine(sec, a.average)
                algbw = (nbytes / 1.0e9 / sec) if sec > 0 else 0.0
                busbw = algbw * FACTORS[name](n)
                wrong = None
                if a.check and not (name == "alltoall" and in_place):
                    wrong = int(self.combine(self.check(name, how, per, in_place, send, recv, op), 4))
                row[key] = {"time_us": sec * 1e6, "algbw": algbw, "busbw": busbw, "wrong": wrong}
            rows.append(row)
        return rows, how

    def views(self, name, count, in_place, send, recv):
        """(input, output) tensors of one call, placed as nccl-tests places them (common.cu startColl)."""
        n, r = self.world, self.rank
        if name in ("all_reduce", "broadcast"):
            # torch.distributed has one buffer for these: both columns time the same call
            buf = recv.narrow(0, 0, count)
            return buf, buf
        if name == "all_gather":
            out = recv.narrow(0, 0, count * n)
            inp = out.narrow(0, r * count, count) if in_place else send.narrow(0, 0, count)
            return inp, out
        if name == "reduce_scatter":
            inp = send.narrow(0, 0, count * n)
            out = inp.narrow(0, r * count, count) if in_place else recv.narrow(0, 0, count)
            return inp, out
        # alltoall: in place is the same buffer, as nccl-tests runs it (and does not check it)
        out = recv.narrow(0, 0, count * n)
        return (out if in_place else send.narrow(0, 0, count * n)), out

    def op_call(self, name, how, count, in_place, send, recv, op):
        d = self.dist
        inp, out = self.views(name, count, in_place, send, recv)
        if name == "all_reduce":
            return lambda: d.all_reduce(out, op=op)
        if name == "broadcast":
            return lambda: d.broadcast(out, src=self.args.root)
        if name == "all_gather":
            if how == "list":
                parts = list(out.chunk(self.world)) if count > 0 else [out] * self.world
                return lambda: d.all_gather(parts, inp)
            fn = getattr(d, "all_gather_into_tensor", None) or d._all_gather_base
            return lambda: fn(out, inp)
        if name == "reduce_scatter":
            if how == "ring":
                return lambda: self.ring_reduce_scatter(out, inp, count)
            fn = getattr(d, "reduce_scatter_tensor", None) or d._reduce_scatter_base
            return lambda: fn(out, inp, op=op)
        return lambda: d.all_to_all_single(out, inp)

    def ring_reduce_scatter(self, out, inp, count):
        """reduce_scatter as a ring of send/recv, for gloo (which has none): n-1 steps, each rank
        sends (n-1)/n of the data, so nccl-tests' busbw formula holds for it too."""
        n, r = self.world, self.rank
        if count == 0:
            return
        acc = inp.clone()
        tmp = self.torch.empty(count, dtype=inp.dtype, device=inp.device)
        nxt, prv = (r + 1) % n, (r - 1) % n
        combine = {"sum": lambda x, y: x.add_(y), "prod": lambda x, y: x.mul_(y),
                   "min": lambda x, y: self.torch.minimum(x, y, out=x),
                   "max": lambda x, y: self.torch.maximum(x, y, out=x)}[self.args.op]
        for step in range(n - 1):
            s_idx, r_idx = (r - step - 1) % n, (r - step - 2) % n
            reqs = [self.dist.isend(acc.narrow(0, s_idx * count, count), nxt),
                    self.dist.irecv(tmp, prv)]
            for q in reqs:
                q.wait()
            combine(acc.narrow(0, r_idx * count, count), tmp)
        out.copy_(acc.narrow(0, r * count, count))

    # ---- correctness ------------------------------------------------------------------------

    def pattern(self, k, rank, period):
        """Input value of element k on `rank`: small integers, exact in every type."""
        return (k + 3 * rank) % period

    def check(self, name, how, count, in_place, send, recv, op):
        """Wrong elements on this rank after one call on freshly filled inputs (nccl-tests CheckData)."""
        torch = self.torch
        n, r = self.world, self.rank
        if count == 0:
            return 0
        inp, out = self.views(name, count, in_place, send, recv)
        red = self.args.op
        period = {"sum": 2, "prod": 2, "min": 3, "max": 3}[red] if name in REDUCING else 7
        base = 1 if (name in REDUCING and red == "prod") else 0
        fill_len = inp.numel()
        k = torch.arange(fill_len, device=self.device, dtype=torch.int64)
        values = (self.pattern(k, r, period) + base).to(self.dtype)
        if name == "broadcast":
            out.zero_()
            if r == self.args.root:
                out.copy_(values)
        else:
            if not in_place:
                out.zero_()
            inp.copy_(values)
        self.op_call(name, how, count, in_place, send, recv, op)()
        self.sync()
        m = out.numel()
        j = torch.arange(m, device=self.device, dtype=torch.int64)
        if name in REDUCING:
            # the reduction over ranks of element k depends on k mod period only
            offset = r * count if name == "reduce_scatter" else 0
            table = []
            for p in range(period):
                vals = [self.pattern(p, q, period) + base for q in range(n)]
                acc = vals[0]
                for v in vals[1:]:
                    acc = {"sum": acc + v, "prod": acc * v, "min": min(acc, v), "max": max(acc, v)}[red]
                table.append(acc)
            t = torch.tensor(table, dtype=torch.float64, device=self.device).to(self.dtype)
            expected = t[(j + offset) % period]
        elif name == "broadcast":
            expected = self.pattern(j, self.args.root, period).to(self.dtype)
        elif name == "all_gather":
            src = j // count
            expected = self.pattern(j - src * count, src, period).to(self.dtype)
        else:
            # alltoall: chunk s of the output is chunk r of rank s's input
            src = j // count
            expected = self.pattern(r * count + (j - src * count), src, period).to(self.dtype)
        return int((out != expected).sum().item())

    # ---- pairs ------------------------------------------------------------------------------

    def run_pairs(self):
        """Send/recv between every pair of ranks, both ways at once, in rounds of disjoint pairs."""
        torch = self.torch
        a = self.args
        size = a.pairs_bytes if a.pairs_bytes is not None else a.maxbytes
        ts = elem_size(torch, self.dtype)
        count = max(size // ts, 1)
        nbytes = count * ts
        send = torch.ones(count, dtype=self.dtype, device=self.device)
        recv = torch.zeros(count, dtype=self.dtype, device=self.device)
        rounds = round_robin(self.world)
        n = self.world
        gbps = [[None] * n for _ in range(n)]
        times = [[None] * n for _ in range(n)]
        for i, pairs in enumerate(rounds):
            peer = None
            for x, y in pairs:
                if x == self.rank:
                    peer = y
                elif y == self.rank:
                    peer = x
            sec = 0.0
            if peer is not None:
                def exchange(peer=peer):
                    ops = [self.dist.P2POp(self.dist.isend, send, peer),
                           self.dist.P2POp(self.dist.irecv, recv, peer)]
                    for q in self.dist.batch_isend_irecv(ops):
                        q.wait()
                for _ in range(max(a.warmup_iters, 1)):
                    exchange()
                self.sync()
            self.barrier()
            if peer is not None:
                if self.on_gpu:
                    start = torch.cuda.Event(enable_timing=True)
                    end = torch.cuda.Event(enable_timing=True)
                    start.record()
                    for _ in range(a.iters):
                        exchange()
                    end.record()
                    end.synchronize()
                    sec = start.elapsed_time(end) / 1000.0 / a.iters
                else:
                    t0 = time.perf_counter()
                    for _ in range(a.iters):
                        exchange()
                    sec = (time.perf_counter() - t0) / a.iters
            all_t = [None] * n
            self.dist.all_gather_object(all_t, sec)
            for x, y in pairs:
                tx, ty = all_t[x], all_t[y]
                t = {0: tx, 1: (tx + ty) / 2, 2: min(tx, ty), 3: max(tx, ty)}[a.average]
                bw = nbytes / 1.0e9 / t if t > 0 else 0.0
                for u, v in ((x, y), (y, x)):
                    gbps[u][v] = bw
                    times[u][v] = t * 1e6
            if self.rank == 0:
                say("pairs: round %d/%d done" % (i + 1, len(rounds)))
        return {"bytes": nbytes, "type": a.datatype, "iters": a.iters,
                "rounds": [[list(p) for p in r] for r in rounds], "time_us": times, "gbps": gbps}


def round_robin(n):
    """Rounds of disjoint pairs covering every pair once (the circle method of a tournament)."""
    players = list(range(n)) + ([None] if n % 2 else [])
    m = len(players)
    rounds = []
    for _ in range(m - 1):
        pairs = []
        for i in range(m // 2):
            x, y = players[i], players[m - 1 - i]
            if x is not None and y is not None:
                pairs.append((min(x, y), max(x, y)))
        rounds.append(sorted(pairs))
        players = [players[0]] + [players[-1]] + players[1:-1]
    return rounds


def dtypes(torch):
    return {"int8": torch.int8, "uint8": torch.uint8, "int32": torch.int32, "int64": torch.int64,
            "half": torch.float16, "float": torch.float32, "double": torch.float64,
            "bfloat16": torch.bfloat16}


def elem_size(torch, dtype):
    return torch.tensor([], dtype=dtype).element_size()


def bus_id(props):
    """[dddd:bb:dd] as nccl-tests prints it, from the device properties or nvidia-smi by UUID."""
    if hasattr(props, "pci_bus_id"):
        return "%04x:%02x:%02x" % (getattr(props, "pci_domain_id", 0), props.pci_bus_id,
                                   getattr(props, "pci_device_id", 0))
    uuid = str(getattr(props, "uuid", ""))
    if uuid and shutil.which("nvidia-smi"):
        try:
            out = subprocess.run(["nvidia-smi", "--query-gpu=uuid,pci.bus_id", "--format=csv,noheader"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=30,
                                 universal_newlines=True).stdout
            for line in out.splitlines():
                u, _, bus = line.partition(",")
                if u.strip().endswith(uuid.replace("GPU-", "")):
                    dom, b, dev = bus.strip().split(":")
                    return "%s:%s:%s" % (dom[-4:].lower(), b.lower(), dev.split(".")[0].lower())
        except Exception:
            pass
    return "unknown"


def topo_matrix():
    """`nvidia-smi topo -m` of this host, or None where nvidia-smi is absent or fails."""
    if not shutil.which("nvidia-smi"):
        return None
    try:
        r = subprocess.run(["nvidia-smi", "topo", "-m"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=60, universal_newlines=True)
        return r.stdout if r.returncode == 0 else None
    except Exception:
        return None


def versions(torch, backend):
    v = {"probe": PROBE_VERSION, "python": sys.version.split()[0], "torch": torch.__version__,
         "cuda": torch.version.cuda, "nccl": None, "nccl_code": None}
    if backend == "nccl":
        try:
            nv = torch.cuda.nccl.version()
            if isinstance(nv, tuple):
                major, minor, patch = nv[:3]
                code = major * 10000 + minor * 100 + patch if (major, minor) >= (2, 9) else \
                    major * 1000 + minor * 100 + patch
            else:
                code = int(nv)
                major, minor, patch = (code // 10000, code % 10000 // 100, code % 100) if code >= 20900 \
                    else (code // 1000, code % 1000 // 100, code % 100)
            v["nccl"] = "%d.%d.%d" % (major, minor, patch)
            v["nccl_code"] = code
        except Exception:
            pass
    return v


def fmt(value, width):
    """nccl-tests getFloatStr: %.2f, then %.1f, %.0f, then an exponent, whatever fits `width`."""
    for f in ("%*.2f", "%*.1f", "%*.0f"):
        s = f % (width, value)
        if len(s) <= width:
            return s
    return ("%*.1e" if width >= 7 else "%*.0e") % (width, value)


def table(name, rows, ranks, args, vers, backend):
    """One nccl-tests text run: preamble, rank lines, header, rows, summary (util.cu)."""
    test = name + "_perf"
    lines = []
    head = "# nccl-tests version topolens-probe-%s torch-%s %s" % (PROBE_VERSION, vers["torch"], backend)
    if vers["nccl_code"]:
        head += " nccl-headers=%d nccl-library=%d" % (vers["nccl_code"], vers["nccl_code"])
    lines.append(head)
    lines.append("# Collective test starting: %s" % test)
    lines.append("# nThread 1 nGpus 1 minBytes %d maxBytes %d step: %d(factor) warmup iters: %d iters: %d"
                 " agg iters: 1 validation: %d graph: 0 unalign: 0"
                 % (args.minbytes, args.maxbytes, args.stepfactor, args.warmup_iters, args.iters, args.check))
    lines.append("#")
    lines.append("# Using devices")
    for r in ranks:
        lines.append("#  Rank %2d Group %2d Pid %6d on %10s device %2d [%s] %s"
                     % (r["rank"], 0, r["pid"], r["host"], r["device"], r["bus_id"], r["gpu"]))
    lines.append("#")
    lines.append("# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          "
                 % ("", "", "", "", ""))
    lines.append("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s "
                 % ("size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
                    "time", "algbw", "busbw", "#wrong"))
    lines.append("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s "
                 % ("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)",
                    "(GB/s)", ""))
    errors, bw_sum, bw_count = 0, 0.0, 0
    for row in rows:
        s = "%12d  %12d  %8s  %6s  %6s" % (row["bytes"], row["count"], row["type"], row["redop"],
                                          "%6i" % row["root"])
        for key in ("out_of_place", "in_place"):
            c = row[key]
            wrong = "   N/A" if c["wrong"] is None else "%6g" % c["wrong"]
            s += "  %7s  %6s  %6s  %s" % (fmt(c["time_us"], 7), fmt(c["algbw"], 6), fmt(c["busbw"], 6), wrong)
            if c["wrong"]:
                errors += 1
            bw_sum += c["busbw"]
            bw_count += 1
        lines.append(s)
    avg = bw_sum / bw_count if bw_count else 0.0
    lines.append("# %-20s : %d %s" % ("Out of bounds values", errors, "FAILED" if errors else "OK"))
    lines.append("# %-20s : %g " % ("Avg bus bandwidth", avg))
    lines.append("#")
    lines.append("# Collective test concluded: %s" % test)
    return lines, errors, avg


LAUNCH_OPS = ("kernel", "nccl", "layer")


def launch_costs(torch, dist, device, ops, rounds, barrier):
    """Host microseconds per op of small GPU work issued from Python, as FSDP2 issues its layers' work.

    Each op is timed on the host (perf_counter) around `ops` calls with no synchronisation inside, after
    `barrier()` (every rank issues the same calls), `rounds` times; the median round per op. The GPU work
    of each op is tiny, so the time is the host's: the Python call, the dispatcher and the launch
    (docs/model.md, "Compute"). The ops (LAUNCH_OPS):
      kernel  an in-place add on a one-element tensor: one CUDA kernel launch
      nccl    an all_reduce of one element over the ranks: one NCCL call
      layer   forward and backward of a small two-matrix MLP block under autograd (about 20 kernels)
    """
    x = torch.zeros(1, device=device)
    one = torch.zeros(1, device=device)
    mlp = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.SiLU(), torch.nn.Linear(256, 64)).to(device)
    inp = torch.randn(8, 64, device=device)

    def layer():
        mlp(inp).sum().backward()

    fns = {"kernel": lambda: x.add_(1.0), "nccl": lambda: dist.all_reduce(one), "layer": layer}
    out = {}
    for name in LAUNCH_OPS:
        fn = fns[name]
        for _ in range(min(ops, 20)):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(rounds):
            barrier()
            t0 = time.perf_counter()
            for _ in range(ops):
                fn()
            times.append((time.perf_counter() - t0) / ops)
            torch.cuda.synchronize()
        times.sort()
        out[name] = times[len(times) // 2] * 1e6
    return out


def rank_median(every, op):
    """The median over ranks of one op's time (the mean of the middle two for an even count)."""
    v = sorted(r[op] for r in every)
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


def launch_text(every, args):
    """One comment line of the launch micro-benchmark: per op the median over ranks of each rank's
    median round (the host's typical speed; the step's wait on its slowest rank is the model's own
    term, compute.launchPerPeerShare)."""
    ops = ", ".join("%s %.2f us/op" % (k, rank_median(every, k)) for k in LAUNCH_OPS)
    return ("# topolens-probe launch: %s; median of %d ranks, each the median of %d rounds of %d ops"
            % (ops, len(every), args.launch_rounds, args.launch_ops))


def pairs_text(p):
    n = len(p["gbps"])
    out = ["# topolens-probe pairs: send/recv GB/s per direction, both directions at once, %d B %s,"
           " %d rounds of disjoint pairs" % (p["bytes"], p["type"], len(p["rounds"]))]
    out.append("# %6s" % "rank" + "".join("  %7d" % j for j in range(n)))
    for i in range(n):
        cells = "".join("  %7s" % ("-" if p["gbps"][i][j] is None else fmt(p["gbps"][i][j], 7))
                        for j in range(n))
        out.append("# %6d" % i + cells)
    return out


def main(argv):
    try:
        args = parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        settings, local = launch_environment(os.environ)
        if local > 1:
            return spawn_local_ranks(settings, local, argv)
        return run(args, settings)
    except ProbeError as e:
        say("error: %s" % e)
        return 1
    except Exception as e:  # one clear line; the type says where to look
        msg = str(e).strip().splitlines()
        say("error: %s: %s" % (type(e).__name__, msg[0] if msg else ""))
        if os.environ.get("TOPOLENS_DEBUG"):
            raise
        return 1


def run(args, settings):
    started = time.time()
    try:
        import torch  # noqa: F401
    except ImportError:
        raise ProbeError("cannot import torch with %s: run the probe with a Python that has PyTorch"
                         % sys.executable)
    probe = Probe(args, settings)
    torch = probe.torch
    lead = probe.rank == 0
    vers = versions(torch, probe.backend)
    ranks = probe.identity()
    if lead:
        say("%d ranks, backend %s, torch %s%s" % (probe.world, probe.backend, vers["torch"],
                                                 ", NCCL " + vers["nccl"] if vers["nccl"] else ""))
        topo_hosts = set()
        for r in ranks:
            if r["topo"] and (r["host"], r["pod"]) not in topo_hosts:
                topo_hosts.add((r["host"], r["pod"]))
                sys.stderr.write("%s (host %s, pod %s, rank %d)\n" % (TOPO_BEGIN, r["host"], r["pod"], r["rank"]))
                sys.stderr.write(r["topo"].rstrip("\n") + "\n" + TOPO_END + "\n")
        sys.stderr.flush()
    result = {"probe": "topolens-probe", "version": vers, "backend": probe.backend,
              "world_size": probe.world, "dtype": args.datatype,
              "args": {"collectives": args.collective_list, "pairs": args.pairs, "minbytes": args.minbytes,
                       "maxbytes": args.maxbytes, "stepfactor": args.stepfactor,
                       "warmup_iters": args.warmup_iters, "iters": args.iters, "check": args.check,
                       "op": args.op, "root": args.root, "average": args.average},
              "ranks": [{k: v for k, v in r.items() if k != "topo"} for r in ranks],
              "topo": [{"rank": r["rank"], "host": r["host"], "pod": r["pod"], "text": r["topo"]}
                       for r in ranks if r["topo"]],
              "collectives": [], "pairs": None}
    if args.launch_ops > 0 and probe.on_gpu:
        mine = probe.launch_costs()
        every = [None] * probe.world
        probe.dist.all_gather_object(every, mine)
        if lead:
            sys.stdout.write(launch_text(every, args) + "\n")
            sys.stdout.flush()
            result["launch"] = {"ops": args.launch_ops, "rounds": args.launch_rounds,
                                "us_per_op": {k: rank_median(every, k) for k in LAUNCH_OPS},
                                "ranks_us_per_op": every}
    failed = 0
    for name in args.collective_list:
        t0 = time.time()
        if lead:
            say("%s: %s to %s B ..." % (name, args.minbytes, args.maxbytes))
        rows, how = probe.run_collective(name)
        emulated = "ring of send/recv (gloo has no reduce_scatter)" if how == "ring" else None
        if lead:
            lines, errors, avg = table(name, rows, ranks, args, vers, probe.backend)
            sys.stdout.write("\n".join(lines) + "\n")
            sys.stdout.flush()
            failed += errors
            say("%s: done in %.1f s, avg busbw %.3g GB/s, %d wrong%s"
                % (name, time.time() - t0, avg, errors, "; " + emulated if emulated else ""))
            result["collectives"].append({"name": name, "test": name + "_perf", "emulated": emulated,
                                          "rows": rows, "out_of_bounds": errors, "avg_busbw": avg})
    if args.pairs:
        if lead:
            say("pairs: %d ranks, %d rounds ..." % (probe.world, len(round_robin(probe.world))))
        pairs = probe.run_pairs()
        if lead:
            sys.stderr.write("\n".join(pairs_text(pairs)) + "\n")
            result["pairs"] = pairs
    probe.barrier()
    if lead:
        result["seconds"] = time.time() - started
        if args.json:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=1)
                f.write("\n")
        say("done in %.1f s" % (time.time() - started))
    probe.dist.destroy_process_group()
    if failed:
        if lead:
            say("error: %d result(s) with wrong values (the #wrong columns)" % failed)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
