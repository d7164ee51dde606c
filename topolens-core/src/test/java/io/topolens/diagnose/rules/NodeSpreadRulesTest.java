package io.topolens.diagnose.rules;

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
 * {@code nodes-across-zones} and {@code mixed-instance-types} on a cluster given as {@code
 * NODE:TYPE:ZONE} per node ({@code -} for no label), one pod per node asking for {@code efa} EFA
 * devices.
 */
class NodeSpreadRulesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        "one zone|nodes-across-zones|n1:p5.48xlarge:us-east-1a,n2:p5.48xlarge:us-east-1a|32|-|-|-",
        "two zones, EFA asked|nodes-across-zones|n1:p5.48xlarge:us-east-1a,n2:p5.48xlarge:us-east-1b,n3:p5.48xlarge:us-east-1a|32|error|The job's nodes are in 2 zones: 2 in us-east-1a, 1 in us-east-1b|node n1: instance-type p5.48xlarge, allocatable nvidia.com/gpu 8, vpc.amazonaws.com/efa 32, zone us-east-1a",
        "two zones, TCP|nodes-across-zones|n1:g5.xlarge:eu-west-1a,n2:g5.xlarge:eu-west-1c|0|warn|The job's nodes are in 2 zones: 1 in eu-west-1a, 1 in eu-west-1c|node n1: instance-type g5.xlarge, allocatable nvidia.com/gpu 8, vpc.amazonaws.com/efa none, zone eu-west-1a",
        "zones not labelled|nodes-across-zones|n1:p5.48xlarge:-,n2:p5.48xlarge:-|32|-|-|-",
        "one type|mixed-instance-types|n1:p4d.24xlarge:z,n2:p4d.24xlarge:z|4|-|-|-",
        "two types|mixed-instance-types|n1:p4d.24xlarge:z,n2:p5.48xlarge:z,n3:p4d.24xlarge:z|4|warn|The job runs on 2 instance types: 2 x p4d.24xlarge, 1 x p5.48xlarge|node n1: instance-type p4d.24xlarge, allocatable nvidia.com/gpu 8, vpc.amazonaws.com/efa 4, zone z",
        "a node without a label|mixed-instance-types|n1:p4d.24xlarge:z,n2:-:z|4|-|-|-",
      })
  void judgesWhereTheNodesAre(
      String name,
      String rule,
      String nodes,
      int efa,
      String severity,
      String title,
      String firstEvidence) {
    List<NodeFacts> n = new ArrayList<>();
    List<Cluster.PodRequest> pods = new ArrayList<>();
    for (String s : nodes.split(",")) {
      String[] f = s.split(":");
      String type = f[1].equals("-") ? null : f[1];
      n.add(new NodeFacts(f[0], type, 8, efa == 0 ? null : efa, f[2].equals("-") ? null : f[2]));
      pods.add(new Cluster.PodRequest("pod-" + f[0], f[0], efa));
    }
    Job job = Logs.job(Logs.rankOfTwo(0, "node-a", 2, "NET/Socket/0"));
    Observed o =
        new Observed(job, List.of(), List.of(), null, List.of(), new Cluster(n, pods), null);
    Rule r = rule.equals("nodes-across-zones") ? new NodesAcrossZones() : new MixedInstanceTypes();
    List<Finding> found = r.check(o);
    Logs.expectOne(found, rule, severity, title, firstEvidence);
  }
}
