package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Sources of every excerpt: nccl/failures/README.md, rows KnownNcclBugRuleTest. */
class KnownNcclBugRuleTest {

  /** The WSL2 host of nccl-tests issue 170 (Windows' own computer name). */
  static final String WSL_HOST =
      "DESKTOP-VMBL43V:8347:8347 [0] NCCL INFO Bootstrap : Using eth0:172.23.125.43<0>\n";

  /** PyTorch's unhandled cuda error with CUDA's invalid argument (nccl issue 1410). */
  static final String INVALID_ARGUMENT =
      """
      [rank7]: ncclUnhandledCudaError: Call to CUDA function failed.
      [rank7]: Last error:
      [rank7]: Cuda failure 1 'invalid argument'
      """;

  /** vLLM issue 3688: NCCL 2.18.1's failure through Ray's prefix (set 17's n06). */
  static final String VLLM_3688 =
      """
      (RayWorkerVllm pid=4028887) ERROR 03-28 21:38:23 ray_utils.py:44] torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1
      (RayWorkerVllm pid=4028887) ERROR 03-28 21:38:23 ray_utils.py:44] ncclUnhandledCudaError: Call to CUDA function failed.
      (RayWorkerVllm pid=4028887) ERROR 03-28 21:38:23 ray_utils.py:44] Last error:
      (RayWorkerVllm pid=4028887) ERROR 03-28 21:38:23 ray_utils.py:44] Cuda failure 'invalid argument'
      """;

  /** nccl issue 1410's whole error: the same symptom with NCCL 2.20.5, after the 2.18 fix. */
  static final String NCCL_1410 =
      """
      [rank7]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
      """
          + INVALID_ARGUMENT;

  /** nccl issue 1382's accept failure (misc/socket.cc:415), another errno than EINTR. */
  static final String BAD_DESCRIPTOR =
      "user-G493-ZB1-AAP1-000:275204:275658 [4] misc/socket.cc:415 NCCL WARN socketTryAccept:"
          + " Accept failed: Bad file descriptor\n";

  /** The same line with EINTR's text, the failure of nccl issue 1757. */
  static final String INTERRUPTED =
      "user-G493-ZB1-AAP1-000:275204:275658 [4] misc/socket.cc:415 NCCL WARN socketTryAccept:"
          + " Accept failed: Interrupted system call\n";

  /** py-spy's stack of a rank stalled in the launch path (nccl issue 1251, verbatim). */
  static final String FIFO_STACK =
      """
      sched_yield (libc.so.6)
      waitWorkFifoAvailable (enqueue.cc:745)
      uploadWork (enqueue.cc:777)
      ncclLaunchKernelBefore_NoUncapturedCuda (enqueue.cc:1008)
      doLaunches (group.cc:172)
      groupLaunch (group.cc:342)
      ncclGroupEndInternal (group.cc:423)
      ncclGroupEndInternal (group.cc:378)
      ncclGroupEnd (group.cc:106)
      """;

  /** A watchdog timeout (OFA issue 271, PyTorch 1.x form). */
  static final String TIMEOUT =
      "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout:"
          + " WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802212"
          + " milliseconds before timing out.\n";

  /** nccl-tests issue 291's device and version lines (an RTX 5090, NCCL 2.25.1). */
  static final String RTX_5090 =
      """
      #  Rank  0 Group  0 Pid  12225 on node device  0 [0000:16:00] NVIDIA GeForce RTX 5090
      node:12225:12225 [0] NCCL INFO NCCL version 2.25.1+cuda12.4
      """;

  /** PyTorch issue 147575's error (NCCL 2.25.1, CUDA's invalid argument). */
  static final String PYTORCH_147575 =
      """
      [rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3384, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.25.1
      [rank0]: ncclUnhandledCudaError: Call to CUDA function failed.
      [rank0]: Last error:
      [rank0]: Cuda failure 1 'invalid argument'
      """;

  /** CollNet asked for, NCCL 2.10.3, and vLLM issue 19890's illegal address from enqueue.cc. */
  static final String COLLNET =
      """
      node1:10:10 [0] NCCL INFO NCCL_COLLNET_ENABLE set by environment to 1.
      node1:10:10 [0] NCCL INFO NCCL version 2.10.3+cuda11.4
      node1:10:20 [0] enqueue.cc:1556 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'
      """;

  /** nccl-tests issue 287's version line and kernel-launch failure (NCCL 2.25.1, two RTX 5090s). */
  static final String LAUNCH_2_25_1 =
      """
      GENOA-06:4766:4766 [0] NCCL INFO NCCL version 2.25.1+cuda12.8
      GENOA-06:4766:4766 [1] enqueue.cc:1500 NCCL WARN Cuda failure 1 'invalid argument'
      GENOA-06:4766:4766 [1] NCCL INFO group.cc:242 -> 1
      """;

  /** nccl-tests issue 287's device line naming the RTX 5090. */
  static final String RTX_5090_287 =
      "#  Rank  1 Group  0 Pid   4766 on   GENOA-06 device  1 [0x61] NVIDIA GeForce RTX 5090\n";

  /**
   * TensorRT-LLM issue 4238's failure: the same line, no version printed (2.25.1, per the
   * reporter).
   */
  static final String TRTLLM_4238 =
      """
      [1] enqueue.cc:1500 NCCL WARN Cuda failure 1 'invalid argument'
      [1] NCCL INFO group.cc:242 -> 1
      [1] NCCL INFO enqueue.cc:2229 -> 1
      Failed, NCCL error /home/jenkins/agent/workspace/LLM/main/L0_Test-x86_64/tensorrt_llm/cpp/tensorrt_llm/thop/allreduceOp.cpp:308 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'
      """;

  /** Horovod issue 893's shared-memory failure (NCCL 2.4.2), after a 2.4.2 version line. */
  static final String SHM_2_4_2 =
      """
      heinzel135:151780:151780 [2] NCCL INFO NCCL version 2.4.2+cuda10.0
      heinzel135:151780:151928 [2] NCCL INFO Ring 00 : 2[2] -> 1[1] via direct shared memory

      heinzel135:151780:151928 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'
      heinzel135:151780:151928 [2] NCCL INFO transport/shm.cu:187 -> 1
      heinzel135:151780:151928 [2] NCCL INFO init.cu:658 -> 1
      """;

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "NCCL 2.18.5 on a WSL2 host with ncclUnhandledCudaError and 'invalid argument'",
                WSL_HOST + "NCCL version 2.18.5+cuda12.2\n" + INVALID_ARGUMENT)
            .expect(
                error(
                        "NCCL 2.18.5 on WSL2: a known NCCL bug, fixed in 2.18.6",
                        "This log shows NCCL 2.18.5, on WSL2",
                        "https://github.com/NVIDIA/nccl/issues/1024",
                        "NCCL 2.18.6 or later")
                    .at("a.log:2", "a.log:3", "a.log:5", "a.log:1")),
        given(
                "NCCL 2.18.3 on the same WSL2 host: not the release the WSL2 entry names, but 2.18's"
                    + " peer-setup bug, whose one fix 2.18.6 is (nccl-tests issue 170's lines)",
                WSL_HOST + "NCCL version 2.18.3+cuda12.1\n" + INVALID_ARGUMENT)
            .expect(
                error("fixed in 2.18.6", "This log shows NCCL 2.18.3 and the bug's symptom")
                    .lacks("on WSL2")
                    .at("a.log:2", "a.log:5")),
        given(
            "NCCL 2.18.5 with 'invalid argument' from NVLS, even on a WSL2 host: the fabric"
                + " manager's, not this bug (nccl issue 976's lines)",
            WSL_HOST
                + """
                NCCL version 2.18.5+cuda12.2
                DESKTOP-VMBL43V:8347:8354 [0] transport/nvls.cc:165 NCCL WARN Cuda failure 'invalid argument'
                ncclUnhandledCudaError: Call to CUDA function failed.
                """),
        given(
                "NCCL 2.18.5 and the symptom on a host that is not Windows': 2.18's peer setup"
                    + " bug (nccl issue 1410's error after nccl issue 976's version line)",
                "node1:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
                    + "NCCL version 2.18.5+cuda12.2\n"
                    + INVALID_ARGUMENT)
            .expect(
                error(
                        "a known bug of 2.18.1 to 2.18.5, fixed in 2.18.6",
                        "This log shows NCCL 2.18.5 and the bug's symptom",
                        "https://github.com/NVIDIA/nccl/issues/957")
                    .lacks("WSL2")
                    .at("a.log:2", "a.log:5")),
        given(
            "NCCL 2.18.5 on a WSL2 host that works: no symptom, no finding",
            WSL_HOST + "NCCL version 2.18.5+cuda12.2\n"),
        given("vLLM's NCCL 2.18.1 failing with 'invalid argument' (vLLM issue 3688)", VLLM_3688)
            .expect(
                error(
                        "a known bug of 2.18.1 to 2.18.5, fixed in 2.18.6",
                        "This log shows NCCL 2.18.1 and the bug's symptom",
                        "https://github.com/vllm-project/vllm/issues/3688",
                        "https://github.com/pytorch/pytorch/pull/111677",
                        "NCCL 2.18.6 or later")
                    .at("a.log:1", "a.log:4")),
        given(
            "the same symptom with NCCL 2.20.5, a release after the fix: no finding (nccl issue"
                + " 1410)",
            NCCL_1410),
        given(
            "vLLM's failure with NCCL 2.18.6, the release of the fix: no finding",
            VLLM_3688.replace("NCCL version 2.18.1", "NCCL version 2.18.6")),
        given(
                "the symptom without a version line, NCCL named by a pip list only: a warning",
                "[pip3] nvidia-nccl-cu12==2.18.1\n" + INVALID_ARGUMENT)
            .expect(
                warn(
                        "Possibly a known NCCL bug of NCCL 2.18.1 up to 2.18.6",
                        "names NCCL 2.18.1 (a package or library",
                        "NCCL_DEBUG=VERSION")
                    .at("a.log:1", "a.log:4")),
        given(
                "torch's tuple names the release: a warning",
                "torch.cuda.nccl.version(): (2, 18, 1)\n" + INVALID_ARGUMENT)
            .expect(warn("names NCCL 2.18.1").at("a.log:1", "a.log:4")),
        given(
            "a pip list names 2.18.1 but NCCL's own line prints 2.20.5: the loaded one counts, no"
                + " finding",
            "[pip3] nvidia-nccl-cu12==2.18.1\n" + NCCL_1410),
        given(
            "'invalid argument' with no release anywhere: too common a symptom to name the bug",
            INVALID_ARGUMENT),
        given(
                "accept() interrupted by a signal, no release printed: a warning naming the"
                    + " releases (nccl issue 1757's failure)",
                INTERRUPTED)
            .expect(
                warn(
                        "Possibly a known NCCL bug of NCCL 2.19.3 up to 2.27.3 (fixed there)",
                        "prints no NCCL release",
                        "python -c 'import torch; print(torch.cuda.nccl.version())'",
                        "https://github.com/NVIDIA/nccl/pull/1758")
                    .at("a.log:1")),
        given(
                "accept() interrupted with NCCL 2.21.5 printed: the bug",
                "NCCL version 2.21.5+cuda12.4\n" + INTERRUPTED)
            .expect(
                error("NCCL 2.27.3 or later", "This log shows NCCL 2.21.5")
                    .at("a.log:1", "a.log:2")),
        given(
                "a py-spy stack in ncclLaunchKernelBefore_NoUncapturedCuda, no release printed"
                    + " (nccl issue 1251): the CUDA-graph FIFO leak, as a warning",
                FIFO_STACK)
            .expect(
                warn(
                        "Possibly a known NCCL bug of NCCL 2.20.3 up to 2.22.3 (fixed there)",
                        "prints no NCCL release",
                        "https://github.com/NVIDIA/nccl/issues/1251",
                        "NCCL 2.22.3 or later")
                    .at("a.log:4")),
        given(
                "the same stack beside NCCL 2.21.5 (sglang issue 7602's release)",
                "NCCL version 2.21.5+cuda12.4\n" + FIFO_STACK)
            .expect(
                error("fixed in 2.22.3", "This log shows NCCL 2.21.5 and the bug's symptom")
                    .at("a.log:1", "a.log:5")),
        given(
            "the same stack beside NCCL 2.18.3, before the leak: no finding",
            "NCCL version 2.18.3+cuda12.1\n" + FIFO_STACK),
        given(
            "accept() interrupted with NCCL 2.27.3: fixed there, no finding",
            "NCCL version 2.27.3+cuda12.9\n" + INTERRUPTED),
        given(
            "accept() failing with another errno (nccl issue 1382): not this bug", BAD_DESCRIPTOR),
        given(
                "a watchdog timeout with NCCL 2.29.2: the known hang, as a warning",
                "NCCL version 2.29.2+cuda12.9\n" + TIMEOUT)
            .expect(
                warn(
                        "NCCL 2.29.2 has a known hang, fixed in 2.29.3",
                        "https://github.com/pytorch/pytorch/pull/174338")
                    .at("a.log:1", "a.log:2")),
        given(
            "a watchdog timeout with NCCL 2.29.3: no finding",
            "NCCL version 2.29.3+cuda12.9\n" + TIMEOUT),
        given("NCCL 2.29.2 and no timeout: no finding", "NCCL version 2.29.2+cuda12.9\n"),
        given(
                "NCCL 2.25.1 on an RTX 5090 failing with 'invalid argument' (nccl-tests issue 291's"
                    + " lines, PyTorch issue 147575's error)",
                RTX_5090 + PYTORCH_147575)
            .expect(
                error(
                        "NCCL 2.25 on a GeForce RTX 50 GPU (sm_120): a known NCCL bug, fixed in"
                            + " 2.26.2",
                        "This log shows NCCL 2.25.1, on a GeForce RTX 50 GPU",
                        "https://github.com/NVIDIA/nccl-tests/issues/291")
                    .at("a.log:2", "a.log:6", "a.log:1")),
        given(
            "NCCL 2.26.2 on the RTX 5090: fixed there, no finding",
            RTX_5090.replace("2.25.1+cuda12.4", "2.26.2+cuda12.8")
                + PYTORCH_147575.replace("NCCL version 2.25.1", "NCCL version 2.26.2")),
        given(
            "NCCL 2.25.1 and 'invalid argument' on a GPU the log does not name: no finding",
            PYTORCH_147575),
        given(
                "NCCL 2.25.1's kernel launch failing at enqueue.cc:1500 on a GPU the log does not"
                    + " name (nccl-tests issue 287's lines)",
                LAUNCH_2_25_1)
            .expect(
                error(
                        "NCCL 2.25.1's kernel launch failed with CUDA's 'invalid argument'"
                            + " (enqueue.cc:1500): a known NCCL bug, fixed in 2.26.2",
                        "This log shows NCCL 2.25.1 and the bug's symptom",
                        "https://github.com/NVIDIA/nccl-tests/issues/287",
                        "NCCL 2.26.2 or later")
                    .at("a.log:1", "a.log:2")),
        given(
                "the same with the RTX 5090 named: the sm_120 entry's, not explained twice",
                RTX_5090_287 + LAUNCH_2_25_1)
            .expect(
                error(
                        "NCCL 2.25 on a GeForce RTX 50 GPU (sm_120)",
                        "This log shows NCCL 2.25.1, on a GeForce RTX 50 GPU")
                    .at("a.log:2", "a.log:3", "a.log:1")),
        given(
                "the launch failure at enqueue.cc:1500 with no release printed (TensorRT-LLM issue"
                    + " 4238): the place is 2.25.1's, a warning",
                TRTLLM_4238)
            .expect(
                warn(
                        "Possibly a known NCCL bug of NCCL 2.25.1 up to 2.26.2 (fixed there)",
                        "prints no NCCL release",
                        "https://github.com/NVIDIA/TensorRT-LLM/issues/4238")
                    .at("a.log:1")),
        given(
            "the same line with NCCL 2.26.2 printed: fixed there, no finding",
            LAUNCH_2_25_1.replace("2.25.1+cuda12.8", "2.26.2+cuda12.8")),
        given(
            "NCCL 2.25.1 with 'invalid argument' at another line of enqueue.cc (15001): no finding",
            LAUNCH_2_25_1.replace("enqueue.cc:1500 ", "enqueue.cc:15001 ")),
        given(
                "NCCL 2.4.2's shared-memory CUDA failure at shm.h:42 (Horovod issue 893's lines)",
                SHM_2_4_2)
            .expect(
                error(
                        "NCCL 2.4.2's shared-memory transport failed with CUDA's 'invalid"
                            + " argument' (shm.h:42)",
                        "This log shows NCCL 2.4.2 and the bug's symptom",
                        "https://github.com/horovod/horovod/issues/893",
                        "NCCL_SHM_DISABLE=1")
                    .at("a.log:1", "a.log:4")),
        given(
            "the same line with NCCL 2.4.8 printed: after the fix, another cause, no finding",
            SHM_2_4_2.replace("2.4.2+cuda10.0", "2.4.8+cuda10.0")),
        given(
            "the same line with no release printed: the line alone is not 2.4.2's, no finding",
            SHM_2_4_2.substring(SHM_2_4_2.indexOf('\n') + 1)),
        given("NCCL 2.10.3 with CollNet on and an illegal address: a warning", COLLNET)
            .expect(
                warn(
                        "NCCL 2.10 with CollNet enabled",
                        "with CollNet (SHARP) enabled (NCCL_COLLNET_ENABLE=1)",
                        "https://github.com/NVIDIA/nccl/issues/556",
                        "NCCL_COLLNET_ENABLE=0")
                    .at("a.log:2", "a.log:3", "a.log:1")),
        given(
            "the same with NCCL 2.12.7: fixed there, no finding",
            COLLNET.replace("2.10.3+cuda11.4", "2.12.7+cuda11.4")),
        given(
            "NCCL 2.10.3 and an illegal address without CollNet: no finding",
            COLLNET.replace(
                "NCCL_COLLNET_ENABLE set by environment to 1",
                "NCCL_P2P_LEVEL set by environment to NVL")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new KnownNcclBugRule(), "known-nccl-bug", c);
  }
}
