package io.topolens.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The held-out excerpts (nccl/heldout/README.md): the root cause of each is named. Measured blind:
 * set 1 (h01-h11) 8 of 11, set 2 (h12-h17) 4 of 6; the misses (h07, h08, h11, h13, h16) were closed
 * afterwards by reader forms of their class, so these rows keep the result, not a blind measure.
 * Set 3 (set3/s01-s07) 4 of 7 blind; s07 was closed by the cuda-out-of-memory rule and s05 by
 * reading NCCL's pre-2.4 {@code file:line WARN} lines (no word NCCL); s06 stays open (its excerpt
 * lacks the socket fallback that net-plugin-fallback needs): its row says so.
 */
class HeldOutTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "h01-watchdog-basicsr-737.log, collective-timeout, true",
    "h02-watchdog-reduce-scatter-llamafactory-6269.log, collective-timeout, true",
    "h03-p2p-ipc-64-horovod-785.log, p2p-setup-failed, true",
    "h04-nvls-bind-warn-dcgm-304.log, nvls-error, true",
    "h05-nvls-cuda-401-nccl-1788.log, nvls-error, true",
    "h06-ofi-register-rail-einval-awsome-distributed-ai-203.log, ofi-plugin-error, true",
    "h07-socket-poll-connect-timeout-nccl-pr-1618.log, socket-connect, true",
    "h08-connect-refused-quoted-wenet-959.log, socket-connect, true",
    "h09-watchdog-progress-bar-pytorch-118369.log, collective-timeout, true",
    "h10-watchdog-no-rank-instructglm-3.log, collective-timeout, true",
    "h11-nvls-bind-bare-line-pytorch-ao-3841.log, nvls-error, true",
    "h12-last-error-no-route-hkproj-1.log, socket-connect, true",
    "h13-flattened-loopback-connect-awsome-distributed-ai-192.log, socket-connect, true",
    "h14-connect-link-local-ib1-nccl-975.log, socket-connect, true",
    "h15-headerless-posix-fallocate-kubeflow-nccl-525.log, shm-exhausted, true",
    "h16-shm-segment-bare-line-xrayglm-83.log, shm-exhausted, true",
    "h17-async-system-error-empty-last-error-pytorch-149984.log, nccl-error, true",
    "set3/s01-ib-completion-error12-no-peer-nccl-426.log, ib-error, true",
    "set3/s02-ib-completion-bare-title-pytorch-81628.log, ib-error, true",
    "set3/s03-ibv-modify-qp-markdown-italics-nccl-769.log, ib-error, true",
    "set3/s04-ib-completion-bare-no-peer-nccl-902.log, ib-error, true",
    "set3/s05-socket-creation-old-warn-nccl-210.log, socket-interface, true",
    "set3/s06-libfabric-version-plugin-fallback-awsome-distributed-ai-292.log, net-plugin-fallback, false",
    "set3/s07-cuda-oom-quoted-nccl-295.log, cuda-out-of-memory, true",
  })
  void rootCauseNamed(String file, String id, boolean named) {
    Diagnosis d = Diagnoser.standard().diagnose(Fixtures.read("nccl/heldout/" + file));
    assertThat(d.findings().stream().anyMatch(f -> f.id().equals(id))).isEqualTo(named);
  }
}
