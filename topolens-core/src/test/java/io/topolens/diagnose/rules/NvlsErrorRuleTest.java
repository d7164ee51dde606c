package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NvlsErrorRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "multicast bind failure in PyTorch's exception only (NCCL 2.29)",
                Logs.excerpt("nvls-bind-distbackenderror-pytorch-177472.log"))
            .expect(
                error(
                        "NVLink SHARP (NVLS) or fabric manager failure",
                        "Failed to bind NVLink SHARP (NVLS) Multicast memory ... CUDA error 401",
                        "NCCL_NVLS_ENABLE=0")
                    .at("a.log:4")),
        given(
                "nccl-tests' own CUDA check: 802 on two H20 nodes"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/338)",
                """
                # Using devices
                gpu: Test CUDA failure common.cu:1030 'system not yet initialized'
                 .. gpu pid 3018: Test failure common.cu:937
                """)
            .expect(error("fabric manager", "systemctl status nvidia-fabricmanager").at("a.log:2")),
        given(
                "PyTorch 1.x's CUDA 802 at its first CUDA call, no NCCL word"
                    + " (https://github.com/pytorch/pytorch/issues/35710)",
                """
                RuntimeError: cuda runtime error (802) : system not yet initialized at /opt/conda/conda-bld/pytorch_1579022034529/work/aten/src/THC/THCGeneral.cpp:50
                """)
            .expect(error("fabric manager", "802").at("a.log:1")),
        given(
                "PyTorch 2.x's warning at CUDA initialization on an ND96asr_v4 (eight A100, NVSwitch)"
                    + " (https://github.com/microsoft/lisa/issues/2823)",
                """
                /home/l****t/.local/lib/python3.6/site-packages/torch/cuda/__init__.py:80: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized (Triggered internally at  ../c10/cuda/CUDAFunctions.cpp:112.)
                gpu count: 0
                """)
            .expect(error("fabric manager").at("a.log:1")),
        given(
                "gpu-burn on eight H100 SXM (https://github.com/wilicc/gpu-burn/issues/92)",
                """
                  what():  Error (gpu_burn-drv.cpp:298): system not yet initialized
                """)
            .expect(error("fabric manager").at("a.log:1")),
        given(
                "CUDA 802 and the missing fabric manager in a maintainer's note"
                    + " (https://github.com/gpustack/gpustack/issues/4154)",
                """
                For `Error 802: system not yet initialized`, install `nvidia-fabricmanager`. Ref: https://github.com/pytorch/pytorch/issues/35710#issuecomment-901013741
                """)
            .expect(error("fabric manager", "nvidia-fabricmanager").at("a.log:1")),
        given(
            "an IEEE 802.3ad bond beside the fabric manager's name is no CUDA error"
                + " (built: the bonding driver's words and the service's name)",
            """
            bond0: IEEE 802.3ad dynamic link aggregation, nvidia-fabricmanager is enabled
            """),
        given(
                "nvls.cc CUDA failure on four GPUs of one process, NCCL timestamps",
                """
                bm-h100-02:630335:630335 [0] NCCL INFO NVLS multicast support is available on dev 0 (NVLS_NCHANNELS 16)
                [2025-05-10 23:09:41] bm-h100-02:630335:630409 [2] transport/nvls.cc:254 NCCL WARN Cuda failure 1 'invalid argument'
                [2025-05-10 23:09:41] bm-h100-02:630335:630408 [1] transport/nvls.cc:254 NCCL WARN Cuda failure 1 'invalid argument'
                bm-h100-02:630335:630408 [1] NCCL INFO transport/nvls.cc:312 -> 1
                [2025-05-10 23:09:41] bm-h100-02:630335:630413 [6] transport/nvls.cc:254 NCCL WARN Cuda failure 1 'invalid argument'
                [2025-05-10 23:09:41] bm-h100-02:630335:630412 [5] transport/nvls.cc:254 NCCL WARN Cuda failure 1 'invalid argument'
                """)
            .expect(
                error(
                        "NVLink SHARP (NVLS) or fabric manager failure",
                        "4 line(s) of 1 distinct form(s), from up to 1 process(es).",
                        "nvidia-fabricmanager")
                    .at("a.log:2")),
        given(
                "fabric manager not up, pdsh host prefix, two hosts",
                """
                rdma-test-gpu-worker-1: rdma-test-gpu-worker-1:2918:4483 [4] transport/nvls.cc:245 NCCL WARN Cuda failure 'initialization error'
                """,
                """
                rdma-test-gpu-worker-2: rdma-test-gpu-worker-2:2920:4490 [4] transport/nvls.cc:245 NCCL WARN Cuda failure 'initialization error'
                """)
            .expect(
                error("2 line(s) of 1 distinct form(s), from up to 2 process(es).").at("a.log:1")),
        given(
                "a multicast object failure named in the message",
                """
                node-a:1:2 [0] transport/nvls.cc:140 NCCL WARN Cuda failure 'operation not supported' cuMulticastCreate
                """)
            .expect(error("1 line(s)").at("a.log:1")),
        given(
            "NVLS not available is an INFO line",
            """
            node-a:1:2 [0] NCCL INFO NVLS multicast support is not available on dev 0
            node-a:1:2 [0] NCCL INFO Connected NVLS tree
            """),
        given(
                "the fabric manager finds no NVSwitch (A40 pair with an NVLink bridge,"
                    + " https://github.com/NVIDIA/gpu-operator/issues/610)",
                """
                11月 15 14:15:47 leon-NF5468M6 systemd[1]: Starting NVIDIA fabric manager service...
                11月 15 14:15:47 leon-NF5468M6 nv-fabricmanager[4177]: request to query NVSwitch device information from NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]
                11月 15 14:15:47 leon-NF5468M6 systemd[1]: nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE
                """)
            .expect(
                warn(
                        "NV_WARN_NOTHING_TO_DO means the NVSwitch driver found no NVSwitch",
                        "Without NVSwitch: disable the service")
                    .lacks("NCCL_NVLS_ENABLE=0")
                    .at("a.log:2", "a.log:3")),
        given(
                "the start script's form (https://github.com/data-infra/cube-studio/issues/29)",
                """
                Sep 18 03:19:01 ubuntu2404 nvidia-fabricmanager-start.sh[4753]: Detected Pre-NVL5 system
                Sep 18 03:19:01 ubuntu2404 nvidia-fabricmanager-start.sh[4756]: request to query NVSwitch device information from NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]
                Sep 18 03:19:01 ubuntu2404 nvidia-fabricmanager-start.sh[4753]: "/usr/bin/nv-fabricmanager -c /usr/share/nvidia/nvswitch/fabricmanager.cfg" failed! Exit code: 1
                Sep 18 03:19:01 ubuntu2404 systemd[1]: nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE
                """)
            .expect(warn("NVSwitch driver found no NVSwitch").at("a.log:2", "a.log:3", "a.log:4")),
        given(
                "the fabric manager's journal (https://github.com/NVIDIA/gpu-operator/issues/610)"
                    + " beside NCCL's nvls.cc CUDA failure"
                    + " (https://github.com/NVIDIA/nccl/issues/1488): NCCL did fail",
                """
                11月 15 14:15:47 leon-NF5468M6 nv-fabricmanager[4177]: request to query NVSwitch device information from NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]
                node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'
                """)
            .expect(
                error("NVSwitch driver found no NVSwitch", "NCCL_NVLS_ENABLE=0")
                    .at("a.log:1", "a.log:2")),
        given(
                "the fabric manager refuses the driver in the journal"
                    + " (https://github.com/akash-network/website/pull/632)",
                """
                Nov 05 13:55:26 node1 systemd[1]: Starting NVIDIA fabric manager service...
                Nov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA GPU driver interface version 550.127.05 doesn't match with driver version 550.120. Please update with the matching NVIDIA driver package.
                Nov 05 13:55:26 node1 systemd[1]: nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE
                """)
            .expect(
                error(
                        "The fabric manager (built for driver 550.127.05) refused the loaded driver"
                            + " 550.120",
                        "apt-get install nvidia-fabricmanager-550=550.120-1",
                        "systemctl restart nvidia-fabricmanager and reset the GPUs or reboot",
                        "systemctl enable --now nvidia-fabricmanager")
                    .at("a.log:2", "a.log:3")),
        given(
                "the version check alone, the program's name left out"
                    + " (https://github.com/NVIDIA/gpu-operator/issues/544)",
                """
                nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver version 530.41.03. Please update with matching NVIDIA driver package.
                """)
            .expect(
                error(
                        "built for driver 530.30.02) refused the loaded driver 530.41.03",
                        "nvidia-fabricmanager-530=530.41.03-1",
                        "or the driver of the fabric manager's version 530.30.02")
                    .lacks("NCCL_NVLS_ENABLE=0")
                    .at("a.log:1")),
        given(
            "the fabric manager's ordinary lines are no failure (gpu-operator#610, cube-studio#29)",
            """
            11月 15 14:15:47 leon-NF5468M6 systemd[1]: Starting NVIDIA fabric manager service...
            Sep 18 03:19:01 ubuntu2404 nvidia-fabricmanager-start.sh[4753]: Detected Pre-NVL5 system
            """),
        given(
            "a CUDA failure elsewhere",
            """
            n176-080-198:2657296:2658232 [0] include/alloc.h:102 NCCL WARN Cuda failure 1 'invalid argument'
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
    Logs.check(new NvlsError(), "nvls-error", c);
  }
}
