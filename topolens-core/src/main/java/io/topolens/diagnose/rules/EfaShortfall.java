package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import java.util.ArrayList;
import java.util.List;

/**
 * Nodes or pods with no EFA device where they should have some, and with fewer than they should:
 * what {@code efa-not-allocatable} and {@code efa-not-requested} count, titled and graded alike.
 */
final class EfaShortfall {
  private final List<Evidence> none = new ArrayList<>();
  private final List<Evidence> fewer = new ArrayList<>();

  /** One node or pod short of EFA devices: none at all, or fewer. */
  void add(boolean noDevice, Evidence e) {
    (noDevice ? none : fewer).add(e);
  }

  boolean isEmpty() {
    return none.isEmpty() && fewer.isEmpty();
  }

  /** Those with none first, as many as a finding cites. */
  List<Evidence> evidence() {
    List<Evidence> all = new ArrayList<>(none);
    all.addAll(fewer);
    return all.stream().limit(Finding.MAX_EVIDENCE).toList();
  }

  /**
   * An error where some have no device and the job's ranks on different nodes talked over sockets
   * (the fallback it causes, seen); a warning otherwise.
   */
  Severity severity(Job job) {
    return !none.isEmpty() && !Facts.interNodeSockets(job).isEmpty()
        ? Severity.ERROR
        : Severity.WARN;
  }

  /** The sentence that says the fallback was seen, or nothing. */
  static String seen(Job job) {
    return Facts.interNodeSockets(job).isEmpty()
        ? ""
        : " This job's ranks on different nodes did talk over NET/Socket.";
  }

  /**
   * {@code 2 nodes of an instance type with EFA allocate no EFA device, 1 node fewer}, {@code 1 pod
   * requests fewer EFA devices than its node allocates}.
   *
   * @param noun node or pod
   * @param where what makes a device expected, after the noun
   * @param verb the verb for one (allocates, requests)
   * @param than what the fewer fall short of
   */
  String title(String noun, String where, String verb, String than) {
    String fewerPart =
        Facts.plural(fewer.size(), noun)
            + " "
            + verb(verb, fewer.size())
            + " fewer EFA devices than "
            + than;
    if (none.isEmpty()) {
      return fewerPart;
    }
    String nonePart =
        Facts.plural(none.size(), noun)
            + " "
            + where
            + " "
            + verb(verb, none.size())
            + " no EFA device";
    return fewer.isEmpty()
        ? nonePart
        : nonePart + ", " + Facts.plural(fewer.size(), noun) + " fewer";
  }

  private static String verb(String one, int n) {
    return n == 1 ? one : one.substring(0, one.length() - 1);
  }
}
