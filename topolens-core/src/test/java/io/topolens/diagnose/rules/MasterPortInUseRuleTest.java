package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** PyTorch's TCPStore could not listen on the master port: another process holds it. */
class MasterPortInUseRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        // close24: c10d's SocketListenOp quoted without its errno
        given(
                "the listen failure alone, the line of https://github.com/pytorch/pytorch/issues/116974"
                    + " without the bind lines above it",
                """
                [E socket.cpp:462] [c10d] The server socket has failed to listen on any local network address.
                """)
            .expect(
                error("without its errno", "EADDRINUSE (98)", "--ntasks", "--ntasks-per-node=1")
                    .at("a.log:1")),
        given(
            "a bind failure with another errno is not the port in use (torch socket.cpp's format)",
            """
            [W socket.cpp:426] [c10d] The server socket has failed to bind to 10.0.0.5:29500 (errno: 99 - Cannot assign requested address).
            """),
        given(
                "PyTorch 1.x's TCPStore, a second program on the same host"
                    + " (https://github.com/huggingface/accelerate/issues/74)",
                """
                    store = TCPStore(master_addr, master_port, world_size, start_daemon, timeout)
                RuntimeError: Address already in use
                """)
            .expect(
                error("The master port is already in use", "--main_process_port").at("a.log:2")),
        given(
                "c10d's socket warnings and error, torchrun (https://github.com/pytorch/pytorch/issues/85604)",
                """
                [W socket.cpp:401] [c10d] The server socket has failed to listen on [::]:47531 (errno: 98 - Address already in use).
                [W socket.cpp:401] [c10d] The server socket has failed to bind to 0.0.0.0:47531 (errno: 98 - Address already in use).
                [E socket.cpp:435] [c10d] The server socket has failed to listen on any local network address.
                """)
            .expect(
                error("3 line(s) of 3 distinct form(s)", "the bind failed with errno 98")
                    .at("a.log:1", "a.log:2", "a.log:3")),
        given(
                "libuv's store (PyTorch 2.4 on), lower case"
                    + " (https://github.com/xdit-project/mochi-xdit/issues/22)",
                """
                RuntimeError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use
                """)
            .expect(error("The master port is already in use").at("a.log:1")),
        given(
                "the old THD's init (torch.distributed.deprecated, PyTorch 1.0), two jobs on one server"
                    + " (https://github.com/facebookresearch/maskrcnn-benchmark/issues/137)",
                """
                    group_name, rank)
                RuntimeError: Address already in use at /pytorch/torch/lib/THD/process_group/General.cpp:20
                """)
            .expect(error("The master port is already in use").at("a.log:2")),
        given(
                "c10d's words quoted in prose (https://github.com/pytorch/examples/issues/840)",
                """
                I am trying to run Single Node Multiple GPUs imagenet but I am getting "RuntimeError: Address already in use".
                """)
            .expect(error("The master port is already in use").at("a.log:1")),
        given(
                "an issue title, a second model on one machine"
                    + " (https://github.com/facebookresearch/detectron2/issues/91)",
                """
                RuntimeError: Address already in use. How to train two models meanwhile on one machine?
                """)
            .expect(error("The master port is already in use").at("a.log:1")),
        given(
            "Rust's error in a Python binding is not c10d's"
                + " (https://github.com/meta-pytorch/torchft/issues/30)",
            """
            RuntimeError: Address already in use (os error 98)
            """),
        given(
            "Python's own socket is not the store"
                + " (https://github.com/insidesherpa/JPMC-tech-task-1-PY3/issues/232)",
            """
                self.socket.bind(self.server_address)
            OSError: [Errno 98] Address already in use
            """),
        given(
            "gloo's pair bind is not the master port (https://github.com/pytorch/pytorch/issues/104136)",
            """
            RuntimeError: [/opt/conda/conda-bld/pytorch_1634272178570/work/third_party/gloo/gloo/transport/tcp/pair.cc:176] bind: Address already in use
            """),
        given(
            "prose about the port is not the failure (https://github.com/NVIDIA/Megatron-LM/issues/343)",
            """
            Can you trying using a different MASTER_PORT? This error usually means that that port is already in use.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new MasterPortInUse(), "master-port-in-use", c);
  }
}
