package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.Grade;
import io.topolens.verdict.Numbers;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code busbw-below-expected}: an nccl-tests run given beside the logs peaks far below what its
 * path should deliver, or ran on a slower path than the hardware offers.
 */
public final class BusbwBelowExpected extends BesideRule {

  @Override
  public String id() {
    return "busbw-below-expected";
  }

  @Override
  public List<Finding> check(Observed o) {
    List<Finding> out = new ArrayList<>();
    for (BenchVerdict v : o.benches()) {
      if (v.grade() != Grade.BELOW
          && v.grade() != Grade.FAR_BELOW
          && v.grade() != Grade.SLOWER_PATH) {
        continue;
      }
      String name = v.run().collective() == null ? "nccl-tests" : v.run().collective().testName();
      String title =
          v.grade() == Grade.SLOWER_PATH
              ? name
                  + " ran on "
                  + v.ranOn().path().label()
                  + " where the hardware offers "
                  + v.offered().label()
              : name
                  + " peaks at "
                  + Numbers.gbps(v.peakBusBw())
                  + " GB/s, below what "
                  + v.expected().path().label()
                  + " should give";
      String fix =
          v.grade() == Grade.SLOWER_PATH
              ? "Find why NCCL avoided the faster path: the other findings of this diagnosis, the environment"
                  + " (NCCL_P2P_DISABLE, NCCL_SHM_DISABLE, NCCL_NET), the network plugin lines."
              : "Check the links (nvidia-smi nvlink -s for inactive links, topo -m), GPU clocks and other jobs on the"
                  + " node; rerun with a sweep up to at least 1 GiB; compare with a healthy node by topolens bench A B.";
      out.add(
          new Finding(
              id(),
              v.grade().severity() == Severity.INFO ? Severity.WARN : v.grade().severity(),
              title,
              v.sentence(),
              v.evidence(),
              fix));
    }
    return out;
  }
}
