package io.topolens.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The one definition of "the log shows a failure" ({@link Job#failureLines}) on real logs: a
 * framework's failure, the watchdog's timeouts and reports, and warnings of a recognised kind
 * count; a WARN of no known kind (a fallback NCCL goes on from) and a healthy log do not.
 */
class FailureLinesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // the watchdog's two collective timeouts (ranks 0 and 4, the same call)
        "nccl/failures/watchdog-same-call-llamafactory-7396.log | 1 2",
        // PyTorch's NCCL error, the result name's line, then NCCL's last error (an NVLS bind
        // refused) on the line after 'Last error:'
        "nccl/failures/nvls-bind-distbackenderror-pytorch-177472.log | 1 2 4",
        // NCCL 2.4.8's 'Failed to open libibverbs.so[.1]': it goes on over sockets
        "nccl/heldout/set13/r02-iommu-p2p-allreduce-hang-2.4.8-nccl-257.log | -",
        // 2.14.3's 'Failed to find CUDA library in ...': it goes on with the driver's libcuda
        "nccl/heldout/set13/r10-amd-iommu-hang-cuda-path-warn-2.14.3-nccl-tests-115.log | -",
        "fixtures/h200x4/ar-p2p.log | -",
      })
  void linesThatShowAFailure(String file, String lines) {
    Job job = Fixtures.read(file);
    List<String> expected = lines.equals("-") ? List.of() : List.of(lines.split(" "));
    String name = job.inputs().getFirst().name();
    assertThat(job.failureLines()).allSatisfy(e -> assertThat(e.file()).isEqualTo(name));
    assertThat(job.failureLines())
        .extracting(e -> String.valueOf(e.line()))
        .containsExactlyElementsOf(expected);
    assertThat(job.showsFailure()).isEqualTo(!expected.isEmpty());
    assertThat(job.showsFailureIn(name)).isEqualTo(!expected.isEmpty());
    assertThat(job.showsFailureIn("another.log")).isFalse();
  }
}
