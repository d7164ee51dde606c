package io.topolens.kube.plan;

import io.topolens.nccl.InputProblem;
import java.util.List;

/** Plan requests written as "field=value;..." knobs, shared by the plan and run tests. */
public final class Knobs {
  private Knobs() {}

  /** A request from "field=value;..." knobs with PlanRequest's names. */
  public static PlanSpec spec(String knobs) throws InputProblem {
    String instance = null;
    Integer nodes = null;
    String[] v = new String[18];
    List<String> names =
        List.of(
            "gpusPerPod",
            "network",
            "kind",
            "workload",
            "image",
            "command",
            "name",
            "namespace",
            "runtime",
            "trainerVersion",
            "zone",
            "sameZone",
            "shm",
            "offload",
            "params",
            "nodeLabel",
            "toleration",
            "podsPerNode");
    for (String kv : knobs.split(";")) {
      int eq = kv.indexOf('=');
      String k = kv.substring(0, eq).strip();
      String val = kv.substring(eq + 1).strip();
      switch (k) {
        case "instance" -> instance = val;
        case "nodes" -> nodes = Integer.valueOf(val);
        default -> v[names.indexOf(k)] = val;
      }
    }
    return new PlanRequest(
            instance,
            nodes,
            v[0],
            v[1],
            v[2],
            v[3],
            v[4],
            v[5],
            v[6],
            v[7],
            v[8],
            v[9],
            v[10],
            v[11] == null ? null : Boolean.valueOf(v[11]),
            v[15] == null ? null : java.util.Map.of(v[15].split("=")[0], v[15].split("=")[1]),
            v[16] == null ? null : List.of(v[16]),
            v[12],
            v[13],
            v[14],
            v[17] == null ? null : Integer.valueOf(v[17]))
        .toSpec();
  }

  /** The standard planner's plan for {@code knobs}. */
  public static Plan plan(String knobs) throws InputProblem {
    return Planner.standard().plan(spec(knobs));
  }
}
