package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NcclVersionNamedTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "[pip3] nvidia-nccl-cu12==2.18.1 | 2.18.1",
        "[conda] nvidia-nccl-cu12          2.27.3                   pypi_0    pypi | 2.27.3",
        "nvidia-nccl-cu11 2.14.3 | 2.14.3",
        "INFO 10-03 11:23:21 pynccl.py:63] vLLM is using nccl==2.21.5 | 2.21.5",
        "nccl                      2.18.1.1             h6103f9b_0    conda-forge | 2.18.1",
        "libnccl2 2.25.1-1+cuda12.8 | 2.25.1",
        "libnccl2=2.18.1-1+cuda12.1 | 2.18.1",
        "/usr/lib/x86_64-linux-gnu/libnccl.so.2.19.3 | 2.19.3",
        "nccl_2.18.1-1+cuda12.1_x86_64.txz | 2.18.1",
        "torch.cuda.nccl.version(): (2, 18, 1) | 2.18.1",
        "NCCL version: (2, 19, 3) | 2.19.3",
        "#define NCCL_VERSION_CODE 21801 | 2.18.1",
        "torch.cuda.nccl.version() 2708 | 2.7.8",
        "NCCL version 2.18.1 | ''",
        "Found nccl from library libnccl.so.2 | ''",
        "libnccl.so.2: cannot open shared object file: No such file or directory | ''",
        "libnccl-dev 2.25.1-1+cuda12.8 | ''",
        "(2, 18, 1) | ''",
        "is it accurate to assume that NCCL 2.18.5 (and 2.19.3 and onward) does NOT support CUDA 12.1? | ''",
        "NCCL 2.18.5 fails on our hosts | ''",
        "NCCL_VERSION_CODE 12345 | ''",
      })
  void readsTheRelease(String line, String release) {
    assertThat(NcclVersionNamed.parse(line)).isEqualTo(release.isEmpty() ? null : release);
  }
}
