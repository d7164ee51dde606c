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
                "Horovod's build, nccl.h not found by its nccl_operations.h"
                    + " (https://github.com/horovod/horovod/issues/3378)",
                """
                    /tmp/pip-install-1o9yj4k1/horovod/horovod/common/ops/nccl_operations.h:22:10: fatal error: nccl.h: No such file or directory
                       22 | #include <nccl.h>
                          |          ^~~~~~~~
                    compilation terminated.
                """)
            .expect(
                error(
                        "The build found no NCCL headers or library",
                        "the compiler found no nccl.h",
                        "HOROVOD_NCCL_HOME",
                        "HOROVOD_NCCL_INCLUDE",
                        "HOROVOD_NCCL_LIB")
                    .lacks("This PyTorch build has no NCCL compiled in", "gloo")
                    .at("a.log:1")),
        given(
                "CMake's FindNCCL in Horovod's build"
                    + " (https://github.com/easybuilders/easybuild-easyconfigs/pull/11375)",
                """
                     -- Linking against static NCCL library
                     CMake Error at /theia/home/apps/CO7/skylake/software/CMake/3.15.3-GCCcore-8.3.0/share/cmake-3.15/Modules/FindPackageHandleStandardArgs    .cmake:137 (message):
                       Could NOT find NCCL (missing: NCCL_INCLUDE_DIR NCCL_LIBRARY)
                     Call Stack (most recent call first):
                """)
            .expect(error("The build found no NCCL headers or library").at("a.log:3")),
        given(
            "Horovod's setup.py message without the compiler's line: its advice is no failure"
                + " line (https://github.com/horovod/horovod/issues/944)",
            """
                    Please specify correct NCCL location with the HOROVOD_NCCL_HOME environment variable or combination of HOROVOD_NCCL_INCLUDE and HOROVOD_NCCL_LIB environment variables.
                """),
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
                "TensorFlow on Windows, MirroredStrategy's NCCL all-reduce"
                    + " (https://github.com/tensorflow/tensorflow/issues/44281)",
                """
                No OpKernel was registered to support Op 'NcclAllReduce' used by {{node NcclAllReduce}} with these attrs: [reduction="sum", shared_name="c1", T=DT_FLOAT, num_devices=2]
                Registered devices: [CPU, GPU, XLA_CPU, XLA_GPU]
                Registered kernels:
                  <no registered kernels>

                \t [[NcclAllReduce]] [Op:__inference_train_function_2229]
                """)
            .expect(
                error(
                        "This TensorFlow has no NCCL",
                        "1 line(s) of 1 distinct form(s)",
                        "Windows builds have none",
                        "HierarchicalCopyAllReduce()")
                    .lacks("PyTorch", "gloo", "pip install nvidia-nccl")
                    .at("a.log:1")),
        given(
                "TensorFlow 2.0 alpha on Windows Server, without the space before 'with'"
                    + " (https://github.com/tensorflow/tensorflow/issues/28372)",
                """
                tensorflow.python.framework.errors_impl.InvalidArgumentError: No OpKernel was registered to support Op 'NcclAllReduce' used by {{node training/Adam/NcclAllReduce}}with these attrs: [reduction="sum", T=DT_FLOAT, num_devices=4, shared_name="c0"]
                """)
            .expect(error("This TensorFlow has no NCCL").at("a.log:1")),
        given(
                "TensorFlow 1.9 on Windows, the op not in the binary"
                    + " (https://github.com/tensorflow/tensorflow/issues/21470)",
                """
                tensorflow.python.framework.errors_impl.InvalidArgumentError: Op type not registered 'NcclAllReduce' in binary running on DESKTOP-K1BEKCL. Make sure the Op and Kernel are registered in the binary running in this process. Note that if you are loading a saved graph which used ops from tf.contrib, accessing (e.g.) `tf.contrib.resampler` should be done before importing the graph, as contrib ops are lazily registered when the module is first accessed. while building NodeDef 'NcclAllReduce'
                """)
            .expect(error("This TensorFlow has no NCCL", "tf.contrib.nccl").at("a.log:1")),
        given(
                "TensorFlow on macOS, CPU-only workers"
                    + " (https://github.com/tensorflow/tensorflow/issues/22274)",
                """
                NotFoundError: Op type not registered 'NcclAllReduce' in binary running on Bairens-MacBook.local. Make sure the Op and Kernel are registered in the binary running in this process.
                """)
            .expect(error("This TensorFlow has no NCCL").at("a.log:1")),
        given(
            "the graph's op named in a traceback is not the failure"
                + " (https://github.com/tensorflow/benchmarks/issues/71)",
            """
            Caused by op u'NcclAllReduce_30', defined at:
              File "tf_cnn_benchmarks.py", line 46, in <module>
            """),
        given(
            "the node line after the error, alone, is not the failure"
                + " (https://github.com/tensorflow/tensorflow/issues/28372)",
            """
            \t [[training/Adam/NcclAllReduce]] [Op:__inference_keras_scratch_graph_4244]
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
