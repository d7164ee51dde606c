package io.topolens.diagnose.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Rule;
import io.topolens.model.Cluster;
import io.topolens.model.Job;
import io.topolens.model.NodeFacts;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code efa-not-allocatable} and {@code efa-not-requested} on a two-node job (node-a, node-b, one
 * rank each) whose ranks talked over {@code via}, with the cluster described as {@code
 * NODE:TYPE:EFA} per node ({@code -} for none allocatable) and {@code POD@NODE:EFA} per pod.
 */
class EfaRulesTest {
  static final HardwareCatalog CATALOG = HardwareCatalog.builtIn();
  static final String SOCKET = "NET/Socket/0";
  static final String EFA = "NET/AWS Libfabric/0/GDRDMA";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // the healthy job: every node allocates the catalog's 4, every pod asks for them
        "healthy p4d|efa|node-a:p4d.24xlarge:4,node-b:p4d.24xlarge:4|w0@node-a:4,w1@node-b:4|efa-not-allocatable|-|-|-",
        "healthy p4d, requests|efa|node-a:p4d.24xlarge:4,node-b:p4d.24xlarge:4|w0@node-a:4,w1@node-b:4|efa-not-requested|-|-|-",
        // no device plugin on node-b, and the job fell back to sockets: the cause
        "no plugin, sockets|socket|node-a:p4d.24xlarge:4,node-b:p4d.24xlarge:-|w0@node-a:4,w1@node-b:4|efa-not-allocatable|error|1 node of an instance type with EFA allocates no EFA device|node node-b: instance-type p4d.24xlarge, allocatable nvidia.com/gpu 8, vpc.amazonaws.com/efa none",
        // no plugin on either node, but NCCL's lines show no socket between nodes: a warning
        "no plugin, no sockets|efa|node-a:p4d.24xlarge:-,node-b:p4d.24xlarge:-|w0@node-a:0,w1@node-b:0|efa-not-allocatable|warn|2 nodes of an instance type with EFA allocate no EFA device|node node-a: instance-type p4d.24xlarge, allocatable nvidia.com/gpu 8, vpc.amazonaws.com/efa none",
        "fewer than the type has|efa|node-a:p5.48xlarge:16,node-b:p5.48xlarge:32|w0@node-a:16,w1@node-b:32|efa-not-allocatable|warn|1 node allocates fewer EFA devices than the catalog gives its instance type|node node-a: instance-type p5.48xlarge, allocatable nvidia.com/gpu 8, vpc.amazonaws.com/efa 16",
        "both kinds|socket|node-a:p5.48xlarge:16,node-b:p5.48xlarge:-|w0@node-a:16,w1@node-b:0|efa-not-allocatable|error|1 node of an instance type with EFA allocates no EFA device, 1 node fewer|node node-b: instance-type p5.48xlarge, allocatable nvidia.com/gpu 8, vpc.amazonaws.com/efa none",
        // a type without EFA, and one the catalog does not know: nothing to compare with
        "g5.xlarge has no EFA|socket|node-a:g5.xlarge:-,node-b:g5.xlarge:-|w0@node-a:0,w1@node-b:0|efa-not-allocatable|-|-|-",
        "unknown type|socket|node-a:x9.huge:-,node-b:x9.huge:-|w0@node-a:0,w1@node-b:0|efa-not-allocatable|-|-|-",
        "no label|socket|node-a:-:-,node-b:-:-|w0@node-a:0,w1@node-b:0|efa-not-allocatable|-|-|-",
        // pods that ask for no EFA on nodes that have it, and the job on sockets: the cause
        "pods ask none, sockets|socket|node-a:p4d.24xlarge:4,node-b:p4d.24xlarge:4|w0@node-a:0,w1@node-b:0|efa-not-requested|error|2 pods on a node with EFA request no EFA device|pod w0: requests vpc.amazonaws.com/efa 0 on node node-a (p4d.24xlarge, 4 allocatable)",
        "one pod asks fewer|efa|node-a:p4d.24xlarge:4,node-b:p4d.24xlarge:4|w0@node-a:4,w1@node-b:1|efa-not-requested|warn|1 pod requests fewer EFA devices than its node allocates|pod w1: requests vpc.amazonaws.com/efa 1 on node node-b (p4d.24xlarge, 4 allocatable)",
        "asks none, no sockets|efa|node-a:p4d.24xlarge:4,node-b:p4d.24xlarge:4|w0@node-a:0,w1@node-b:4|efa-not-requested|warn|1 pod on a node with EFA requests no EFA device|pod w0: requests vpc.amazonaws.com/efa 0 on node node-a (p4d.24xlarge, 4 allocatable)",
        // nodes that allocate none: efa-not-allocatable's case, not the pods'
        "nodes allocate none|socket|node-a:p4d.24xlarge:-,node-b:p4d.24xlarge:-|w0@node-a:0,w1@node-b:0|efa-not-requested|-|-|-",
        // one node: no network between ranks
        "one node|socket|node-a:p4d.24xlarge:4|w0@node-a:0,w1@node-a:0|efa-not-requested|-|-|-",
      })
  void judgesTheClusterAgainstTheCatalog(
      String name,
      String via,
      String nodes,
      String pods,
      String rule,
      String severity,
      String title,
      String firstEvidence) {
    Job job =
        Logs.job(
            Logs.rankOfTwo(0, "node-a", 2, via.equals("socket") ? SOCKET : EFA),
            Logs.rankOfTwo(1, "node-b", 2, via.equals("socket") ? SOCKET : EFA));
    Observed o =
        new Observed(job, List.of(), List.of(), null, List.of(), cluster(nodes, pods), CATALOG);
    Rule r = rule.equals("efa-not-allocatable") ? new EfaNotAllocatable() : new EfaNotRequested();
    List<Finding> found = r.check(o);
    Logs.expectOne(found, rule, severity, title, firstEvidence);
    if (severity == null) {
      return;
    }
    if (rule.equals("efa-not-allocatable")) {
      // the catalog's count is cited with its source
      assertThat(found.get(0).explanation()).contains("EFA interface(s) (").contains("https://");
    }
  }

  @ParameterizedTest
  @CsvSource({"efa-not-allocatable", "efa-not-requested"})
  void logsReadFromFilesAreNotJudged(String rule) {
    Job job =
        Logs.job(Logs.rankOfTwo(0, "node-a", 2, SOCKET), Logs.rankOfTwo(1, "node-b", 2, SOCKET));
    Rule r = rule.equals("efa-not-allocatable") ? new EfaNotAllocatable() : new EfaNotRequested();
    assertThat(r.check(Observed.of(job))).isEmpty();
  }

  static Cluster cluster(String nodes, String pods) {
    List<NodeFacts> n = new ArrayList<>();
    for (String s : nodes.split(",")) {
      String[] f = s.split(":");
      n.add(
          new NodeFacts(
              f[0],
              f[1].equals("-") ? null : f[1],
              f[1].equals("-") ? null : 8,
              f[2].equals("-") ? null : Integer.parseInt(f[2]),
              null));
    }
    List<Cluster.PodRequest> p = new ArrayList<>();
    for (String s : pods.split(",")) {
      String[] f = s.split("[@:]");
      p.add(new Cluster.PodRequest(f[0], f[1], Integer.parseInt(f[2])));
    }
    return new Cluster(n, p);
  }
}
