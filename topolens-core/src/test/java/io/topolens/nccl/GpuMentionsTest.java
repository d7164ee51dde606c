package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.ComputeCapability;
import io.topolens.model.GpuMention;
import io.topolens.model.Job;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a line names a GPU by, each in its own field: the model's words, and the compute capability
 * (PyTorch's {@code sm_86}, NCCL 2.3-2.6's {@code Min Comp Cap 8}, the major only). Real lines.
 */
class GpuMentionsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // line | model, or - | capability major.minor (minor -1: the major only), or - | words
        // https://github.com/pytorch/pytorch/issues/152077
        "`NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current"
            + " PyTorch installation.` | GeForce RTX 5090 | 12.0 | GeForce RTX 5090 (sm_120)",
        // https://github.com/pytorch/pytorch/issues/90761
        "`NVIDIA H100 PCIe with CUDA capability sm_90 is not compatible with the current PyTorch"
            + " installation.` | H100 | 9.0 | H100 (sm_90)",
        // https://github.com/pytorch/pytorch/issues/170045 (torch's environment report)
        "`GPU 0: NVIDIA H200` | H200 | - | H200",
        // https://github.com/NVIDIA/nccl/issues/792 (init.cc 2.3-2.6)
        "`node01:1297856:1297856 [7] NCCL INFO Using 256 threads, Min Comp Cap 8, Trees disabled`"
            + " | - | 8.-1 | compute capability 8 (NCCL's Min Comp Cap)",
      })
  void namesTheModelAndTheCapabilityApart(
      String line, String model, String capability, String words, @TempDir Path dir)
      throws IOException {
    Path log = dir.resolve("a.log");
    Files.writeString(log, line + "\n");
    Job job = new NcclLogReader(1).read(LogInput.expand(List.of(log.toString())));
    assertThat(job.gpuMentions()).hasSize(1);
    GpuMention m = job.gpuMentions().getFirst();
    assertThat(m.model()).isEqualTo(model.equals("-") ? null : model);
    ComputeCapability cc = m.capability();
    assertThat(cc == null ? "-" : cc.major() + "." + cc.minor()).isEqualTo(capability);
    assertThat(m.words()).isEqualTo(words);
  }
}
