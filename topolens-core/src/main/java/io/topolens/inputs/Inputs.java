package io.topolens.inputs;

import io.topolens.bench.BenchFile;
import io.topolens.model.Job;
import io.topolens.ncclxml.NcclGraphs;
import io.topolens.ncclxml.NcclTopology;
import io.topolens.smi.SmiReport;
import io.topolens.steps.StepTimes;
import java.util.List;
import java.util.Map;

/**
 * Everything read from a set of inputs, each file routed by its content.
 *
 * @param job the NCCL log lines of every log and nccl-tests file
 * @param kinds each input's name and kind, in order
 * @param problems inputs that could not be read, one line each ("file: problem")
 * @param benchLogs the NCCL lines of each nccl-tests file alone, by its name
 * @param steps the training frameworks' step times in the logs, read in the same pass
 */
public record Inputs(
    Job job,
    List<SmiReport> smi,
    List<NcclTopology> topologies,
    List<NcclGraphs> graphs,
    List<BenchFile> benches,
    List<Routed> kinds,
    List<String> problems,
    Map<String, Job> benchLogs,
    StepTimes steps) {

  /** One input and what it was read as. */
  public record Routed(String name, InputKind kind) {}

  public Inputs {
    smi = List.copyOf(smi);
    topologies = List.copyOf(topologies);
    graphs = List.copyOf(graphs);
    benches = List.copyOf(benches);
    kinds = List.copyOf(kinds);
    problems = List.copyOf(problems);
    benchLogs = Map.copyOf(benchLogs);
  }
}
