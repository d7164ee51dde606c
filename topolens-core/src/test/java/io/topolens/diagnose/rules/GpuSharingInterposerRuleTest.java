package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** HAMi-core's libvgpu.so crashing a process in its own hooks while NCCL initialises. */
class GpuSharingInterposerRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "vLLM TP 2 on two GPU shares, HAMi v2.8.2, NCCL 2.28.9"
                    + " (https://github.com/Project-HAMi/HAMi/issues/1853)",
                """
                (Worker pid=2244) INFO 05-11 15:34:02 [pynccl.py:111] vLLM is using nccl==2.28.9
                [HAMI-core ERROR (pid:2244 thread=133445224001088 multiprocess_memory_limit.c:1255)]: Illegal device id: 31069
                [HAMI-core ERROR (pid:2245 thread=123595670289984 multiprocess_memory_limit.c:1255)]: Illegal device id: 28776
                !!!!!!! Segfault encountered !!!!!!!
                  File "/libvgpu/src/multiprocess/multiprocess_memory_limit.c", line 469, in add_gpu_device_memory_usage
                """)
            .expect(
                error(
                        "The GPU-sharing layer's CUDA interposer crashed the process",
                        "2 line(s) of 1 distinct form(s)",
                        "NCCL_CUMEM_HOST_ENABLE=0")
                    .at("a.log:2")),
        given(
                "vLLM 0.18 on HAMi 2.8.0: the hook under NCCL's cuMem host probe, no NCCL line at all"
                    + " (https://github.com/Project-HAMi/HAMi-core/issues/169)",
                """
                [HAMI-core ERROR (pid:565 thread=140267266266944 multiprocess_memory_limit.c:831)]: Illegal device id: 850725928
                !!!!!!! Segfault encountered !!!!!!!
                  File "/libvgpu/src/multiprocess/multiprocess_memory_limit.c", line 833, in get_current_device_memory_limit
                  File "/libvgpu/src/cuda/memory.c", line 582, in cuMemCreate
                  File "misc/cudawrap.cc", line 92, in ncclCuMemHostEnable()
                """)
            .expect(
                error("The GPU-sharing layer's CUDA interposer crashed the process").at("a.log:1")),
        given(
            "a healthy HAMi-core pod's own messages: initialising, dead processes swept"
                + " (https://github.com/Project-HAMi/volcano-vgpu-device-plugin/issues/105)",
            """
            [HAMI-core Msg(350:140526578577408:libvgpu.c:839)]: Initializing.....
            [HAMI-core Warn(350:140526578577408:multiprocess_memory_limit.c:548)]: Kick dead proc 269
            [HAMI-core Msg(350:140526578577408:utils.c:32)]: unified_lock locked, waiting 1 second...
            [HAMI-core Msg(351:140393408352256:libvgpu.c:855)]: Initialized
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new GpuSharingInterposer(), "gpu-sharing-interposer", c);
  }
}
