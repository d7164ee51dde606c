package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A PyTorch build without NCCL (Windows, macOS, CPU-only) asked for the nccl backend. */
class NcclNotBuiltRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the traceback's source line and the exception, Windows"
                    + " (https://github.com/bshall/hubert/issues/1)",
                """
                  File "H:\\\\CONDA\\\\envs\\\\stylegan3\\\\lib\\\\site-packages\\\\torch\\\\distributed\\\\distributed_c10d.py", line 727, in _new_process_group_helper
                    raise RuntimeError("Distributed package doesn't have NCCL " "built in")
                RuntimeError: Distributed package doesn't have NCCL built in
                """)
            .expect(
                error("This PyTorch has no NCCL", "gloo", "2 line(s) of 2 distinct form(s)")
                    .at("a.log:2", "a.log:3")),
        given(
                "PyTorch 2.x's warning before it, Windows"
                    + " (https://github.com/pytorch/pytorch/issues/159742)",
                """
                Error: D:\\\\Python39\\\\lib\\\\site-packages\\\\torch\\\\distributed\\\\distributed_c10d.py:613: UserWarning: Attempted to get default timeout for nccl backend, but NCCL support is not compiled
                """)
            .expect(error("This PyTorch has no NCCL").at("a.log:1")),
        given(
            "the code around the raise, without it, is not the failure"
                + " (https://github.com/bmaltais/kohya_ss/issues/1347)",
            """
            │   1011 │   │   elif backend_str == Backend.NCCL:                                                 │
            │   1012 │   │   │   if not is_nccl_available():                                                   │
            """),
        given(
            "PyTorch with NCCL that failed in NCCL is nccl-error's"
                + " (https://github.com/NVIDIA/Megatron-LM/issues/661)",
            """
            torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1727, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new NcclNotBuilt(), "nccl-not-built", c);
  }
}
