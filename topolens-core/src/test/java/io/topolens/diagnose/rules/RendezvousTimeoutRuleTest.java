package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PyTorch's TCPStore rendezvous that timed out, from the server's and from a client's side, and a
 * rank that waited in the store for rank 0's NCCL unique id.
 */
class RendezvousTimeoutRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "Slurm's PMIx fence that timed out (slurmstepd's mpi/pmix_v3 format,"
                    + " pmixp_coll_ring.c)",
                """
                slurmstepd: error:  mpi/pmix_v3: pmixp_coll_ring_reset_if_to: n1 [0]: pmixp_coll_ring.c:742: 0x151a9c0 collective timeout seq=0
                """)
            .expect(
                error(
                        "Slurm's PMIx startup fence",
                        "PMIXP_TIMEOUT",
                        "srun --mpi=pmix_v3 -N2 hostname")
                    .at("a.log:1")),
        given(
            "the plugin's other complaints about a collective are not a timeout"
                + " (https://github.com/pmodels/mpich/issues/7957)",
            """
            [2026-09-10T10:08:16.944] error:  mpi/pmix_v4: pmixp_coll_ring_check: c110-013 [0]: pmixp_coll_ring.c:613: 0x4004b4008840: unexpected contrib from c110-014:1, expected is 0
            """),
        given(
                "JAX 0.5's registration barrier on 32 nodes"
                    + " (https://github.com/AI-Hypercomputer/gpu-recipes/issues/2)",
                """
                Stopping coordination service as cluster registration failed. This may be due to 1) some tasks crashed earlier before connecting, 2) some tasks were never scheduled, or 3) scheduling delays. Consider setting a longer initialization timeout if such delays are expected, the timeout is currently set to: 1h.

                Original error: DEADLINE_EXCEEDED: Barrier timed out. Id: [Init]Wait_for_all_tasks_to_register::0. This usually happens because a task triggered the barrier too early or too slowly. Please look at the task logs (both timed out and first task) to debug further.
                """)
            .expect(error("Wait_for_all_tasks_to_register").at("a.log:1", "a.log:3")),
        given(
                "Horovod's Gloo rendezvous at 50 nodes (https://github.com/horovod/horovod/issues/2015)",
                """
                [2020-06-09T20:10:40Z] cf108822 [RUNNING] ||  Tue Jun  9 20:10:40 2020[1]<stderr>:terminate called after throwing an instance of 'gloo::IoException'
                [2020-06-09T20:10:40Z] cf108822 [RUNNING] ||  Tue Jun  9 20:10:40 2020[1]<stderr>:  what():  [horovod/common/gloo/http_store.cc:53] [horovod/common/gloo/http_store.cc:53] Wait timeout for key(s): 0
                """)
            .expect(error("HOROVOD_GLOO_TIMEOUT_SECONDS").at("a.log:2")),
        given(
                "jax.distributed.initialize's connect barrier"
                    + " (https://github.com/ayaka14732/llama-2-jax/issues/20)",
                """
                jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect. Timed out task names:
                /job:jax_worker/replica:0/task:1
                """)
            .expect(error("coordinator_address").at("a.log:1")),
        given(
                "Ray's collective group (nccl_collective_group.py's Rendezvous.meet)",
                """
                RuntimeError: Unable to meet other processes at the rendezvous store. If you are using P2P communication, please check if tensors are put in the correct GPU.
                """)
            .expect(error("create_collective_group").at("a.log:1")),
        given(
                "the store's count of clients that joined, a title"
                    + " (https://github.com/OpenRLHF/OpenRLHF/issues/1040)",
                """
                torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/3 clients joined.
                """)
            .expect(
                error("Ranks never met at the rendezvous (TCPStore timed out)", "MASTER_PORT")
                    .at("a.log:1")),
        given(
                "a client that never reached the store, c10d's logger and TCPStore's retry"
                    + " (https://github.com/lzhxmu/CPPO/issues/6)",
                """
                [E521 15:43:02.707733876 socket.cpp:1023] [c10d] The client socket has timed out after 600000ms while trying to connect to (172.18.21.4, 37907).
                [E521 15:43:02.707888867 TCPStore.cpp:318] [c10d] TCP client failed to connect/validate to host 172.18.21.4:37907 - timed out (try=1, timeout=600000ms): The client socket has timed out after 600000ms while trying to connect to (172.18.21.4, 37907).
                Exception raised from throwTimeoutError at /pytorch/torch/csrc/distributed/c10d/socket.cpp:1025 (most recent call first):
                """)
            .expect(error("2 line(s) of 2 distinct form(s)").at("a.log:1", "a.log:2")),
        given(
                "Windows, torchrun on one GPU (https://github.com/meta-llama/llama/issues/617)",
                """
                NOTE: Redirects are currently not supported in Windows or MacOs.
                [E ..\\torch\\csrc\\distributed\\c10d\\socket.cpp:860] [c10d] The client socket has timed out after 900s while trying to connect to (127.0.0.1, 29500).
                """)
            .expect(
                error(
                        "1 line(s) of 1 distinct form(s)",
                        "The store the ranks tried: 127.0.0.1:29500",
                        "127.0.0.1 is a loopback address",
                        "wrong for a multi-node job")
                    .at("a.log:2")),
        given(
                "a client whose connect to the store timed out (errno 110), torch 2.x's retry alone: a"
                    + " warning"
                    + " (https://github.com/vllm-project/vllm/issues/3771)",
                """
                [W socket.cpp:663] [c10d] The client socket has failed to connect to [::ffff:172.16.8.232]:39623 (errno: 110 - Connection timed out)
                """)
            .expect(
                warn(
                        "A rank could not connect to the rendezvous store (MASTER_ADDR:MASTER_PORT)",
                        "The store the ranks tried: 172.16.8.232:39623",
                        "errno 110",
                        "NODE_RANK",
                        "nc -zv MASTER_ADDR MASTER_PORT",
                        "c10d retries these connects until its timeout")
                    .lacks(" is not a host address", "loopback", "link-local")
                    .at("a.log:1")),
        given(
                "a store address in the benchmark range a proxy's fake-IP DNS hands out"
                    + " (https://github.com/gensyn-ai/rl-swarm/issues/197)",
                """
                [W427 01:04:16.149509694 socket.cpp:752] [c10d] The client socket has failed to connect to [::ffff:198.18.0.1]:3254 (errno: 110 - Connection timed out).
                """)
            .expect(
                error("198.18.0.1:3254", "198.18.0.1 lies in 198.18.0.0/15", "through a proxy")
                    .at("a.log:1")),
        given(
                "a retry to localhost on one node: a warning that names loopback (the vllm row's"
                    + " line with localhost)",
                """
                [W socket.cpp:663] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 110 - Connection timed out)
                """)
            .expect(
                warn("localhost is a loopback address", "wrong for a multi-node job")
                    .at("a.log:1")),
        given(
                "the same retry where NCCL shows two nodes: an error",
                """
                [W socket.cpp:663] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 110 - Connection timed out)
                """,
                Logs.rankOfTwo(0, "node-a", 2, "NET/Socket/0"))
            .expect(error("this job spans nodes").at("a.log:1")),
        given(
                "MASTER_ADDR a bare number: 6841231 read as 0.104.99.143, torch 2.x"
                    + " (https://github.com/hpcaitech/Open-Sora/issues/667)",
                """
                [W socket.cpp:697] [c10d] The client socket has failed to connect to [::ffff:0.104.99.143]:47389 (errno: 110 - Connection timed out).
                [W socket.cpp:697] [c10d] The client socket has failed to connect to [::ffff:0.104.99.143]:47389 (errno: 110 - Connection timed out).
                [W socket.cpp:697] [c10d] The client socket has failed to connect to 0.104.99.143:47389 (errno: 110 - Connection timed out).
                [E socket.cpp:753] [c10d] The client socket has failed to connect to any network address of (6841231, 47389).
                """)
            .expect(
                error(
                        "A rank could not connect to the rendezvous store",
                        "The store the ranks tried: 0.104.99.143:47389, 6841231:47389",
                        "0.104.99.143 is not a host address",
                        "6841231 is a bare number")
                    .at("a.log:1", "a.log:3", "a.log:4")),
        given(
                "a host name without brackets (IPv4), torch 1.13"
                    + " (https://github.com/hpcaitech/ColossalAI-Examples/issues/207)",
                """
                 The client socket has failed to connect to any network address of (hcp-bb-03, 52873). The client socket has failed to connect to hcp-bb-03:52873 (errno: 110 - Connection timed out)
                """)
            .expect(
                error("The store the ranks tried: hcp-bb-03:52873 (")
                    .lacks("is not a host", "bare number")
                    .at("a.log:1")),
        given(
                "the master refused the connection (errno 111) and nothing else: a warning, the"
                    + " store may not have listened yet (a line of torch 2.0's form, address of the"
                    + " vllm row)",
                """
                [W socket.cpp:663] [c10d] The client socket has failed to connect to [::ffff:172.16.8.232]:39623 (errno: 111 - Connection refused).
                """)
            .expect(warn("172.16.8.232:39623", "Connection refused").at("a.log:1")),
        given(
            "c10d skipping localhost's IPv6 address (errno 99) is no failure: the next address"
                + " works (https://github.com/pytorch/PiPPy/issues/158)",
            """
            [W socket.cpp:558] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address).
            """),
        given(
                "the store's socket timeout alone, as DistStoreError"
                    + " (https://github.com/alibaba/Pai-Megatron-Patch/issues/468)",
                """
                torch.distributed.DistStoreError: Socket Timeout
                """)
            .expect(
                error("Ranks never met at the rendezvous", "NODE_RANK", "renamed between versions")
                    .at("a.log:1")),
        given(
                "a store wait that ran out, torch 2.5"
                    + " (https://github.com/vllm-project/vllm/issues/12526)",
                """
                [rank0]: torch.distributed.DistStoreError: wait timeout after 600000ms, keys: /default_pg/0//cuda//0
                """)
            .expect(error("Ranks never met at the rendezvous").at("a.log:1")),
        given(
                "PyTorch 1.x's bare store timeout (https://github.com/pytorch/pytorch/issues/85621)",
                """
                    pg = ProcessGroupGloo(prefix_store, rank, world_size, timeout=timeout)
                RuntimeError: Socket Timeout
                """)
            .expect(error("Ranks never met at the rendezvous").at("a.log:2")),
        given(
                "the store-based barrier of torch 1.8-2.0 timed out, 4 of 8 joined"
                    + " (https://github.com/deepspeedai/Megatron-DeepSpeed/issues/338)",
                """
                RuntimeError: Timed out initializing process group in store based barrier on rank: 7, for key: store_based_barrier_key:32 (world_size=8, worker_count=4, timeout=0:00:30)
                    _store_based_barrier(global_rank, default_store, timeout)
                """)
            .expect(error("Ranks never met at the rendezvous").at("a.log:1")),
        given(
            "waiting in the store-based barrier is progress, not a failure"
                + " (https://github.com/huggingface/accelerate/issues/1401)",
            """
            05/10/2023 23:07:45 - INFO - torch.distributed.distributed_c10d - Waiting in store based barrier to initialize process group for rank: 0, key: store_based_barrier_key:2 (world_size=8, worker_count=1, timeout=0:30:00)
            """),
        given(
                "torchrun's elastic rendezvous that timed out, as its error handler prints it"
                    + " (https://github.com/facebookresearch/av_hubert/issues/19)",
                """
                ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{
                  "message": {
                    "message": "RendezvousTimeoutError: ",
                """)
            .expect(error("Ranks never met at the rendezvous").at("a.log:3")),
        given(
                "torchrun's agent could not reach the c10d store"
                    + " (https://github.com/pytorch/pytorch/issues/64926)",
                """
                    "message": "RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.",
                """)
            .expect(error("Ranks never met at the rendezvous").at("a.log:1")),
        given(
            "torchrun's agent starting its workers is no failure"
                + " (https://github.com/pytorch/pytorch/issues/147064)",
            """
            I0213 12:07:20.087000 870572 torch/distributed/elastic/agent/server/api.py:677] [default] Rendezvous'ing worker group
            """),
        given(
                "a rank waiting for rank 0's ncclUniqueId in the store, a pytest log"
                    + " (https://github.com/InternLM/InternEvo/issues/285)",
                """
                  E       RuntimeError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout
                  E       Exception raised from doWait at ../torch/csrc/distributed/c10d/TCPStore.cpp:445 (most recent call first):
                """)
            .expect(error("retrieving ncclUniqueId", "rank 0's log").at("a.log:1")),
        given(
                "the same wait before PyTorch 2.1 ('retreiving'), a title"
                    + " (https://github.com/zai-org/ChatGLM-6B/issues/1232)",
                """
                [BUG/Help] <title> RuntimeError: [1] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "torch 2.2's form of the same retry, a redacted address: a warning"
                    + " (https://github.com/ModelTC/LightCompress/issues/365)",
                """
                [W416 15:37:25.363094293 socket.cpp:933] [c10d] The server socket on [::ffff:36.xxx.xxx.13]:40613 has timed out, will retry.
                """)
            .expect(
                warn(
                        "A rank could not connect to the rendezvous store",
                        "From torch 2.2 on",
                        "The store the ranks tried: 36.xxx.xxx.13:40613",
                        "c10d retries these connects")
                    .at("a.log:1")),
        given(
                "TCPStore before torch 1.10 could not resolve MASTER_ADDR, the traceback's last line"
                    + " (https://github.com/pytorch/examples/issues/540)",
                """
                store = TCPStore(master_addr, master_port, world_size, start_daemon)
                ValueError: host not found: Name or service not known
                """)
            .expect(
                error(
                        "The rendezvous store's host name does not resolve (MASTER_ADDR)",
                        "did not resolve",
                        "Service and its DNS record",
                        "getent hosts MASTER_ADDR",
                        "pytorch-operator PR #145")
                    .at("a.log:2")),
        given(
                "the same with the DNS server not answering, under torchelastic on two g4dn"
                    + " (https://github.com/pytorch/pytorch/issues/64990)",
                """
                    store = TCPStore(master_addr, master_port, world_size, start_daemon, timeout)
                ValueError: host not found: Temporary failure in name resolution
                [ERROR] 2021-09-14 14:02:56,862 api: failed (exitcode: 1) local_rank: 0 (pid: 28436) of binary: /usr/bin/python3
                """)
            .expect(
                error("host name does not resolve", "Temporary failure in name resolution")
                    .at("a.log:2")),
        given(
                "c10d's per-try lookup of a --standalone run's own host name, missing from"
                    + " /etc/hosts: a retry, a warning (https://github.com/nyu-systems/Grendel-GS/issues/9)",
                """
                [W socket.cpp:601] [c10d] The IPv6 network addresses of (user, 53821) cannot be retrieved (gai error: -3 - Temporary failure in name resolution).
                """)
            .expect(
                warn(
                        "The rendezvous store's host name does not resolve (MASTER_ADDR)",
                        "The store the ranks tried: user:53821",
                        "/etc/hosts")
                    .at("a.log:1")),
        given(
                "macOS's words for the same (https://github.com/karpathy/nanochat/issues/42)",
                """
                [W1014 16:41:26.522544000 socket.cpp:755] [c10d] The IPv6 network addresses of (Os-MacBook-Air.local, 59319) cannot be retrieved (gai error: 8 - nodename nor servname provided, or not known).
                """)
            .expect(warn("host name does not resolve", "os-macbook-air.local:59319").at("a.log:1")),
        given(
            "c10d's reverse lookup of a peer that connected is harmless, no finding"
                + " (https://github.com/pytorch/pytorch/issues/154102)",
            """
            [W522 06:29:34.248915854 socket.cpp:204] [c10d] The hostname of the client socket cannot be retrieved. err=-3
            """),
        given(
            "Python's own resolver failing in a framework's helper is not the store's"
                + " (https://github.com/vllm-project/vllm/issues/2407)",
            """
            Getting error `socket.gaierror: [Errno -2] Name or service not known` from `get_ip()` function in utils.py
            """),
        given(
            "the server socket listening is no failure (c10d's INFO of torch/csrc/distributed/c10d/socket.cpp)",
            """
            [I socket.cpp:509] [c10d] The server socket has started to listen on [::]:29500.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new RendezvousTimeout(), "rendezvous-timeout", c);
  }
}
