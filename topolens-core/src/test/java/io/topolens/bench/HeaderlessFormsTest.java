package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * nccl-tests output that lost what marks it: NCCL 1's tests without the {@code #} of their comment
 * lines ({@code Using devices}, {@code Rank 0 uses device 0 [0x73] ...}, a header of {@code bytes N
 * type op}), result rows without any header, rows tagged by Open MPI's {@code --tag-output}. Each
 * is recognised and read as a run. Sources: nccl-tests-forms/README.md.
 */
class HeaderlessFormsTest {

  private static final String DIR = "nccl-tests-forms/";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // file | rows | devices | first row's bytes | root of the first row (- none) | Avg bus
        // bandwidth (- none) | completion
        "nccl1-no-hash-reduce-test-windows.txt | 6 | 2 | 67108864 | 0 | 5.77463 | COMPLETE",
        "nccl1-stalled-after-header-p100-pcie-nccl-85.txt | 0 | 2 | - | - | - | ABORTED",
        "nccl1-rows-no-header-indented-nccl-120.txt | 5 | 0 | 10000000 | - | - | NO_SUMMARY",
        "tagged-rows-no-header-2x-p5-awsome-distributed-training.txt | 9 | 0 | 0 | -1 | - |"
            + " NO_SUMMARY",
      })
  void readAsOneRun(
      String file,
      int rows,
      int devices,
      String firstBytes,
      String root,
      String avg,
      Completion completion)
      throws Exception {
    Path p = Fixtures.path(DIR + file);
    assertThat(NcclTestsReader.looksLike(Files.readString(p, StandardCharsets.UTF_8))).isTrue();
    BenchFile b = new NcclTestsReader().read(p, file);
    assertThat(b.runs()).hasSize(1);
    BenchRun r = b.runs().getFirst();
    assertThat(r.rows()).hasSize(rows);
    assertThat(r.devices()).hasSize(devices);
    assertThat(b.malformedRows()).isZero();
    if (!firstBytes.equals("-")) {
      assertThat(r.rows().getFirst().bytes()).isEqualTo(Long.parseLong(firstBytes));
      assertThat(r.rows().getFirst().root())
          .isEqualTo(root.equals("-") ? null : Integer.valueOf(root));
    }
    assertThat(r.avgBusBw()).isEqualTo(avg.equals("-") ? null : Double.valueOf(avg));
    assertThat(r.completion()).isEqualTo(completion);
    assertThat(r.stoppedAfterHeader()).isEqualTo(file.contains("stalled-after-header"));
  }

  /** NCCL 1's device line: rank, device and bus id, no host and no pid (one process). */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "nccl1-no-hash-reduce-test-windows.txt | 1 | 1 | 0xa6 | NVIDIA GeForce RTX 5060 Ti",
        "nccl1-stalled-after-header-p100-pcie-nccl-85.txt | 1 | 1 | 0x03 | Tesla P100-PCIE-16GB",
      })
  void nccl1DeviceLines(String file, int rank, int device, String busId, String name)
      throws Exception {
    BenchRun r = new NcclTestsReader().read(Fixtures.path(DIR + file), file).runs().getFirst();
    BenchDevice d = r.devices().getLast();
    assertThat(d.rank()).isEqualTo(rank);
    assertThat(d.device()).isEqualTo(device);
    assertThat(d.busId()).isEqualTo(busId);
    assertThat(d.name()).isEqualTo(name);
    assertThat(d.host()).isNull();
    assertThat(d.pid()).isNull();
  }

  /**
   * One row is not enough to call a file nccl-tests output; a line of numbers with other words is
   * none.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "one row | '         256            64   float     sum       0     7.14    0.04    0.04  "
            + "0e+00     7.12    0.04    0.04  0e+00\n'",
        "numbers without a type | '  8 2 4 sum 1 136.3 0.00 0.00\n  16 4 4 sum 1 69.29 0.00"
            + " 0.00\n'",
      })
  void notRows(String what, String text) throws IOException {
    assertThat(NcclTestsReader.looksLike(text)).as(what).isFalse();
  }
}
