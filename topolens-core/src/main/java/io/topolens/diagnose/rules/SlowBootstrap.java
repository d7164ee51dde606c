package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Communicator;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.Member;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code slow-bootstrap}: a communicator's bootstrap took at least {@link #SLOW_SECONDS}. NCCL's
 * bootstrap is a rendezvous, so the ranks that spent the least time in it are the ones that arrived
 * late; the others waited for them.
 */
public final class SlowBootstrap implements Rule {
  /**
   * A rendezvous slower than this is reported; a healthy one takes milliseconds to a second or two.
   */
  static final double SLOW_SECONDS = 10.0;

  @Override
  public String id() {
    return "slow-bootstrap";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>();
    for (Communicator c : job.communicators()) {
      List<Member> timed =
          c.members().values().stream().filter(m -> !Double.isNaN(m.bootstrapSeconds())).toList();
      if (timed.isEmpty()) {
        continue;
      }
      Member slowest =
          timed.stream()
              .max((a, b) -> Double.compare(a.bootstrapSeconds(), b.bootstrapSeconds()))
              .get();
      double max = slowest.bootstrapSeconds();
      if (max < SLOW_SECONDS) {
        continue;
      }
      List<Member> late = timed.stream().filter(m -> m.bootstrapSeconds() < max / 2).toList();
      StringBuilder text = new StringBuilder();
      text.append("Bootstrap of communicator ")
          .append(c.key())
          .append(" (")
          .append(c.nRanks())
          .append(" ranks) took up to ")
          .append(Facts.seconds(max))
          .append(" (rank ")
          .append(slowest.rank())
          .append(" on ")
          .append(slowest.id().host())
          .append(
              ") . Bootstrap is a rendezvous: every rank waits until all have connected, so a long wait means some"
                  + " ranks started late. ");
      if (!late.isEmpty()) {
        text.append("Ranks that arrived late (they waited least): ")
            .append(
                Facts.list(
                    late.stream()
                        .map(
                            m ->
                                m.rank()
                                    + " ("
                                    + m.id().host()
                                    + ", "
                                    + Facts.seconds(m.bootstrapSeconds())
                                    + ")")
                        .toList(),
                    12))
            .append(".");
      } else if (timed.size() < Math.max(c.nRanks(), 2)) {
        text.append("The logs hold timings of ")
            .append(timed.size())
            .append(" of ")
            .append(c.nRanks())
            .append(" ranks; the late ones are among those whose logs are missing.");
      } else {
        text.append(
            "All ranks waited alike, so the delay was outside them (rendezvous store, DNS, network).");
      }
      List<Evidence> evidence = new ArrayList<>();
      if (slowest.timingLine() != null) {
        evidence.add(slowest.timingLine());
      }
      late.stream().map(Member::timingLine).filter(e -> e != null).forEach(evidence::add);
      out.add(
          new Finding(
              id(),
              Severity.WARN,
              "Slow NCCL bootstrap: " + Facts.seconds(max),
              text.toString().replace(") .", ")."),
              evidence,
              "Find why the late ranks started late: pods pending on scheduling or image pulls (kubectl get pods -o wide,"
                  + " kubectl describe pod), slow data loading or model download before init_process_group, or"
                  + " DNS/rendezvous endpoint resolution. Pull images ahead (pre-pulled or cached), use gang scheduling"
                  + " (Kueue, Volcano, coscheduling) so all pods start together, and read the late ranks' logs."));
    }
    return out;
  }
}
