package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ShmExhaustedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "NCCL 2.18 cannot extend its /dev/shm segments on two GPUs",
                """
                ubuntu:9621:9691 [6] misc/shmutils.cc:71 NCCL WARN Error: failed to extend /dev/shm/nccl-fjwOOB to 5967876 bytes
                ubuntu:9621:9691 [6] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-fjwOOB (size 5967872)
                ubuntu:9621:9691 [6] NCCL INFO transport/shm.cc:114 -> 2
                ubuntu:9621:9689 [4] misc/shmutils.cc:71 NCCL WARN Error: failed to extend /dev/shm/nccl-oA7T4J to 5967876 bytes
                ubuntu:9621:9689 [4] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-oA7T4J (size 5967872)
                """)
            .expect(
                error(
                        "/dev/shm is too small for NCCL",
                        "4 warning line(s) say NCCL could not create or extend its shared-memory segments",
                        "sizeLimit")
                    .at("a.log:1", "a.log:2", "a.log:4", "a.log:5")),
        given(
                "posix_fallocate fails on two ranks: one form, two lines",
                """
                gpu2-ru7:2143:2143 [1] NCCL INFO Ring 00 : 2[3d000] -> 3[3e000] via direct shared memory
                gpu2-ru7:2143:2561 [1] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device
                gpu2-ru7:2144:2570 [2] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device
                """)
            .expect(error("2 warning line(s)").at("a.log:2")),
        given(
                "NCCL's own timestamp before the WARN header",
                """
                host-1:202016:202016 [0] NCCL INFO NCCL version 2.28.9+cuda13.0
                [2026-04-22 21:34:20] host-1:202016:202235 [0] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-WU88OE to 9637892 bytes, error: No space left on device (28)
                """)
            .expect(error("1 warning line(s)").at("a.log:2")),
        given(
                "shm_open refused: the permissions, not the size (https://github.com/NVIDIA/nccl/issues/328)",
                """
                node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied
                node08:27106:27302 [0] NCCL INFO include/shm.h:41 -> 2
                node08:27106:27302 [0] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-b7948f403864987a-0-3-0 (size 4460544)
                """)
            .expect(
                error("NCCL may not create files in /dev/shm", "chmod 1777")
                    .lacks("sizeLimit")
                    .at("a.log:1", "a.log:3")),
        given(
                "a peer's segment gone under 2.23 (https://github.com/NVIDIA/nccl/issues/1589)",
                """
                g148:14937:69361 [0] misc/shmutils.cc:93 NCCL WARN Call to open failed: No such file or directory

                g148:14937:69361 [0] misc/shmutils.cc:129 NCCL WARN Error while attaching to shared memory segment /dev/shm/nccl-glnlGK (size 14156128), error: No such file or directory (2)
                """)
            .expect(
                error("A peer's shared-memory segment is missing", "RemoveIPC=no")
                    .lacks("NCCL_CUMEM_HOST_ENABLE=0", "sizeLimit")
                    .at("a.log:1", "a.log:3")),
        given(
                "size 0 after a garbled name: the peer used cuMem host memory"
                    + " (https://github.com/NVIDIA/nccl/pull/2059)",
                """
                [rank1]: Error while attaching to shared memory segment /dev/shm/nccl-Ќ (size 0), error: No such file or directory (2)
                """)
            .expect(
                error("A peer's shared-memory segment is missing", "NCCL_CUMEM_HOST_ENABLE=0")
                    .lacks("RemoveIPC")
                    .at("a.log:1")),
        given(
            "a CUDA failure in shm.h is not /dev/shm running out",
            """
            ip-172-31-44-237:52617:53046 [4] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'
            """),
        given(
            "SHM transport without warnings",
            rankOfTwo(0, "vm", 1, "SHM/direct/direct"),
            rankOfTwo(1, "vm", 1, "SHM/direct/direct")),
        given(
                "UCX's SIGBUS report between NCCL's lines, 8 GPUs in a container"
                    + " (https://github.com/deepspeedai/DeepSpeed/issues/2638)",
                """
                cf0b62962198:378934:382525 [2] NCCL INFO 24 coll channels, 32 p2p channels, 32 p2p channels per peer
                [cf0b62962198:378934:0:382579] Caught signal 7 (Bus error: nonexistent physical address)
                cf0b62962198:378935:382528 [3] NCCL INFO Connected all trees
                [cf0b62962198:378938:0:382583] Caught signal 7 (Bus error: nonexistent physical address)
                """)
            .expect(
                error("A process died of a bus error: /dev/shm is too small", "--shm-size=16g")
                    .at("a.log:2")),
        given(
                "PyTorch DataLoader's bus error, fixed by --ipc=host"
                    + " (https://github.com/microsoft/RepPoints/issues/18)",
                """
                ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).
                """)
            .expect(error("1 line(s) say a process was killed by SIGBUS").at("a.log:1")),
        given(
                "an MPI launcher's signal line, a title (https://github.com/NVIDIA/nccl/issues/983)",
                """
                call ncclCommInitRank got Signal: Bus error (7)
                """)
            .expect(error("A process died of a bus error").at("a.log:1")),
        given(
                "torchrun's agent and ChildFailedError on SIGBUS (exit code -7)"
                    + " (https://github.com/Topdu/OpenOCR/issues/71,"
                    + " https://github.com/OFA-Sys/Chinese-CLIP/issues/357)",
                """
                ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -7) local_rank: 0 (pid: 1173017) of binary: /home/ma-user/anaconda3/envs/PyTorch-1.11.0/bin/python3
                  exitcode  : -7 (pid: 467398)
                  error_file: <N/A>
                  traceback : Signal 7 (SIGBUS) received by PID 467398
                """)
            .expect(
                error("A process died of a bus error: /dev/shm is too small", "sizeLimit")
                    .at("a.log:1", "a.log:2", "a.log:4")),
        given(
            "exit codes that only start with 7 are other signals' or the program's",
            """
            ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -70) local_rank: 0 (pid: 1173017) of binary: /usr/bin/python3
            [ERROR] [launch.py:434:sigkill_handler] ['/usr/bin/python3', '-u', 'main.py'] exits with return code = 7
            """),
        given(
                "NCCL's segment error beside the docker run that kept the default /dev/shm"
                    + " (https://github.com/fal-ai-community/video-diffusion-speedrun/issues/2)",
                """
                Error while creating shared memory segment /dev/shm/nccl-pZafXL (size 7340384)
                docker run --gpus all --rm -it video-diffusion /bin/bash
                """)
            .expect(error("/dev/shm is too small for NCCL", "--shm-size").at("a.log:1", "a.log:2")),
        given(
                "ENOSPC without a path beside a docker run without --shm-size or --ipc=host"
                    + " (https://github.com/NVIDIA/Megatron-LM/issues/878)",
                """
                OSError: [Errno 28] No space left on device
                docker run -it --name zhaomegatron -v /jfs/yuzhe.zhao:/home/zyz --gpus all nvcr.io/nvidia/pytorch:23.09-py3
                """)
            .expect(
                error(
                        "/dev/shm of the container is too small (No space left on device)",
                        "without --shm-size or --ipc=host (line 2)",
                        "A full disk gives the same words")
                    .at("a.log:1", "a.log:2")),
        given(
                "NCCL's system error without its text in such a container: likely, a warning"
                    + " (two threads put together: https://github.com/NVIDIA/Megatron-LM/issues/71,"
                    + " https://github.com/NVIDIA/Megatron-LM/issues/878)",
                """
                RuntimeError: NCCL error in: ../torch/lib/c10d/ProcessGroupNCCL.cpp:839, unhandled system error, NCCL version 2.8.3
                docker run -it --name zhaomegatron -v /jfs/yuzhe.zhao:/home/zyz --gpus all nvcr.io/nvidia/pytorch:23.09-py3
                """)
            .expect(
                warn(
                        "NCCL's system error in a container with Docker's default /dev/shm",
                        "likeliest cause here",
                        "not a certain one")
                    .at("a.log:1", "a.log:2")),
        given(
            "ENOSPC beside a docker run that sized /dev/shm: a disk, not /dev/shm"
                + " (https://github.com/fal-ai-community/video-diffusion-speedrun/issues/2)",
            """
            OSError: [Errno 28] No space left on device
            docker run --gpus all --rm --shm-size=1g -it video-diffusion /bin/bash
            """),
        given(
            "ENOSPC with no container in sight (https://github.com/NVIDIA/Megatron-LM/issues/878)",
            """
            OSError: [Errno 28] No space left on device
            """),
        given(
            "an InfiniBand warning",
            """
            node-a:7240:7401 [0] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new ShmExhausted(), "shm-exhausted", c);
  }
}
