package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NCCL's failure texts pasted without NCCL's header (issue titles, quotes; sources in
 * nccl/failures/README.md) are read as NCCL's WARN lines of an unknown host, with the kind NCCL's
 * words give; other programs' lines with some of the same words are not.
 */
class NcclFailureTextsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // https://github.com/NVIDIA/nccl/issues/1253 (the title)
        "reverse path, an issue title | Failed to find reverse path from remNode 0/41000 nlinks 2"
            + " to node 0/61000 | TOPOLOGY_DETECTION",
        // https://github.com/NVIDIA/nccl/issues/1382 (the title: NCCL's words, no header)
        "accept failed, a title with NCCL and WARN in prose | NCCL with WARN socketTryAccept: Accept"
            + " failed: Bad file descriptor | SOCKET",
        // https://github.com/NVIDIA/nccl/issues/929's line without its header (nccl/public 045)
        "no interface in the subnet, header dropped | Net : No interface found in the same subnet as"
            + " remote address a.b.c.d0<1778> | SOCKET",
        // the subsystem tag dropped too (held-out set 13 r09's class)
        "no interface in the subnet, tag dropped | No interface found in the same subnet as remote"
            + " address 10.1.2.3<29500> | SOCKET",
        // NCCL 2.29's src/os/linux.cc form (held-out set 13 r13's class)
        "2.29's accept, EMFILE | ncclOsSocketTryAccept: Accept failed: Too many open files"
            + " | RESOURCE_LIMIT",
        // a launcher's prefix before it: the rank's line of
        // https://github.com/ROCm/rccl/issues/1728
        "a launcher's prefix | [rank2]: Failed to find reverse path from remNode 0/200000 nlinks 3 to"
            + " node 0/700000 | TOPOLOGY_DETECTION",
      })
  void readAsNcclWarning(String name, String line, NcclWarning.Kind kind) {
    Job job = read(line + "\n");
    assertThat(job.inputs().getFirst().ncclLines()).isEqualTo(1);
    assertThat(job.warnings())
        .singleElement()
        .satisfies(
            w -> {
              assertThat(w.kind()).isEqualTo(kind);
              assertThat(w.message()).isEqualTo(line.strip());
              assertThat(w.process()).isEqualTo("?:0");
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a traceroute line | traceroute: failed to find reverse path to 10.0.0.7",
        "another logger's WARN line | 2019-04-20 12:00:01 WARN Socket creation failed : Address"
            + " family not supported by protocol",
        "a parser's error | json: unexpected trailing data after top-level value",
        "a generic malloc failure | Failed to malloc 4096 bytes for the frame buffer",
        "a camera tool | v4l2: Unable to open device /dev/video0",
        "a Python object | RuntimeError: Session has already been destroyed",
      })
  void otherProgramsLinesAreNotNccls(String name, String line) {
    Job job = read(line + "\n");
    assertThat(job.inputs().getFirst().ncclLines()).isZero();
    assertThat(job.warnings()).isEmpty();
  }

  private static Job read(String text) {
    return FrameworkLinesTest.readText(text);
  }
}
