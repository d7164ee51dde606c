package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Threads against vCPUs: what each process gets, and what time-slicing adds per region. */
class HostThreadsTest {

  @ParameterizedTest(name = "{0} x {1} threads on {2} vCPUs")
  @CsvSource({
    // procs, threads, vcpus, threads per vCPU, threads' worth each, barrier weight (o^2 - 1)
    "1, 16, 16, 1.0, 16, 0", // the one-H100 host, every vCPU
    "2, 1, 32, 0.0625, 1, 0", // torchrun's OMP_NUM_THREADS=1 on the 2 x H100 host
    "2, 32, 32, 2.0, 16, 3", // 2 pods of 1 GPU, torch's default threads each
    "4, 64, 64, 4.0, 16, 15", // bench/results/cpu-adam-h200x4-4proc-omp64.json
    "4, 96, 96, 4.0, 24, 15", // 4 pods of 1 GPU on a p4d.24xlarge
    "4, 1, 48, 0.0833333, 1, 0", // 1 pod of 4 on a g6e.12xlarge under torchrun
    "3, 8, 0, 0, 8, 0", // vCPUs unknown: taken as not oversubscribed
  })
  void shareAndWaits(int p, int t, int c, double o, double eff, double weight) {
    HostThreads h = new HostThreads(p, t, c);
    assertThat(h.oversubscription()).isCloseTo(o, within(1e-6));
    assertThat(h.effectiveThreads()).isCloseTo(eff, within(1e-9));
    assertThat(h.barrierWeight()).isCloseTo(weight, within(1e-9));
    assertThat(h.oversubscribed()).isEqualTo(o > 1);
  }

  @ParameterizedTest(name = "{0} processes per pod on {1} vCPUs: {2} threads")
  @CsvSource({"4, 96, 1", "2, 32, 1", "1, 96, 96", "1, 32, 32"})
  void torchrunDefault(int perPod, int vcpus, int threads) {
    assertThat(HostThreads.torchrunDefault(perPod, vcpus)).isEqualTo(threads);
  }
}
