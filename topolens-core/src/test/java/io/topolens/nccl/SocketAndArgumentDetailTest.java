package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Detail;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the reader reads from NCCL's connect failures and argument checks, so socket-connect and
 * invalid-argument judge the peer's answer, the root's range and the NULL argument without the
 * text. Real lines (sources in the comments; the rules' tests and heldout READMEs quote them).
 */
class SocketAndArgumentDetailTest {

  static Stream<Arguments> lines() {
    return Stream.of(
        // https://github.com/huggingface/transformers/issues/10282
        Arguments.of(
            "multi-gpu-ci-runner:18062:18089 [1] NCCL INFO Call to connect returned Connection refused, retrying",
            NcclWarning.Kind.SOCKET,
            new Detail.ConnectError(Detail.ConnectError.REFUSED)),
        // https://github.com/pytorch/pytorch/issues/38702
        Arguments.of(
            "tj1-asr-train-v100-13:941227:943077 [0] include/socket.h:390 NCCL WARN Connect to 10.38.10.112<21724> failed : Connection refused",
            NcclWarning.Kind.SOCKET,
            new Detail.ConnectError(Detail.ConnectError.REFUSED)),
        // https://github.com/horovod/horovod/issues/110
        Arguments.of(
            "lf-solar-gpu9-pm:285594:285607 [0] include/socket.h:361 NCCL WARN Call to connect failed : Connection timed out",
            NcclWarning.Kind.SOCKET,
            new Detail.ConnectError(Detail.ConnectError.TIMED_OUT)),
        // https://github.com/horovod/horovod/issues/3752 (heldout set 26, j03)
        Arguments.of(
            "slave1:126624:126758 [1] misc/argcheck.cc:39 NCCL WARN Broadcast : invalid root 0 (root should be in the 0..-1 range)",
            NcclWarning.Kind.ARGUMENT,
            new Detail.InvalidRoot(0, -1)),
        // https://github.com/NVIDIA/nccl/issues/276 (heldout set 19, b10)
        Arguments.of(
            "YYY:2396:2428 [0] misc/argcheck.cc:40 NCCL WARN Reduce : invalid root 0 (root should be in the 0..0 range)",
            NcclWarning.Kind.ARGUMENT,
            new Detail.InvalidRoot(0, 0)),
        // NCCL 2.28.3's argcheck.cc:48 format (nccl/messages/messages.tsv)
        Arguments.of(
            "node-a:4021:4021 [0] misc/argcheck.cc:48 NCCL WARN Reduce : invalid root 8 (root should be in the 0..7 range)",
            NcclWarning.Kind.ARGUMENT,
            new Detail.InvalidRoot(8, 7)),
        // https://github.com/laekov/fastmoe/issues/149 (heldout set 25, i05)
        Arguments.of(
            "Trident-MS:1203254:1203254 [0] misc/argcheck.cc:30 NCCL WARN Send : comm argument is NULL",
            NcclWarning.Kind.ARGUMENT,
            new Detail.NullArgument("Send", "comm")),
        // NCCL 2.28.3's argcheck.cc:30 format (nccl/messages/messages.tsv)
        Arguments.of(
            "node-a:4021:4021 [0] misc/argcheck.cc:30 NCCL WARN AllReduce : sendbuff argument is NULL",
            NcclWarning.Kind.ARGUMENT,
            new Detail.NullArgument("AllReduce", "sendbuff")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lines")
  void readsWhatTheLineNames(String line, NcclWarning.Kind kind, Detail detail) {
    NcclEvent event = MessageParser.parse(LineHeader.parse(line));
    assertThat(event).isInstanceOf(NcclEvent.Warning.class);
    NcclEvent.Warning w = (NcclEvent.Warning) event;
    assertThat(w.kind()).isEqualTo(kind);
    assertThat(w.detail()).isEqualTo(detail);
  }
}
