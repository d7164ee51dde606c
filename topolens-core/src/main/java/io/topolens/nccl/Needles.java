package io.topolens.nccl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Every byte string that makes the reader look at a line: a line holding none of them is counted
 * and skipped unread. The one list the line filter uses (keep new forms here, never in a parser),
 * ordered by how common the lines are: NCCL's own debug lines first, so the common path stays one
 * search; the rest are framework lines that tell an NCCL failure without an NCCL header.
 */
public final class Needles {
  private Needles() {}

  /** {@code host:pid:tid [dev] NCCL INFO|WARN ...} and headerless {@code [3] NCCL INFO ...}. */
  public static final String DEBUG_LINE = "NCCL ";

  /** PyTorch's {@code WorkNCCL(SeqNum=...)} watchdog lines and {@code ProcessGroupNCCL} errors. */
  public static final String UPPER = "NCCL";

  /**
   * NCCL's result names as frameworks print them ({@code ncclUnhandledCudaError: ...}, {@code
   * ncclSystemError}, {@code ncclInternalError}, {@code ncclRemoteError}, {@code
   * ncclInvalidUsage}), and {@code ncclCommInitRank failed: ...}: none holds the bytes {@code
   * NCCL}.
   */
  public static final String LOWER = "nccl";

  /**
   * PyTorch's watchdog timeout line where its {@code WorkNCCL(...)} fields went to the next line (a
   * terminal's or an editor's wrap, a retyped paste): {@code [Rank 3] Watchdog caught collective
   * operation timeout:}; the whole line holds {@link #UPPER} already.
   */
  public static final String WATCHDOG_CAUGHT = "aught collective operation timeout";

  /** PyTorch prints NCCL's last error on the line after this one. */
  public static final String LAST_ERROR = "Last error:";

  /**
   * NCCL's NVLS failure as users paste it without any NCCL word: {@code Failed to bind NVLink SHARP
   * (NVLS) Multicast memory ...}.
   */
  public static final String NVLS = "NVLink SHARP";

  /**
   * NCCL before 2.4 printed its warnings without the word NCCL: {@code host:pid:tid [dev]
   * include/socket.h:344 WARN Socket creation failed : ...} (core.h's {@code "%s:%d WARN "}).
   */
  public static final String OLD_WARN = " WARN ";

  /**
   * NCCL before 2.4 printed its INFO lines without the word NCCL either: {@code host:pid:tid [dev]
   * INFO Ring 00 : 6[6] -> 10[2] via P2P/IPC} (debug.h's {@code "%s:%d:%d [%d] INFO "}).
   */
  public static final String OLD_INFO = "] INFO ";

  /**
   * nccl-tests' CUDACHECK: {@code host: Test CUDA failure common.cu:941 'system not yet
   * initialized'}; before 2.x {@code Cuda failure common.cu:891 'CUDA driver version is
   * insufficient for CUDA runtime version'}.
   */
  public static final String TEST_CUDA_FAILURE = "CUDA failure ";

  /** The older nccl-tests form of {@link #TEST_CUDA_FAILURE}. */
  public static final String OLD_TEST_CUDA_FAILURE = "Cuda failure ";

  /**
   * enqueue.cc's {@code Error : no algorithm/protocol available ...} pasted alone (PyTorch's last
   * error, a quote), which holds no NCCL word before 2.19.
   */
  public static final String NO_ALGORITHM = "no algorithm/protocol available";

  /**
   * NET/IB's completion error pasted without NCCL's header ({@code NET/IBP:Got completion from peer
   * ... with status=12 ...}, {@code Got completion with error 12, opcode 0, ...} before 2.12).
   */
  public static final String COMPLETION = "Got completion ";

  /**
   * A process killed by SIGBUS, as runtimes print it ({@code Caught signal 7 (Bus error:
   * nonexistent physical address)}, gdb's {@code received signal SIGBUS, Bus error.}, PyTorch's
   * DataLoader {@code Unexpected bus error encountered in worker}): in these jobs, a write past the
   * end of a /dev/shm that is full.
   */
  public static final String BUS_ERROR = "Bus error";

  /** PyTorch DataLoader's form of {@link #BUS_ERROR}, lower case. */
  public static final String LOWER_BUS_ERROR = "bus error encountered";

  /**
   * PyTorch's TCPStore rendezvous, before NCCL starts: {@code DistStoreError: Timed out after 901
   * seconds waiting for clients. 1/3 clients joined.} (before 2.2: {@code workers}).
   */
  public static final String STORE = "DistStoreError";

  /**
   * PyTorch's store client that never reached the server: {@code The client socket has timed out
   * after 1800s while trying to connect to (HOST, PORT).}
   */
  public static final String STORE_CLIENT = "client socket has timed out";

  /**
   * A rank ended by a signal, as torchrun's agent prints it: {@code failed (exitcode: -9)
   * local_rank: 3 (pid: 812917) of binary: ...} (SIGKILL), {@code failed (exitcode: -7)} (SIGBUS).
   * One needle for every signal; the parser keeps the signals with a cause (9, 7).
   */
  public static final String EXIT_SIGNAL = "exitcode: -";

  /**
   * The summary form of {@link #EXIT_SIGNAL} in torchrun's {@code ChildFailedError}: {@code Signal
   * 9 (SIGKILL) received by PID 36071}, {@code Signal 7 (SIGBUS) received by PID 467398}.
   */
  public static final String SIGNAL_RECEIVED = ") received by PID";

  /**
   * A launcher's Python child ended by a signal, in {@code subprocess}'s words (accelerate's simple
   * launcher, DeepSpeed's runner): {@code subprocess.CalledProcessError: Command '[...]' died with
   * <Signals.SIGKILL: 9>.}
   */
  public static final String PYTHON_SIGNAL = "<Signals.SIG";

  /**
   * DeepSpeed's launcher (launch.py's sigkill_handler) on a rank ended by a signal: {@code [ERROR]
   * [launch.py:434:sigkill_handler] ['/usr/bin/python3', '-u', ...] exits with return code = -9}.
   */
  public static final String RETURN_CODE_SIGNAL = "return code = -";

  /**
   * Ray's memory monitor killing a worker (Ray 2.1 on): {@code ray.exceptions.OutOfMemoryError:
   * Task was killed due to the node running low on memory.} (not {@code running low on memory}:
   * lines that start {@code running } are common, and the filter finds candidates by a needle's
   * first 8 bytes)
   */
  public static final String RAY_OOM = "killed due to the node";

  /**
   * Slurm ending a job or step (slurmstepd's req.c, srun): {@code slurmstepd: error: *** JOB 1234
   * ON node01 CANCELLED AT 2024-04-23T12:18:08 DUE TO TIME LIMIT ***}, {@code ... DUE TO PREEMPTION
   * ***}, {@code ... DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***}, {@code *** STEP
   * 6053.0 ON n1 CANCELLED AT ... ***} (scancel).
   */
  public static final String SLURM_CANCELLED = "CANCELLED AT";

  /**
   * A process started without the rendezvous variables init_process_group reads: rendezvous.py's
   * {@code ValueError: Error initializing torch.distributed using env:// rendezvous: environment
   * variable MASTER_ADDR expected, but not set}, torch.distributed.elastic's {@code Environment
   * variable RANK expected, but not set}.
   */
  public static final String ENV_NOT_SET = "expected, but not set";

  /**
   * PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG=1, TraceUtils.h) naming ranks that never
   * reached a collective: {@code To our best knowledge, ranks [47] are the lagging ranks that
   * caused this timeout. They never joined any collectives}.
   */
  public static final String DESYNC_MISSING = "are the lagging ranks";

  /**
   * The other lines of the desync report: {@code - [47] joined but didn't finish collective #41207
   * (count from 1)}, {@code [0, 1] finished collective #41207, but didn't join collective #41208
   * (count from 1)}.
   */
  public static final String DESYNC_LAGGING = "(count from 1)";

  /**
   * PyTorch's monitored_barrier (ProcessGroupGloo's monitoredBarrier, torch 1.9 on) on rank 0,
   * naming the ranks that did not reach it in time: {@code RuntimeError: Rank 1 failed to pass
   * monitoredBarrier in 2000 ms}, with {@code wait_all_ranks=True} {@code [Rank 0]: Ranks 4, 5, 6,
   * 7 failed to pass monitoredBarrier in 2000000 ms}.
   */
  public static final String MONITORED_BARRIER = "to pass monitoredBarrier";

  /**
   * Horovod's stall inspector: {@code One or more tensors were submitted to be reduced, gathered or
   * broadcasted by subset of ranks and are waiting for remainder of ranks for more than 60
   * seconds.} with {@code Stalled ops: HorovodBroadcast_x_0 [missing ranks: 1]}.
   */
  public static final String HOROVOD_STALL = "by subset of ranks";

  /**
   * The tcp:// and file:// rendezvous of init_process_group called without a rank or world size
   * (rendezvous.py's {@code _tcp_rendezvous_handler} and {@code _file_rendezvous_handler}, torch
   * 1.0-2.11): {@code ValueError: Error initializing torch.distributed using tcp:// rendezvous:
   * rank parameter missing}, {@code ... world size parameter missing}.
   */
  public static final String PARAMETER_MISSING = "parameter missing";

  /**
   * torchrun's agent itself received a signal (elastic/multiprocessing/api.py's {@code
   * _terminate_process_handler}, torch 1.9-2.11): {@code
   * torch.distributed.elastic.multiprocessing.api.SignalException: Process 4044 got signal: 15}.
   */
  public static final String AGENT_SIGNAL = "got signal: ";

  /**
   * The agent's warning on the same signal (elastic/agent/server/api.py): {@code Received 15 death
   * signal, shutting down workers}.
   */
  public static final String DEATH_SIGNAL = " death signal, shutting down";

  /**
   * Horovod's stall inspector's list of a stalled tensor's missing ranks on a line of its own
   * (Horovod 0.16-0.19): {@code W horovod/common/operations.cc:588] HorovodBroadcast_x_0 [missing
   * ranks: 1]}.
   */
  public static final String MISSING_RANKS = "[missing ranks: ";

  /**
   * C++'s std::terminate on an exception nothing caught, which ends the process with SIGABRT:
   * {@code terminate called after throwing an instance of 'c10::DistBackendError'} (PyTorch's
   * watchdog on a timeout or an NCCL error, torch 2.2 on).
   */
  public static final String TERMINATE = "terminate called after throwing";

  /**
   * srun's report of a task or node (Slurm's srun, any version): {@code srun: error: gpu001: task
   * 0: Out Of Memory}, {@code srun: error: node12: task 0: Killed}, {@code srun: error: Node
   * failure on node12}; one needle for the family, the parser keeps the forms with a cause.
   */
  public static final String SRUN_ERROR = "srun: error: ";

  /**
   * PyTorch Lightning's device parser refusing GPUs the process does not see (device_parser.py,
   * 1.x-2.x): {@code MisconfigurationException: You requested gpu: [0, 1]} then {@code But your
   * machine only has: [0]} (or {@code []}: no GPU at all).
   */
  public static final String LIGHTNING_DEVICES = "your machine only has: [";

  /**
   * Open MPI's runtime (ORTE in 1.x-4.x, PRRTE in 5.x) losing a daemon on another node: {@code ORTE
   * has lost communication with a remote daemon.}, {@code PRTE has lost communication with a remote
   * daemon.}
   */
  public static final String MPI_DAEMON_LOST = "lost communication with a remote";

  /**
   * ORTE's daemons that never started: {@code ORTE was unable to reliably start one or more
   * daemons.}
   */
  public static final String MPI_DAEMON_START = "reliably start one or more daemons";

  /**
   * A daemon that started but never called back: {@code An ORTE daemon has unexpectedly failed
   * after launch and before communicating back to mpirun.}
   */
  public static final String MPI_DAEMON_FAILED = "daemon has unexpectedly failed";

  /**
   * UCX's own error log ({@code ucs_error}: {@code [1700554343.440877] [host:7356 :0] sock.c:323
   * UCX ERROR connect(fd=48, dest_addr=172.17.0.1:42887) failed: Connection refused}, {@code
   * ib_device.c:1380 UCX ERROR ibv_create_ah(...) for RC DEVX QP connect on mlx5_15 failed: No such
   * device}): UCX pads its level to five characters after two spaces.
   */
  public static final String UCX_ERROR = "UCX  ERROR";

  /**
   * Open MPI's pml ucx that could not reach a peer rank: {@code pml_ucx.c:477 Error: Failed to
   * resolve UCX endpoint for rank 3} (after {@code ucp_ep_create(proc=3) failed: Destination is
   * unreachable}).
   */
  public static final String UCX_ENDPOINT = "resolve UCX endpoint";

  /**
   * HAMi-core's own error log (libvgpu.so, the CUDA interposer HAMi's device plugin preloads into a
   * pod that shares a GPU): {@code [HAMI-core ERROR (pid:2244 thread=...
   * multiprocess_memory_limit.c:1255)]: Illegal device id: 31069}; older releases {@code [HAMI-core
   * ERROR(...)]}.
   */
  public static final String HAMI_CORE_ERROR = "[HAMI-core ERROR";

  /**
   * libibverbs listing a device it has no provider library for (libibverbs/init.c, always in
   * libibverbs 1.x, under {@code IBV_SHOW_WARNINGS} in rdma-core): {@code libibverbs: Warning: no
   * userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0}.
   */
  public static final String VERBS_NO_PROVIDER = "device-specific driver found";

  /**
   * DeepSpeed's runner (launcher/runner.py) that could not ssh to the first host of its hostfile
   * before starting the job over pdsh or mpirun: {@code RuntimeError: Using hostfile at
   * /job/hostfile but host=node2 was not reachable via ssh. If you are running with a single node
   * please remove /job/hostfile or setup passwordless ssh.}
   */
  public static final String SSH_UNREACHABLE = "was not reachable via ssh";

  /**
   * The same ssh check of DeepSpeed's runner as Python's traceback reports it when it failed,
   * before the runner's own words: {@code subprocess.CalledProcessError: Command 'ssh -o
   * PasswordAuthentication=no node1 hostname' returned non-zero exit status 255.}
   */
  public static final String SSH_CHECK = "PasswordAuthentication=no";

  /**
   * PyTorch's Gloo backend (ProcessGroupGloo.cpp) that could not resolve the host's name to a local
   * address and bound to loopback: {@code Warning: Unable to resolve hostname to a (local) address.
   * Using the loopback address as fallback. Manually set the network interface to bind to with
   * GLOO_SOCKET_IFNAME.}
   */
  public static final String GLOO_LOOPBACK = "resolve hostname to a (local) address";

  /**
   * Gloo's TCP pairs that could not all connect: {@code Gloo connectFullMesh failed with
   * [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error}.
   */
  public static final String GLOO_MESH = "connectFullMesh failed";

  /**
   * Open MPI's {@code mpirun noticed that process rank 3 with PID 1234 on node n1 exited on signal
   * 9 (Killed).}
   */
  public static final String MPI_KILLED = "on signal 9";

  /**
   * Open MPI's form of a rank's segmentation fault: {@code mpirun noticed that process rank 1 with
   * PID 3512 on node n2 exited on signal 11 (Segmentation fault).}
   */
  public static final String MPI_SEGFAULT = "on signal 11";

  /**
   * Slurm's {@code slurmstepd: error: Detected 1 oom-kill event(s) in StepId=...} and the kernel's
   * {@code Out of memory: Killed process 1234 (python)}.
   */
  public static final String OOM_KILL = "oom-kill";

  /**
   * The kernel's form of {@link #OOM_KILL} (mm/oom_kill.c's {@code "%s: Killed process %d (%s)
   * ..."}): {@code Out of memory: Killed process 1234 (python)}, a container's or job's limit
   * {@code Memory cgroup out of memory: Killed process 1234 (python)}, and before Linux 5.0 {@code
   * Out of memory: Kill process 1234 (python) score 951 or sacrifice child}: one needle for the
   * three.
   */
  public static final String KERNEL_OOM = "of memory: Kill";

  /**
   * NCCL's two ranks on one GPU pasted without NCCL's header or PyTorch's {@code Last error:} line
   * above it: {@code Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 50} (init.cc
   * since 2.4). Long, so the one multi-needle pass finds it at almost no cost.
   */
  public static final String DUPLICATE_GPU = "Duplicate GPU detected";

  /**
   * PyTorch's TCPStore server (rank 0, the master port) that could not listen because the port is
   * taken: {@code RuntimeError: Address already in use} (1.x), {@code [W socket.cpp:401] [c10d] The
   * server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).}, and 2.2
   * on {@code ... port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in
   * use}: without its first letter, so both cases are one needle.
   */
  public static final String ADDRESS_IN_USE = "ddress already in use";

  /**
   * PyTorch's TCPStore server quoted without its errno ({@code The server socket has failed to
   * listen on any local network address}, {@code The server socket has failed to bind to
   * [::]:19936}; c10d's socket.cpp SocketListenOp).
   */
  public static final String SERVER_SOCKET_FAILED = "server socket has failed to";

  /**
   * The dynamic loader refusing a library before NCCL prints anything ({@link LoaderLine}): {@code
   * error while loading shared libraries: libnccl.so.2: failed to map segment from shared object:
   * Operation not permitted}, {@code libcuda.so.1: cannot open shared object file}, {@code wrong
   * ELF class: ELFCLASS32}.
   */
  public static final String LOADER_ERROR = "error while loading shared libraries";

  /** The loader's missing library ({@link #LOADER_ERROR}), also in Python's ImportError. */
  public static final String NO_SHARED_OBJECT = "cannot open shared object file";

  /** The loader's library of the other word size ({@link #LOADER_ERROR}). */
  public static final String WRONG_ELF_CLASS = "wrong ELF class";

  /** The loader's library it could not map ({@link #LOADER_ERROR}): a noexec mount. */
  public static final String MAP_SEGMENT = "failed to map segment from shared object";

  /** The loader's version a library needs and did not find ({@link #LOADER_ERROR}). */
  public static final String REQUIRED_BY = "not found (required by";

  /**
   * A docker command line pasted beside the log ({@code docker run -it --gpus all IMAGE}, {@code
   * nvidia-docker run ...}): how it gave the container /dev/shm ({@link LaunchLine}).
   */
  public static final String DOCKER_RUN = "docker run ";

  /**
   * Open MPI's command line ({@code mpirun -np 2 -H 192.168.2.249:1,192.168.2.243:1 ...}): the
   * hosts it places ranks on ({@link LaunchLine}). With the option's dash, so that it is 8 bytes
   * long and the filter's one pass keeps its skips (a shorter needle is searched on its own).
   */
  public static final String MPIRUN = "mpirun -";

  /**
   * The same launch under the MPI standard's name ({@code mpiexec -n 16 -hosts n1,n2 ./train}, Open
   * MPI's, MPICH's and Intel MPI's {@code mpiexec}), read as mpirun's ({@link LaunchLine}); 9 bytes
   * with the option's dash, as mpirun's.
   */
  public static final String MPIEXEC = "mpiexec -";

  /**
   * A GeForce GPU's name as tools print it ({@code NVIDIA GeForce RTX 4090}): the model is read by
   * {@link GpuNameLine}.
   */
  public static final String GEFORCE = "GeForce RTX";

  /**
   * The one model the catalog lists without working P2P, as users write it: {@code RTX 4090}. The
   * bare number ({@code multiple 4090}) would be a short needle searched on its own, which cost 9
   * to 11 % of the filter's scan (docs/performance.md): not taken.
   */
  public static final String RTX_4090 = "RTX 4090";

  /**
   * A GPU listed by nvidia-smi -L or PyTorch's environment report ({@code GPU 0: NVIDIA
   * A100-SXM4-80GB (UUID: ...)}, {@code GPU 0: NVIDIA A40}): the model is read by {@link
   * GpuNameLine}.
   */
  public static final String GPU_LISTED = "GPU 0: NVIDIA ";

  /**
   * PyTorch's warning on a GPU its build has no kernels for, which names the GPU and its
   * architecture ({@code NVIDIA A40 with CUDA capability sm_86 is not compatible with the current
   * PyTorch installation.}); read by {@link GpuNameLine}.
   */
  public static final String CUDA_CAPABILITY = "with CUDA capability sm_";

  /**
   * Accelerate refusing to start on RTX 4000-series GPUs (PartialState, after {@code
   * check_cuda_p2p_ib_support} in accelerate/utils/environment.py): {@code NotImplementedError:
   * Using RTX 4000 series doesn't support faster communication broadband via P2P or IB. Please set
   * `NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1" or use `accelerate launch` ...}; read by {@link
   * GpuNameLine}.
   */
  public static final String ACCELERATE_NO_P2P = "faster communication broadband";

  /**
   * ENOSPC in the words of strerror, as Python ({@code OSError: [Errno 28] No space left on
   * device}), PyTorch's shared-memory files ({@code unable to write to file </torch_123_456>: No
   * space left on device (28)}) and NCCL print it: a full file system, /dev/shm among them.
   */
  public static final String NO_SPACE = "No space left on device";

  /**
   * CUDA 101 in PyTorch's words, without NCCL's: {@code RuntimeError: CUDA error: invalid device
   * ordinal} (torch.cuda.set_device with a local rank past the GPUs the process sees), 1.x's {@code
   * cuda runtime error (101) : invalid device ordinal at .../Module.cpp:59} and THC's {@code
   * THCudaCheck FAIL file=torch/csrc/cuda/Module.cpp line=34 error=10 : invalid device ordinal}.
   */
  public static final String INVALID_ORDINAL = "invalid device ordinal";

  /**
   * A rank's connection to PyTorch's TCPStore (MASTER_ADDR:MASTER_PORT) that failed, c10d's socket
   * (torch 1.10-2.11): {@code [W socket.cpp:663] [c10d] The client socket has failed to connect to
   * [::ffff:255.255.0.0]:29500 (errno: 110 - Connection timed out).} and, after every address was
   * tried, {@code ... failed to connect to any network address of (HOST, PORT).}
   */
  public static final String STORE_CONNECT = "client socket has failed to connect";

  /**
   * The same connect to the store timing out in torch 2.2 on, logged by the client as it retries:
   * {@code [W416 15:37:25.363094293 socket.cpp:933] [c10d] The server socket on
   * [::ffff:10.0.0.1]:40613 has timed out, will retry.}
   */
  public static final String STORE_RETRY = "has timed out, will retry";

  /**
   * The store's own timeouts without the word DistStoreError: PyTorch 1.x's {@code RuntimeError:
   * Socket Timeout} (a store get or wait that ran out).
   */
  public static final String SOCKET_TIMEOUT = "Socket Timeout";

  /**
   * PyTorch 1.8-2.0's barrier on the store after init_process_group: {@code RuntimeError: Timed out
   * initializing process group in store based barrier on rank: 2, for key:
   * store_based_barrier_key:1 (world_size=2, worker_count=4, timeout=0:30:00)}.
   */
  public static final String STORE_BARRIER = "store based barrier";

  /**
   * torchrun's elastic rendezvous giving up: {@code RendezvousTimeoutError}, {@code
   * RendezvousConnectionError: The connection to the C10d store has failed.}
   */
  public static final String ELASTIC_RENDEZVOUS = "Rendezvous";

  /**
   * A torch.distributed call without a process group: {@code RuntimeError: Default process group
   * has not been initialized, please make sure to call init_process_group.} (distributed_c10d.py,
   * torch 1.x-2.11; {@code ValueError} in 2.x).
   */
  public static final String NO_PROCESS_GROUP = "group has not been initialized";

  /**
   * A model-parallel group used before the framework made it: {@code AssertionError: tensor model
   * parallel group is not initialized} (Megatron-LM's megatron/core/parallel_state.py and
   * megatron/mpu/initialize.py, NeMo through Megatron core, vLLM's parallel_state.py).
   */
  public static final String PARALLEL_GROUP_UNSET = "parallel group is not initialized";

  /**
   * torch.distributed.elastic's endpoint parser given no port (rendezvous/utils.py
   * parse_rendezvous_endpoint, torch 1.9-2.11): {@code ValueError: The port number of the
   * rendezvous endpoint 'None:None' must be an integer between 0 and 65536.}
   */
  public static final String ENDPOINT_PORT = "port number of the rendezvous endpoint";

  /**
   * accelerate's launcher (utils/launch.py) with --num_machines above 1 and no address: {@code
   * AssertionError: When using multiple machines, you need to specify the main process IP.}
   */
  public static final String MAIN_PROCESS = "you need to specify the main process";

  /**
   * A forked child that uses CUDA its parent had initialised: {@code RuntimeError: Cannot
   * re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the
   * 'spawn' start method} (torch/cuda/__init__.py, torch 1.x-2.11).
   */
  public static final String CUDA_FORKED = "re-initialize CUDA in forked";

  /**
   * Lightning's refusal to fork (ddp_fork, ddp_notebook): {@code RuntimeError: Lightning can't
   * create new processes if CUDA is already initialized.}
   */
  public static final String CUDA_ALREADY_INITIALIZED = "CUDA is already initialized";

  /**
   * PaddlePaddle 1.8-2.1's check of an NCCL result, which spells it {@code Nccl}: {@code
   * ExternalError: Nccl error, unhandled cuda error (at .../collective_helper.cc:83)}.
   */
  public static final String PADDLE_NCCL = "Nccl error";

  /**
   * PaddlePaddle's log of the NCCL communicator it is about to create (nccl_context.cc, Paddle
   * 1.x-2.x dygraph): {@code nccl_context.cc:83] init nccl context nranks: 4 local rank: 0/1 gpu
   * id: 0/1 ring id: 0/1}: the process reached NCCL's init.
   */
  public static final String PADDLE_NCCL_CONTEXT = "init nccl context nranks: ";

  /**
   * TensorFlow without NCCL kernels (its Windows, macOS and CPU-only builds) asked for its NCCL
   * all-reduce: {@code InvalidArgumentError: No OpKernel was registered to support Op
   * 'NcclAllReduce' used by {{node Adam/NcclAllReduce}} ...}; the op's name is TensorFlow's
   * spelling, {@code Nccl}, which no other needle holds.
   */
  public static final String TF_NO_NCCL_KERNEL = "support Op 'Nccl";

  /**
   * The same without the op itself in the binary: {@code NotFoundError: Op type not registered
   * 'NcclAllReduce' in binary running on HOST.}
   */
  public static final String TF_NO_NCCL_OP = "not registered 'Nccl";

  /**
   * PyTorch's ProcessGroupWrapper (TORCH_DISTRIBUTED_DEBUG=DETAIL) comparing each collective's
   * fingerprint across ranks before running it: {@code RuntimeError: Detected mismatch between
   * collectives on ranks. Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=3104,
   * OpType=ALLREDUCE, TensorShape=[195812480], ...), but Rank 1 is running collective: ...
   * Collectives differ in the following aspects: Tensor Tensor shapes: 195812480vs 51123456};
   * SGLang quotes it with only the sequence numbers ({@code Rank 3 is running collective:
   * SequenceNumber=18}).
   */
  public static final String COLLECTIVES_DIFFER = "mismatch between collectives";

  /**
   * The same wrapper's shape check before a collective: {@code RuntimeError: Error when verifying
   * shape tensors for collective ALLREDUCE on rank 0. This likely indicates that input shapes into
   * the collective are mismatched across ranks. Got shapes: 10}.
   */
  public static final String SHAPES_DIFFER = "verifying shape tensors for collective";

  /**
   * Accelerate's operational debug mode ({@code ACCELERATE_DEBUG_MODE=1}) checking a collective's
   * shapes on every process first: {@code Cannot apply desired operation due to shape mismatches.
   * All shapes across devices must be valid.}
   */
  public static final String ACCELERATE_SHAPES = "due to shape mismatches";

  /**
   * PyTorch DDP's reducer finding the last backward pass unfinished at the next forward, a
   * parameter having received no gradient: {@code RuntimeError: Expected to have finished reduction
   * in the prior iteration before starting a new one. This error indicates that your module has
   * parameters that were not used in producing loss.}
   */
  public static final String DDP_UNFINISHED_REDUCTION =
      "Expected to have finished reduction in the prior iteration";

  /**
   * The same error's lists, with {@code TORCH_DISTRIBUTED_DEBUG=INFO} or {@code DETAIL}: {@code
   * Parameters which did not receive grad for rank 0: a.weight}, and always {@code Parameter
   * indices which did not receive grad for rank 0: 0}.
   */
  public static final String DDP_NO_GRAD = "did not receive grad for rank";

  /**
   * Envoy (Istio's sidecar, other meshes) refusing a connection by its RBAC filter: the access
   * log's response detail {@code rbac_access_denied_matched_policy[none]}.
   */
  public static final String MESH_DENIED = "rbac_access_denied";

  /**
   * The body Envoy's HTTP RBAC filter answers a refused request with: {@code RBAC: access denied}.
   */
  public static final String ENVOY_DENIED = "RBAC: access denied";

  /**
   * Istio's name for the Envoy cluster of a port of the pod itself, in the sidecar's debug lines
   * and access log: {@code membership update for TLS cluster inbound|23456|| added 0 removed 1}.
   */
  public static final String MESH_INBOUND = "inbound|";

  /**
   * PyTorch Lightning announcing a process's rank, {@code Initializing distributed: GLOBAL_RANK: 1,
   * MEMBER: 2/8}: a rank announced twice is two processes claiming it.
   */
  public static final String GLOBAL_RANK = "GLOBAL_RANK: ";

  /**
   * PyTorch Lightning's note that Slurm, not Lightning, starts its processes ({@code
   * Multi-processing is handled by Slurm.}, every 1.x and 2.x release's accelerator connector):
   * each rank must then be a Slurm task.
   */
  public static final String SLURM_MANAGED = "Multi-processing is handled by Slurm";

  /**
   * CUDA 217 (cudaErrorPeerAccessUnsupported) in the words of a framework's own GPU-to-GPU path,
   * without NCCL's: SGLang's {@code RuntimeError: CUDART error: peer access is not supported
   * between these two devices}, vLLM's custom all-reduce {@code Failed: Cuda error
   * .../custom_all_reduce.cuh:307 'peer access is not supported between these two devices'},
   * TensorRT-LLM's {@code CUDA runtime error in error: peer access is not supported ...}, PyTorch's
   * {@code RuntimeError: CUDA error: peer access is not supported ...}. Long, so the one
   * multi-needle pass finds it at almost no cost.
   */
  public static final String PEER_ACCESS = "peer access is not supported";

  /**
   * CUDA error 35 (cudaErrorInsufficientDriver) in the CUDA runtime's words, as callers print it
   * without NCCL's: on the line after LMDeploy's {@code Failed, NCCL error ... 'unhandled cuda
   * error'}, PyTorch's {@code RuntimeError: CUDA error: CUDA driver version is insufficient for
   * CUDA runtime version}, 1.x's {@code cuda runtime error (35) : ...}, CuPy's {@code
   * cudaErrorInsufficientDriver: ...}.
   */
  public static final String DRIVER_INSUFFICIENT = "driver version is insufficient";

  /**
   * PyTorch's own check of the same: {@code RuntimeError: The NVIDIA driver on your system is too
   * old (found version 11040).}, also as {@code UserWarning: CUDA initialization: ...}.
   */
  public static final String DRIVER_TOO_OLD = "driver on your system is too old";

  /**
   * NCCL 2.14's check of a config from newer headers, pasted without NCCL's header or PyTorch's
   * {@code Last error:}: {@code Invalid config blocking attribute value -2147483648} (the value is
   * NCCL_CONFIG_UNDEF_INT, "not set").
   */
  public static final String CONFIG_UNDEF = "attribute value -2147483648";

  /**
   * PyTorch's TCPStore client that could not resolve the store's host name (MASTER_ADDR), c10d's
   * socket (torch 1.10-2.11): {@code [W socket.cpp:601] [c10d] The IPv6 network addresses of
   * (master, 29500) cannot be retrieved (gai error: -2 - Name or service not known).} (1.10: {@code
   * ... cannot be retrieved Name or service not known.}); not its harmless {@code The hostname of
   * the client socket cannot be retrieved}.
   */
  public static final String STORE_NAME = "network addresses of (";

  /**
   * The same before torch 1.10 (c10d's and THD's tcputil::connect): {@code ValueError: host not
   * found: Name or service not known}, {@code ... Temporary failure in name resolution}.
   */
  public static final String HOST_NOT_FOUND = "host not found: ";

  /**
   * libfabric's EFA provider aborting ({@code efa_base_ep_write_eq_error}): {@code Libfabric error:
   * (-12) Cannot allocate memory} after {@code Libfabric EFA provider has encountered an internal
   * error:}.
   */
  public static final String LIBFABRIC_ERROR = "Libfabric error: (";

  /**
   * The EFA provider's own ENOMEM before that (libfabric's log, {@code FI_LOG_LEVEL=warn}): {@code
   * efa_mr_regattr():632<warn> Unable to register MR: Cannot allocate memory}.
   */
  public static final String EFA_REGISTER_MR = "Unable to register MR: ";

  /**
   * Its error that found no event queue to go to: {@code Unable to write to EQ: Missing or
   * unavailable event queue. err: Cannot allocate memory (-12) prov_errno: ...}.
   */
  public static final String EFA_EQ = "Unable to write to EQ";

  /**
   * libfabric finding no provider: {@code fi_info -p efa} printing {@code fi_getinfo: -61 (No data
   * available)}, its core's {@code fi_getinfo: provider efa returned -61 (No data available)}.
   */
  public static final String FI_GETINFO = "fi_getinfo";

  /** The utility's name as users quote its result: {@code fi_info -61}, {@code fi_info -p efa}. */
  public static final String FI_INFO = "fi_info -";

  /**
   * NCCL's socket failures pasted without NCCL's header, in the {@code " : "} of its SYSCHECK
   * macros: {@code Call to recv failed : Connection reset by peer} (2.1-2.3's socket.h), {@code Net
   * : Call to recv from ADDR failed : Connection reset by peer}, {@code Call to connect failed :
   * Connection timed out}.
   */
  public static final String SOCKET_FAILED = " failed : Connection ";

  /** 2.3's SYSCHECKNTIMES giving up: {@code Call to connect timeout : Connection refused}. */
  public static final String SOCKET_TIMEOUT_FAILED = " timeout : Connection ";

  /** NCCL's {@code Net : Connection closed by remote peer} (2.4-2.18) without its header. */
  public static final String CLOSED_BY_PEER = "Connection closed by remote peer";

  /**
   * CUDA 802 (cudaErrorSystemNotReady: the NVSwitch fabric manager is not up) in the words of
   * CUDA's callers, without NCCL's: PyTorch's {@code RuntimeError: cuda runtime error (802) :
   * system not yet initialized at .../THCGeneral.cpp:50} and {@code UserWarning: CUDA
   * initialization: ... Error 802: system not yet initialized}, gpu-burn's {@code Error
   * (gpu_burn-drv.cpp:298): system not yet initialized}.
   */
  public static final String CUDA_NOT_READY = "system not yet initialized";

  /**
   * The NVIDIA driver's GPU error in the kernel log, pasted beside an NCCL failure: {@code NVRM:
   * Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.} (every driver
   * release; {@link DriverLine} reads it). Long and rare, so the one multi-needle pass finds it at
   * almost no cost.
   */
  public static final String XID = "NVRM: Xid";

  /**
   * Xid 79 in the driver's other words: {@code NVRM: GPU 0000:3b:00.0: GPU has fallen off the
   * bus.}, older {@code NVRM: GPU at 0000:01:00.0 has fallen off the bus.}
   */
  public static final String FALLEN_OFF_BUS = "fallen off the bus";

  /**
   * nvidia-smi after a GPU was lost: {@code Unable to determine the device handle for
   * GPU0000:3B:00.0: Unknown Error}.
   */
  public static final String DEVICE_HANDLE = "determine the device handle";

  /**
   * The NVIDIA fabric manager's journal (NVSwitch systems): {@code nv-fabricmanager[4177]: request
   * to query NVSwitch device information ... failed with error:...}, {@code
   * nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE}.
   */
  public static final String FABRIC_MANAGER = "fabricmanager";

  /**
   * The fabric manager refusing a driver of another version, with or without its program's name:
   * {@code fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver
   * version 530.41.03. Please update with matching NVIDIA driver package.} (later {@code doesn't
   * match}, pasted {@code don’t match}).
   */
  public static final String FABRIC_MANAGER_VERSION = "match with driver version";

  /**
   * The kernel's IB/RoCE port state change (Linux 6.15's ib_cache_update): {@code mlx5_core
   * 0000:08:00.0 mlx5_0: Port: 1 Link DOWN}.
   */
  public static final String IB_LINK_DOWN = " Link DOWN";

  /**
   * mlx5's cable or transceiver error (drivers/net/ethernet/mellanox/mlx5/core/events.c): {@code
   * Port module event[error]: module %u, %s, %s}.
   */
  public static final String PORT_MODULE = "Port module event";

  /**
   * NCCL's failed QP transition as users quote it without its {@code Call to} ({@code ibv_modify_qp
   * failed with 110 Connection timed out, on dev rocep1s0f0:1}, ainode PR 89): ibvwrap.cc's {@code
   * Call to ibv_modify_qp failed with %d %s, %s} (2.2x; before, {@code ... failed with error %s}),
   * read as the WARN it is.
   */
  public static final String VERBS_QP_FAILED = "ibv_modify_qp failed with ";

  /**
   * CUDA's error string as PyTorch's C10_CUDA_CHECK raises it ({@code RuntimeError: CUDA error: an
   * illegal memory access was encountered}, torch 2.8's {@code torch.AcceleratorError: CUDA error:
   * ...}), and other frameworks' checks in the same words: read by {@link PlatformLine}.
   */
  public static final String CUDA_ERROR = "CUDA error: ";

  /**
   * PyTorch's caching allocator out of GPU memory: {@code CUDA out of memory. Tried to allocate}.
   */
  public static final String CUDA_OOM = "CUDA out of memory";

  /**
   * c10/cuda/CUDAFunctions.cpp's words for the CUDA runtime's device count failing: {@code CUDA
   * unknown error - this may be due to an incorrectly set up environment} (999), {@code CUDA driver
   * initialization failed, you might not have a CUDA gpu.} (3), {@code No CUDA GPUs are available}
   * (100), and CUDAContext.cpp's {@code device >= 0 && device < num_gpus INTERNAL ASSERT FAILED}.
   */
  public static final String TORCH_CUDA_UNKNOWN = "CUDA unknown error";

  public static final String TORCH_CUDA_INIT = "CUDA driver initialization failed";

  public static final String TORCH_NO_GPUS = "No CUDA GPUs are available";

  public static final String TORCH_DEVICE_INDEX = "device < num_gpus";

  /** vLLM's Ray executor: {@code The number of required GPUs exceeds the total number of ...}. */
  public static final String PLACEMENT_GPUS = "available GPUs in the placement group";

  /**
   * A GPU kernel's assert() as CUDA prints it: {@code block: [0,0,0], thread: [5,0,0] Assertion `t
   * >= 0 && t < n_classes` failed.}
   */
  public static final String KERNEL_ASSERT = "] Assertion `";

  /** torch/cuda/__init__.py's {@code Found no NVIDIA driver on your system.} */
  public static final String NO_DRIVER = "Found no NVIDIA driver";

  /** nvidia-smi's and NVML's {@code Failed to initialize NVML: <nvmlErrorString>}. */
  public static final String NVML_INIT = "Failed to initialize NVML";

  /**
   * nvidia-smi without a loaded driver: {@code ... couldn't communicate with the NVIDIA driver.}
   */
  public static final String SMI_NO_DRIVER = "communicate with the NVIDIA driver";

  /** libnvidia-container's errors ({@code nvidia-container-cli: initialization error: ...}). */
  public static final String CONTAINER_CLI = "nvidia-container-cli: ";

  /** The failure table of torchrun's ChildFailedError: {@code exitcode : -9 (pid: 36071)}. */
  public static final String EXIT_TABLE = "exitcode  : -";

  /**
   * Lightning's child-process observer: {@code [rank: 1] Child process with PID 9487 terminated
   * with code -9. Forcefully terminating all other processes to avoid zombies}.
   */
  public static final String CHILD_CODE = "terminated with code -";

  /** kube-scheduler's FailedScheduling: {@code 0/4 nodes are available: 4 Insufficient ...}. */
  public static final String NODES_AVAILABLE = "nodes are available: ";

  /** The kubelet's device manager at admission (UnexpectedAdmissionError). */
  public static final String DEVICES_UNAVAILABLE = "requested number of devices unavailable";

  /** Slurm's refusal of a request no node of the partition can meet. */
  public static final String NODE_CONFIGURATION = "Requested node configuration is not available";

  /** Open MPI's rmaps help text: more ranks than the hostfile's slots. */
  public static final String NO_SLOTS = "not enough slots available";

  /** torch.multiprocessing's spawn: {@code process 1 terminated with signal SIGABRT}. */
  public static final String SPAWN_SIGNAL = "terminated with signal SIG";

  /**
   * horovodrun's ssh check (runner/launch.py): {@code ssh not successful for host node2:}, then
   * {@code RuntimeError: could not connect to some hosts via ssh}.
   */
  public static final String HOROVOD_SSH = "ssh not successful for host";

  public static final String HOROVOD_SSH_FAILED = "could not connect to some hosts via ssh";

  /** horovodrun's interface check: {@code Unable to find a set of common task-to-task ...}. */
  public static final String HOROVOD_NICS = "common task-to-task communication interfaces";

  /** pdsh's ssh module: {@code pdsh@node1: node2: ssh exited with exit code 255}. */
  public static final String PDSH_SSH = "ssh exited with exit code 255";

  /** MPICH's and Intel MPI's hydra: {@code = KILLED BY SIGNAL: 9 (Killed)}. */
  public static final String HYDRA_KILLED = "KILLED BY SIGNAL: ";

  /**
   * hydra's {@code = EXIT CODE: 139}: the wait status of a process that did not exit
   * (pmiserv_cb.c), a signal in its low seven bits and 0x80 for a core dump.
   */
  public static final String HYDRA_EXIT = "=   EXIT CODE: ";

  /**
   * hydra's {@code YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal
   * 11)}.
   */
  public static final String HYDRA_STRING = "WITH THE EXIT STRING: ";

  /** Kubernetes' container status of a container the kernel's OOM killer ended. */
  public static final String OOM_KILLED = "OOMKilled";

  /** The kubelet's eviction message: {@code The node was low on resource: memory.} */
  public static final String EVICTED_MEMORY = "low on resource: memory";

  /** Open MPI's btl tcp reached a process it did not expect (a shared address: docker0). */
  public static final String BTL_TCP_PEER = "unexpected process identifier";

  /** Open MPI's btl tcp's endpoint code: {@code btl_tcp_endpoint.c:803:...] connect() to ...}. */
  public static final String BTL_TCP_ENDPOINT = "btl_tcp_endpoint";

  /** torch 2.3 on: {@code TCP client failed to connect/validate to host H:P - retrying ...}. */
  public static final String STORE_VALIDATE = "failed to connect/validate";

  /** torch 2.2-2.4: {@code Observed flight recorder dump signal from another rank via TCPStore.} */
  public static final String DUMP_OBSERVED = "flight recorder dump signal";

  /**
   * Ray lost a node of the job: an actor's death cause {@code The actor died because its node has
   * died. Node Id: ...} (gcs_actor_manager.cc, Ray 2.x).
   */
  public static final String RAY_NODE_DIED = "its node has died";

  /**
   * Ray's GCS marking a node dead after missed heartbeats: {@code The node with node id: N and
   * address: A and node name: A has been marked dead because the detector has missed too many
   * heartbeats from it.} (gcs_node_manager.cc, Ray 1.x-2.x).
   */
  public static final String RAY_NODE_MARKED_DEAD = "marked dead because the detector";

  /**
   * The reason Ray 2.24 on gives an actor's node death: {@code the actor's node was terminated
   * unexpectedly: health check failed due to missing too many heartbeats}.
   */
  public static final String RAY_NODE_TERMINATED = "node was terminated unexpectedly";

  /** {@code ray.exceptions.LocalRayletDiedError: The task's local raylet died.} */
  public static final String RAY_RAYLET_DIED = "local raylet died";

  /**
   * JAX's coordination service (tsl coordination_service.cc) after a process stopped beating:
   * {@code UNAVAILABLE: Task /job:jax_worker/replica:0/task:1 heartbeat timeout. This indicates
   * that the remote task has failed, got preempted, or crashed unexpectedly.}
   */
  public static final String JAX_HEARTBEAT = "heartbeat timeout. This indicates";

  /**
   * Ray's memory monitor's summary (raylet node_manager.cc, Ray 2.2 on): {@code 1 Workers (tasks /
   * actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node
   * ...}.
   */
  public static final String RAY_MEMORY_PRESSURE = "killed due to memory pressure";

  /**
   * The memory monitor's detail of one kill: {@code Memory on the node (IP: A, ID: N) where the
   * task was running was 32.53GB / 33.28GB (0.977449), which exceeds the memory usage threshold of
   * 0.969955. Ray killed this worker (ID: W) because it was the most recently scheduled task; ...}.
   */
  public static final String RAY_KILLED_WORKER = "Ray killed this worker";

  /**
   * vLLM 0.5-0.8's worker monitor (executor/multiproc_worker_utils.py): {@code Worker
   * VllmWorkerProcess pid 1234 died, exit code: -9}.
   */
  public static final String VLLM_WORKER_DIED = "died, exit code: -";

  /**
   * Ray's autoscaler on a request no node can hold: {@code Warning: The following resource request
   * cannot be scheduled right now: {'GPU': 8.0}.}
   */
  public static final String RAY_UNSCHEDULABLE = "cannot be scheduled right now";

  /**
   * vLLM 0.2-0.6's Ray executor: {@code Ray does not allocate any GPUs on the driver node. Consider
   * adjusting the Ray placement group or running the driver on a GPU node.}
   */
  public static final String RAY_DRIVER_NO_GPU = "does not allocate any GPUs";

  /**
   * Ray's collective group (ray.util.collective, nccl_collective_group.py): {@code RuntimeError:
   * Unable to meet other processes at the rendezvous store.}
   */
  public static final String RAY_COLLECTIVE_MEET = "meet other processes at the rendezvous";

  /**
   * JAX's coordination service barrier past its deadline: {@code DEADLINE_EXCEEDED: Barrier timed
   * out. Barrier_id: PjRT_Client_Connect. Timed out task names:} (jax.distributed.initialize's
   * connect) or a program's own barrier id.
   */
  public static final String JAX_BARRIER = "Barrier timed out";

  /** vLLM's {@code AssertionError: world group is not initialized} (parallel_state.py). */
  public static final String WORLD_GROUP_UNSET = "world group is not initialized";

  /**
   * SGLang's check after loading the model (model_runner.py): {@code TP rank 1 could finish the
   * model loading, but there are other ranks that didn't finish loading.}
   */
  public static final String SGLANG_LOADING = "didn't finish loading";

  /**
   * SGLang's check of the GPUs' free memory across its tensor-parallel ranks: {@code The memory
   * capacity is unbalanced. Some GPUs may be occupied by other processes.}
   */
  public static final String SGLANG_UNBALANCED = "The memory capacity is unbalanced";

  /**
   * XLA's rendezvous (xla/service/rendezvous.cc) still waiting: {@code This thread has been waiting
   * for `initialize clique for rank 6; ...` for 10 seconds and may be stuck. Expected 8 threads to
   * join the rendezvous, but not all of them arrived on time.}
   */
  public static final String XLA_RENDEZVOUS_LATE = "not all of them arrived on time";

  /**
   * JAX's CUDA backend without a GPU: {@code RuntimeError: Unable to initialize backend 'cuda':
   * FAILED_PRECONDITION: No visible GPU devices.}
   */
  public static final String JAX_NO_GPU = "No visible GPU devices";

  /**
   * Ray 2.24 on, an actor's node drained for a preemption: {@code the actor's node was preempted:
   * REASON}.
   */
  public static final String RAY_NODE_PREEMPTED = "node was preempted: ";

  /**
   * Gloo's TCP pair receiving more than it posted (transport/tcp/pair.cc): {@code [enforce fail at
   * ../third_party/gloo/gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 1046204 vs
   * 1040256}.
   */
  public static final String GLOO_PREAMBLE = "op.preamble.length <= op.nbytes";

  /**
   * Horovod's Gloo rendezvous through horovodrun's HTTP store: {@code
   * [horovod/common/gloo/http_store.cc:53] Wait timeout for key(s): 0}.
   */
  public static final String HOROVOD_STORE_WAIT = "Wait timeout for key(s)";

  /**
   * Slurm's mpi/pmix plugin (pmixp_coll_ring.c, pmixp_coll_tree.c): {@code slurmstepd: error:
   * mpi/pmix_v3: pmixp_coll_ring_reset_if_to: n1 [0]: pmixp_coll_ring.c:742: 0x151a9c0 collective
   * timeout seq=0}.
   */
  public static final String PMIX_COLL = "pmixp_coll";

  /**
   * Gloo's unbound buffer (transport/tcp/unbound_buffer.cc): {@code Timed out waiting 1800000ms for
   * recv operation to complete} (also {@code send}).
   */
  public static final String GLOO_OPERATION = " operation to complete";

  /**
   * vLLM 0.6-0.11's shm_broadcast.py: {@code No available shared memory broadcast block found in 60
   * seconds. This typically happens when some processes are hanging or doing some time-consuming
   * work (e.g. compilation).}
   */
  public static final String VLLM_SHM_BROADCAST = "No available shared memory broadcast block";

  /**
   * SGLang's scheduler watchdog, in both its forms: the watchdog utility of recent releases, which
   * prints its debug name ({@code Scheduler watchdog timeout (self.watchdog_timeout=300,
   * self.soft=False)}), and earlier releases' srt/managers/scheduler.py ({@code Watchdog timeout
   * (self.watchdog_timeout=300)}, then it kills the parent process).
   */
  public static final String SGLANG_WATCHDOG = "atchdog timeout (self.watchdog_timeout=";

  /**
   * XLA's allocator out of GPU memory, as jaxlib raises it: {@code RESOURCE_EXHAUSTED: Out of
   * memory while trying to allocate 4770354232 bytes.}
   */
  public static final String XLA_OOM = "RESOURCE_EXHAUSTED: Out of memory";

  /**
   * TensorRT-LLM 0.5-0.7's run.py: {@code AssertionError: Engine world size (2 * 1) != Runtime
   * world size (1)} (an engine built for more GPUs than mpirun started).
   */
  public static final String TRTLLM_ENGINE_WORLD = "Engine world size (";

  /**
   * TensorRT-LLM 0.8 on (runtime/worldConfig.cpp): {@code [TensorRT-LLM][ERROR] Assertion failed:
   * mpiSize == tp * pp (...worldConfig.cpp:90)}.
   */
  public static final String TRTLLM_MPI_SIZE = "mpiSize == tp * pp";

  /** TensorRT-LLM 0.12's {@code Assertion failed: MPI size 1 != TP size 2 * PP size 1}. */
  public static final String TRTLLM_TP_SIZE = "!= TP size ";

  /**
   * TensorRT-LLM 0.11's {@code MPI worldSize is expected to be equal to tp*pp when participantIds
   * are not specified}.
   */
  public static final String TRTLLM_TP_PP = "expected to be equal to tp*pp";

  /**
   * vLLM's config check (config.py verify_with_parallel_config): {@code ValueError: Total number of
   * attention heads (32) must be divisible by tensor parallel size (3).}
   */
  public static final String HEADS_NOT_DIVISIBLE = "must be divisible by tensor parallel size";

  /**
   * Megatron-LM's initialize_model_parallel (parallel_state.py): {@code RuntimeError: world_size
   * (8) is not divisible by tensor_model_parallel_size (3) x pipeline_model_parallel_size (1) x
   * ...}.
   */
  public static final String WORLD_NOT_DIVISIBLE = "is not divisible by tensor_model_parallel_size";

  /**
   * JAX's coordination service refusing a process whose id is beyond num_processes: {@code
   * INVALID_ARGUMENT: Unexpected task registered with task_name=/job:jax_worker/replica:0/task:8}.
   */
  public static final String JAX_UNEXPECTED_TASK = "Unexpected task registered with";

  /**
   * JAX 0.5 on, the coordination service giving up on registration: {@code Stopping coordination
   * service as cluster registration failed. This may be due to 1) some tasks crashed earlier before
   * connecting, 2) some tasks were never scheduled, or 3) scheduling delays.}
   */
  public static final String JAX_REGISTRATION = "cluster registration failed";

  /**
   * vLLM's Ray executor (executor/ray_utils.py) on a node whose GPUs are all held: {@code
   * ValueError: Current node has no GPU available. current_node_resource={...}}.
   */
  public static final String VLLM_NODE_NO_GPU = "Current node has no GPU available";

  /**
   * Ray Train's, Tune's and Ray's integrations' wait for a placement group: {@code TimeoutError:
   * Placement group creation timed out. Make sure your cluster either has enough resources or use
   * an autoscaling cluster.}
   */
  public static final String RAY_PG_TIMEOUT = "Placement group creation timed out";

  /**
   * vLLM's start-up check of the GPU's free memory (worker/gpu_worker.py): {@code ValueError: Free
   * memory on device cuda:0 (7.34/15.49 GiB) on startup is less than desired GPU memory utilization
   * (0.8, 12.39 GiB).}
   */
  public static final String VLLM_FREE_MEMORY = "less than desired GPU memory utilization";

  /**
   * vLLM's KV cache with no room left after the weights: {@code ValueError: No available memory for
   * the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.}
   */
  public static final String VLLM_NO_CACHE = "No available memory for the cache blocks";

  /**
   * SGLang's KV cache pool with no room (model_runner.py): {@code RuntimeError: Not enough memory.
   * Please try to increase --mem-fraction-static.}
   */
  public static final String SGLANG_NO_CACHE = "Not enough memory. Please try to increase";

  /**
   * vLLM 0.2-0.7's KV cache shorter than one request of the model's context: {@code ValueError: The
   * model's max seq len (32768) is larger than the maximum number of tokens that can be stored in
   * KV cache (16832).}
   */
  public static final String VLLM_KV_TOO_SMALL = "tokens that can be stored in KV cache";

  /**
   * vLLM 0.8 on (v1 kv_cache_utils.py), the same: {@code ValueError: To serve at least one request
   * with the models's max seq len (131072), (4.00 GiB KV cache is needed, which is larger than the
   * available KV cache memory (0.65 GiB).}
   */
  public static final String VLLM_KV_NEEDED = "larger than the available KV cache memory";

  /**
   * Stack frames of NCCL's code on lines without {@code nccl} (NCCL linked into the framework, a
   * dump with sources): py-spy's {@code doLaunches (group.cc:161)}, gdb's {@code ... in
   * persistentThread (comm_=0x...) at proxy.cc:456}: NCCL's internal functions and source files
   * ({@link NcclSources#needles}), read by {@link StackFrameLine}.
   */
  public static final List<String> STACK_FRAMES = NcclSources.needles();

  /**
   * All of them, in the order the filter tries them; index 0 is NCCL's own debug line. Last come
   * NCCL's failure texts that hold none of the others ({@link NcclFailureTexts}: some three hundred
   * literals of 16 bytes or more, found in the same Wu-Manber pass).
   */
  public static final List<String> ALL = withFailureTexts(own());

  /** The filter's own needles, before NCCL's failure texts. */
  static List<String> own() {
    return Stream.concat(
            Stream.of(
                DEBUG_LINE,
                UPPER,
                LOWER,
                LAST_ERROR,
                NVLS,
                OLD_WARN,
                OLD_INFO,
                TEST_CUDA_FAILURE,
                OLD_TEST_CUDA_FAILURE,
                NO_ALGORITHM,
                COMPLETION,
                BUS_ERROR,
                LOWER_BUS_ERROR,
                STORE,
                STORE_CLIENT,
                EXIT_SIGNAL,
                SIGNAL_RECEIVED,
                MPI_KILLED,
                MPI_SEGFAULT,
                OOM_KILL,
                KERNEL_OOM,
                DUPLICATE_GPU,
                ADDRESS_IN_USE,
                SERVER_SOCKET_FAILED,
                LOADER_ERROR,
                NO_SHARED_OBJECT,
                WRONG_ELF_CLASS,
                MAP_SEGMENT,
                REQUIRED_BY,
                DOCKER_RUN,
                MPIRUN,
                MPIEXEC,
                NO_SPACE,
                GEFORCE,
                RTX_4090,
                GPU_LISTED,
                CUDA_CAPABILITY,
                ACCELERATE_NO_P2P,
                WATCHDOG_CAUGHT,
                INVALID_ORDINAL,
                PEER_ACCESS,
                STORE_CONNECT,
                STORE_RETRY,
                SOCKET_TIMEOUT,
                STORE_BARRIER,
                ELASTIC_RENDEZVOUS,
                NO_PROCESS_GROUP,
                PARALLEL_GROUP_UNSET,
                ENDPOINT_PORT,
                MAIN_PROCESS,
                CUDA_FORKED,
                CUDA_ALREADY_INITIALIZED,
                PADDLE_NCCL,
                PADDLE_NCCL_CONTEXT,
                TF_NO_NCCL_KERNEL,
                TF_NO_NCCL_OP,
                COLLECTIVES_DIFFER,
                SHAPES_DIFFER,
                ACCELERATE_SHAPES,
                DDP_UNFINISHED_REDUCTION,
                DDP_NO_GRAD,
                MESH_DENIED,
                ENVOY_DENIED,
                MESH_INBOUND,
                GLOBAL_RANK,
                SLURM_MANAGED,
                DRIVER_INSUFFICIENT,
                DRIVER_TOO_OLD,
                CONFIG_UNDEF,
                PYTHON_SIGNAL,
                RETURN_CODE_SIGNAL,
                RAY_OOM,
                SLURM_CANCELLED,
                ENV_NOT_SET,
                DESYNC_MISSING,
                DESYNC_LAGGING,
                MONITORED_BARRIER,
                HOROVOD_STALL,
                PARAMETER_MISSING,
                AGENT_SIGNAL,
                DEATH_SIGNAL,
                MISSING_RANKS,
                TERMINATE,
                SRUN_ERROR,
                LIGHTNING_DEVICES,
                MPI_DAEMON_LOST,
                MPI_DAEMON_START,
                MPI_DAEMON_FAILED,
                HAMI_CORE_ERROR,
                UCX_ERROR,
                UCX_ENDPOINT,
                VERBS_NO_PROVIDER,
                SSH_UNREACHABLE,
                SSH_CHECK,
                GLOO_LOOPBACK,
                GLOO_MESH,
                STORE_NAME,
                HOST_NOT_FOUND,
                LIBFABRIC_ERROR,
                EFA_REGISTER_MR,
                EFA_EQ,
                FI_GETINFO,
                FI_INFO,
                SOCKET_FAILED,
                SOCKET_TIMEOUT_FAILED,
                CLOSED_BY_PEER,
                CUDA_NOT_READY,
                XID,
                FALLEN_OFF_BUS,
                DEVICE_HANDLE,
                FABRIC_MANAGER,
                FABRIC_MANAGER_VERSION,
                IB_LINK_DOWN,
                PORT_MODULE,
                VERBS_QP_FAILED,
                CUDA_ERROR,
                KERNEL_ASSERT,
                CUDA_OOM,
                TORCH_CUDA_UNKNOWN,
                TORCH_CUDA_INIT,
                TORCH_NO_GPUS,
                TORCH_DEVICE_INDEX,
                PLACEMENT_GPUS,
                NO_DRIVER,
                NVML_INIT,
                SMI_NO_DRIVER,
                CONTAINER_CLI,
                EXIT_TABLE,
                CHILD_CODE,
                SPAWN_SIGNAL,
                PDSH_SSH,
                HOROVOD_SSH,
                HOROVOD_SSH_FAILED,
                HOROVOD_NICS,
                NODES_AVAILABLE,
                DEVICES_UNAVAILABLE,
                NODE_CONFIGURATION,
                NO_SLOTS,
                HYDRA_KILLED,
                HYDRA_EXIT,
                HYDRA_STRING,
                OOM_KILLED,
                EVICTED_MEMORY,
                BTL_TCP_PEER,
                BTL_TCP_ENDPOINT,
                STORE_VALIDATE,
                DUMP_OBSERVED,
                RAY_NODE_DIED,
                RAY_NODE_MARKED_DEAD,
                RAY_NODE_TERMINATED,
                RAY_RAYLET_DIED,
                JAX_HEARTBEAT,
                RAY_MEMORY_PRESSURE,
                RAY_KILLED_WORKER,
                VLLM_WORKER_DIED,
                RAY_UNSCHEDULABLE,
                RAY_DRIVER_NO_GPU,
                RAY_COLLECTIVE_MEET,
                JAX_BARRIER,
                WORLD_GROUP_UNSET,
                SGLANG_LOADING,
                SGLANG_UNBALANCED,
                XLA_RENDEZVOUS_LATE,
                JAX_NO_GPU,
                RAY_NODE_PREEMPTED,
                GLOO_PREAMBLE,
                HOROVOD_STORE_WAIT,
                PMIX_COLL,
                GLOO_OPERATION,
                VLLM_SHM_BROADCAST,
                SGLANG_WATCHDOG,
                XLA_OOM,
                TRTLLM_ENGINE_WORLD,
                TRTLLM_MPI_SIZE,
                TRTLLM_TP_SIZE,
                TRTLLM_TP_PP,
                HEADS_NOT_DIVISIBLE,
                WORLD_NOT_DIVISIBLE,
                JAX_UNEXPECTED_TASK,
                JAX_REGISTRATION,
                VLLM_NODE_NO_GPU,
                RAY_PG_TIMEOUT,
                VLLM_FREE_MEMORY,
                VLLM_NO_CACHE,
                SGLANG_NO_CACHE,
                VLLM_KV_TOO_SMALL,
                VLLM_KV_NEEDED),
            STACK_FRAMES.stream())
        .toList();
  }

  /** The filter's own needles, then the needles of NCCL's failure texts that hold none of them. */
  private static List<String> withFailureTexts(List<String> own) {
    // once per start, interpreted: each text's places are looked up by their first two characters
    // instead of 100 searches per text (400 texts): a few ms of every start
    Map<Integer, List<String>> byPair = new HashMap<>();
    List<String> tiny = new ArrayList<>();
    for (String n : own) {
      if (n.length() < 2) {
        tiny.add(n);
      } else {
        byPair.computeIfAbsent(pair(n, 0), k -> new ArrayList<>()).add(n);
      }
    }
    Set<String> theirs = new LinkedHashSet<>();
    for (NcclFailureTexts.Text t : NcclFailureTexts.ALL) {
      if (!holdsAny(t.literal(), byPair, tiny)) {
        theirs.add(t.needle());
      }
    }
    List<String> all = new ArrayList<>(own);
    all.addAll(theirs);
    return Collections.unmodifiableList(all);
  }

  private static int pair(String s, int at) {
    return s.charAt(at) << 16 | s.charAt(at + 1);
  }

  /** Whether {@code text} holds one of the needles, given by their first two characters. */
  private static boolean holdsAny(
      String text, Map<Integer, List<String>> byPair, List<String> tiny) {
    for (String n : tiny) {
      if (text.contains(n)) {
        return true;
      }
    }
    for (int i = 0; i + 1 < text.length(); i++) {
      List<String> candidates = byPair.get(pair(text, i));
      if (candidates != null) {
        for (String n : candidates) {
          if (text.startsWith(n, i)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Whether a line of a block holds one of some needles, asked line after line in order, with each
   * anchor searched at most about once over the block: the place of its next occurrence is kept,
   * and where it has none, how far the block is known to have none. Searches look ahead a window at
   * a time, so that a block whose lines rarely need asking is not read once per needle.
   *
   * <p>A needle is searched by an anchor, and its occurrences are those of the anchor where the
   * needle stands around it: a needle holding another of the needles is found at that one's
   * occurrences ({@code {'loss'} at {@code {}, {@code time (ms) |} at {@code time}), so the block is
   * read once for both; a needle holding one of {@link #RARE}'s characters is found at that
   * character, by the JDK's search for one character, which runs several times faster than a
   * search for a string whose first and last characters are common in logs (a pass of {@code %|} or
   * {@code Total } over a training job's lines cost about as much as four passes of {@code {}); a
   * needle with spaces at its ends is found at its other characters. Other needles are their own
   * anchors. Before all of these, a needle holding a character rare at the block's start (counted
   * on its first {@link #SAMPLE} bytes) is found at that character: which anchors are chosen
   * depends on the block, the answers never do.
   */
  static final class Finder {
    /** How far one search looks past the line asked about. */
    static final int WINDOW = 16 << 10;

    /**
     * Characters rare in logs, rarest first: a needle holding one is found at it. Each was counted
     * in this project's fixtures and examples and in the two 1 GiB bench shapes (docs/performance.md,
     * branch speedbytes): {@code {} 0.01-0.1, {@code %} 0.1-1.2 per 1000 bytes, against 7-33 for
     * letters, commas, {@code =} and {@code :}. Capital letters are left out: ISO timestamps put a
     * {@code T} in every line of some logs.
     */
    static final String RARE = "{%";

    private final String block;

    /** The strings searched on the block, each once. */
    private final String[] anchors;

    /** Per anchor, the needles found at it: their bits. */
    private final long[] bits;

    /** Per anchor, its needles' indexes, texts and places of the anchor in them. */
    private final int[][] needleOf;

    private final String[][] needleText;
    private final int[][] offset;

    /** Per anchor, whether its first needle is the anchor itself (no check needed). */
    private final boolean[] exact;

    /** Per anchor, whether it is the one needle found at it (its occurrence answers). */
    private final boolean[] single;

    /** The next known occurrence of each anchor, or -1. */
    private final int[] found;

    /** No occurrence of the anchor starts before this, except {@link #found}. */
    private final int[] searched;

    Finder(String block, List<String> needles) {
      this.block = block;
      List<String> anchorList = new java.util.ArrayList<>();
      List<List<Integer>> of = new java.util.ArrayList<>();
      Sample sample = sample(block);
      String ownCharacters = ownCharacters(needles);
      for (int i = 0; i < needles.size(); i++) {
        String a = anchor(needles.get(i), needles, ownCharacters, sample);
        int k = anchorList.indexOf(a);
        if (k < 0) {
          anchorList.add(a);
          of.add(new java.util.ArrayList<>());
          k = anchorList.size() - 1;
        }
        of.get(k).add(i);
      }
      int n = anchorList.size();
      anchors = anchorList.toArray(String[]::new);
      bits = new long[n];
      needleOf = new int[n][];
      needleText = new String[n][];
      offset = new int[n][];
      exact = new boolean[n];
      single = new boolean[n];
      // plain loops, no streams: a finder is made per block that asks (a verbose NCCL log's
      // blocks ask for one line each), and its streams were most of that (eleventh pass)
      for (int k = 0; k < n; k++) {
        List<Integer> idx = of.get(k);
        String a = anchors[k];
        int m = idx.size();
        needleOf[k] = new int[m];
        needleText[k] = new String[m];
        offset[k] = new int[m];
        // the anchor's own needle first (the order of a stable sort by that): its first
        // occurrence answers for it without a check
        int d = 0;
        for (int own = 1; own >= 0; own--) {
          for (int i : idx) {
            String text = needles.get(i);
            if (text.equals(a) == (own == 1)) {
              needleOf[k][d] = i;
              needleText[k][d] = text;
              offset[k][d] = text.indexOf(a);
              bits[k] |= 1L << i;
              d++;
            }
          }
        }
        exact[k] = needleText[k][0].equals(a);
        single[k] = exact[k] && m == 1;
      }
      found = new int[n];
      searched = new int[n];
      Arrays.fill(found, -1);
    }

    /**
     * How many bytes at a block's start are counted to tell which characters are rare in it (a
     * sixty-fourth of a 256 KiB slice).
     */
    static final int SAMPLE = 4 << 10;

    /**
     * A character seen at most once in this many bytes of the sample is searched for on its own:
     * the JDK's search for one character runs about four times faster than its search for a string
     * (35 against 9 GB/s on this project's machine, docs/performance.md, tenth pass), and each
     * occurrence then costs a check; at one occurrence in 512 bytes the two cost about the same.
     */
    static final int RARE_IN_SAMPLE = 512;

    /**
     * How many times each Latin-1 character occurs in a block's first {@link #SAMPLE} bytes, and in
     * how many bytes.
     */
    record Sample(int[] counts, int length) {
      /** Whether {@code c} was seen at most once in {@link #RARE_IN_SAMPLE} bytes. */
      boolean rare(char c) {
        return c < counts.length && counts[c] <= length / RARE_IN_SAMPLE;
      }
    }

    static Sample sample(String block) {
      int[] counts = new int[256];
      int n = Math.min(block.length(), SAMPLE);
      for (int i = 0; i < n; i++) {
        counts[block.charAt(i) & 0xff]++;
      }
      return new Sample(counts, n);
    }

    /**
     * What {@code needle} is searched by in a block whose start counted {@code sample}: its
     * character rarest there when that one is rare ({@link #RARE_IN_SAMPLE}; among equally rare
     * ones a needle of its own, such as {@code {} for {@code {'loss'}, then the one earliest in
     * {@link #RARE}, then the earliest in the needle), else what {@link #anchor(String, List)} names.
     * Over a training job's lines this searches {@code Total}, {@code local batch size}, {@code ,
     * skipped=} and {@code time (ms) |} by {@code T}, {@code z}, {@code k} and {@code (}: four
     * searches for a string fewer per block. Only the speed depends on the sample, never the answer.
     */
    static String anchor(String needle, List<String> needles, Sample sample) {
      return anchor(needle, needles, ownCharacters(needles), sample);
    }

    /** The needles that are one character, as one string. */
    private static String ownCharacters(List<String> needles) {
      StringBuilder own = new StringBuilder();
      for (String n : needles) {
        if (n.length() == 1) {
          own.append(n);
        }
      }
      return own.toString();
    }

    /**
     * {@link #anchor(String, List, Sample)} given the needles of one character ({@code own}): asked
     * for every needle of every block that asks, so not searched in the list for each character.
     */
    private static String anchor(String needle, List<String> needles, String own, Sample sample) {
      char best = 0;
      int bestRank = Integer.MAX_VALUE;
      for (int i = 0; i < needle.length(); i++) {
        char c = needle.charAt(i);
        if (c == ' ' || !sample.rare(c)) {
          continue;
        }
        int count = sample.counts()[c];
        // rarer first; then a needle of its own (its pass is shared), then RARE's order
        int rare = RARE.indexOf(c);
        int rank = count * 8 + (own.indexOf(c) >= 0 ? 0 : 4) + (rare < 0 ? 3 : Math.min(rare, 3));
        if (rank < bestRank) {
          best = c;
          bestRank = rank;
        }
      }
      return bestRank == Integer.MAX_VALUE ? anchor(needle, needles) : String.valueOf(best);
    }

    /**
     * What {@code needle} is searched by where no character of it is known to be rare: another of
     * the needles it holds (the shortest, itself anchored by nothing else), else its rarest {@link
     * #RARE} character, else itself without the spaces at its ends.
     */
    static String anchor(String needle, List<String> needles) {
      String inner = null;
      for (String other : needles) {
        if (other.length() < needle.length()
            && needle.contains(other)
            && (inner == null || other.length() < inner.length())) {
          inner = other;
        }
      }
      if (inner != null) {
        return anchor(inner, needles);
      }
      for (int r = 0; r < RARE.length(); r++) {
        if (needle.indexOf(RARE.charAt(r)) >= 0) {
          return String.valueOf(RARE.charAt(r));
        }
      }
      // spaces at its ends left to the check ({@code Total} for {@code "Total "}): the JDK's
      // search compares first and last characters at once, and spaces match at every word
      String core = needle.strip();
      return core.isEmpty() || !needle.contains(core) ? needle : core;
    }

    /** Whether a needle occurs in {@code [start, end)}; lines must be asked about in order. */
    boolean any(int start, int end) {
      return which(start, end) != 0;
    }

    /**
     * Which needles occur in {@code [start, end)}: bit i for the i-th (at most 64 needles); lines
     * must be asked about in order.
     */
    long which(int start, int end) {
      return which(start, end, block.length());
    }

    /**
     * {@link #which(int, int)}, each search looking ahead no further than {@code until} (but always
     * to the line's end): where the caller knows the lines that ask end, as {@code BlockParser}
     * knows where the block's next NCCL line starts. Only the speed depends on it, never the
     * answer: a block of NCCL's lines asks about one line in thousands, and each such line searched
     * a window of the NCCL lines after it for every anchor (docs/performance.md, eleventh pass).
     */
    long which(int start, int end, int until) {
      long holds = 0;
      for (int k = 0; k < anchors.length; k++) {
        int at = found[k];
        if (at < start) {
          if (searched[k] >= end) {
            continue;
          }
          at = search(k, start, end, until);
        }
        if (at >= 0 && at < end) {
          holds |= single[k] ? bits[k] : checked(k, at, start, end, until);
        }
      }
      return holds;
    }

    /** The needles of anchor k in {@code [start, end)}, given its first occurrence there. */
    private long checked(int k, int at, int start, int end, int until) {
      long all = bits[k];
      long got = 0;
      int[] off = offset[k];
      String[] text = needleText[k];
      int[] of = needleOf[k];
      int first = 0;
      if (exact[k]) {
        got = 1L << of[0];
        first = 1;
      }
      while (got != all && at >= 0 && at < end) {
        for (int d = first; d < of.length; d++) {
          long bit = 1L << of[d];
          int q = at - off[d];
          if ((got & bit) == 0 && q >= start && block.startsWith(text[d], q)) {
            got |= bit;
          }
        }
        if (got != all) {
          at = found[k] > at ? found[k] : search(k, at + 1, end, until);
        }
      }
      return got;
    }

    /**
     * The first occurrence of anchor k at or after {@code from}, or -1, searching a window past the
     * line ({@code end}), no further than {@code until} beyond it; kept as the anchor's next known
     * occurrence.
     */
    private int search(int k, int from, int end, int until) {
      int to = Math.min(block.length(), Math.max(end, Math.min(from + WINDOW, until)));
      int at = block.indexOf(anchors[k], Math.max(from, searched[k]), to);
      found[k] = at;
      searched[k] = at >= 0 ? at + 1 : to - anchors[k].length() + 1;
      return at;
    }
  }
}
