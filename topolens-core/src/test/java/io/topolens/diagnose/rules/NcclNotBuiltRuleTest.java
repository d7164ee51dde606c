package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A PyTorch build without NCCL (Windows, macOS, CPU-only) asked for the nccl backend, or a
 * framework that found no NCCL library to load.
 */
class NcclNotBuiltRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "XLA's NCCL call when jaxlib's local-CUDA install has no NCCL"
                    + " (https://github.com/jax-ml/jax/issues/18391, held-out set 14's s14, after it"
                    + " was measured)",
                """
                external/xla/xla/service/gpu/nccl_utils.cc:133: NCCL operation ncclGetUniqueId(&id) failed: Unable to load NCCL library. Multi-GPU collectives will not work.;
                """)
            .expect(
                error(
                        "The NCCL library could not be loaded",
                        "jax[cuda12_local]",
                        "pip install nvidia-nccl-cu12")
                    .lacks("This PyTorch build has no NCCL compiled in", "gloo")
                    .at("a.log:1")),
        given(
                "import torch without the nvidia-nccl wheel"
                    + " (https://github.com/pinokiocomputer/pinokio/issues/193)",
                """
                    from torch._C import *  # noqa: F403
                ImportError: libnccl.so.2: cannot open shared object file: No such file or directory
                """)
            .expect(error("The NCCL library could not be loaded").at("a.log:2")),
        given(
                "vLLM's pynccl (https://github.com/vllm-project/vllm/issues/4312, title)",
                """
                [Bug]: NameError: name 'ncclGetVersion' is not defined (or Failed to import NCCL library: Cannot find libnccl.so.2 in the system.)
                """)
            .expect(error("The NCCL library could not be loaded").at("a.log:1")),
        given(
                "Lua torch's loader, NCCL 1 (https://github.com/facebookresearch/fairseq-lua/issues/24)",
                """
                Tried loading libnccl.so.1 but got error /home/actl/torch/install/share/lua/5.1/nccl/ffi.lua:192: libnccl.so.1: cannot open shared object file: No such file or directory
                """)
            .expect(error("The NCCL library could not be loaded").at("a.log:1")),
        given(
            "no network plugin installed is NCCL's ordinary start"
                + " (https://github.com/meta-llama/llama-cookbook/issues/920)",
            """
            dgx-a800:1732884:1732884 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so
            NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so
            """),
        given(
            "vLLM naming the library it loaded (https://github.com/vllm-project/vllm/issues/9046)",
            """
            INFO 10-03 11:23:21 utils.py:996] Found nccl from library libnccl.so.2
            """),
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
