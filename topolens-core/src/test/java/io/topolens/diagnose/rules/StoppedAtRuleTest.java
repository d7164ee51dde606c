package io.topolens.diagnose.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.Progress;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * stopped-at on real files read as {@code diagnose} reads them (nccl-tests output with its NCCL
 * lines): the stage each process's last line shows, the finding's title and the causes it names.
 * Sources: nccl/hangs/README.md and the held-out READMEs.
 */
class StoppedAtRuleTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // file | stage of the least-advanced process's last line, or - | the finding's title
        // words, or - for none | words of the causes it names, or -
        "nccl/hangs/p2p-hang-two-a6000-2.8.2-nccl-606.log | CONNECT_P2P | No result row"
            + " | channel setup over P2P (nccl-tests:225)",
        "nccl/heldout/set13/r02-iommu-p2p-allreduce-hang-2.4.8-nccl-257.log | TOPOLOGY"
            + " | No result row | with every rank on one host",
        "nccl/heldout/set13/r10-amd-iommu-hang-cuda-path-warn-2.14.3-nccl-tests-115.log"
            + " | BOOTSTRAP | No result row | bootstrap and network selection (SAIS1020:28329)",
        "nccl/heldout/set13/r04-nvls-bind-hang-4-gpus-docker-2.19.3-nccl-tests-216.log | NVLS"
            + " | The log ends at the NVLS buffer bind | Fabric Manager",
        // a failure says where it stopped: no finding (nccl-error names it)
        "nccl/heldout/set13/r07-socket-ifname-differs-per-node-internal-error-nccl-tests-219.log"
            + " | - | - | -",
        // the header and devices alone, no NCCL line: too little to say
        "nccl/heldout/set13/r17-healthy-two-nodes-ib-broadcast-fixed-cables-nccl-307.log"
            + " | - | - | -",
        // no NCCL line, but the whole output: NCCL 1's devices and header, then nothing (nccl
        // issue 85, two PCIe P100s; the maintainer pointed at ACS)
        "nccl-tests-forms/nccl1-stalled-after-header-p100-pcie-nccl-85.txt | -"
            + " | nccl-tests printed its header and no result row"
            + " | Access Control Services (ACS)",
        // the header, then NCCL 1's failure line: a failure says where it stopped
        "nccl/heldout/set13/r06-nccl-1.x-unhandled-cuda-error-p100-nccl-tests-5.log | - | - | -",
        // rows after the header: it ran
        "nccl-tests-forms/nccl1-no-hash-reduce-test-windows.txt | - | - | -",
        // a healthy excerpt cut after the network choice looks like r10: a warning, said as "if"
        "nccl/heldout/set11/q13-healthy-p2p-disabled-two-4090s-open-gpu-kernel-modules-45.log"
            + " | BOOTSTRAP | No result row | An excerpt may simply be cut there",
        // runs with result rows (NCCL lines beside them), a failure before the table, a log whose
        // processes completed init (* : stage not checked)
        "public/nccl-tests/001-scatter-perf-2x-p4d-a100-16r-srun-l-nccl-info-efa.txt | * | - | -",
        "public/nccl-tests/035-failed-before-table-cuda-system-not-initialized-h20-mpirun.txt"
            + " | * | - | -",
        "fixtures/h200x4/ar-p2p.log | COMPLETE | - | -",
      })
  void namesWhereTheRunStopped(String file, String stage, String title, String words) {
    Observed o = Fixtures.observe(file);
    List<Progress.Stage> stages = o.job().progress().stream().map(Progress::stage).toList();
    if (stage.equals("*")) {
      // not checked
    } else if (stage.equals("-")) {
      assertThat(stages).isEmpty();
    } else {
      assertThat(stages.stream().min(Enum::compareTo)).contains(Progress.Stage.valueOf(stage));
    }
    List<Finding> found = new StoppedAt().check(o);
    if (title.equals("-")) {
      assertThat(found).isEmpty();
      return;
    }
    assertThat(found).hasSize(1);
    Finding f = found.get(0);
    assertThat(f.severity()).isEqualTo(Severity.WARN);
    assertThat(f.title()).startsWith(title);
    assertThat(f.explanation()).contains(words).contains("if");
  }
}
