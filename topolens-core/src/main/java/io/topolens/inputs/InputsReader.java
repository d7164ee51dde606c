package io.topolens.inputs;

import io.topolens.bench.BenchFile;
import io.topolens.bench.NcclTestsReader;
import io.topolens.model.Job;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
import io.topolens.ncclxml.NcclGraphReader;
import io.topolens.ncclxml.NcclGraphs;
import io.topolens.ncclxml.NcclTopology;
import io.topolens.ncclxml.NcclTopologyReader;
import io.topolens.smi.NvidiaSmiReader;
import io.topolens.smi.SmiReport;
import io.topolens.steps.StepTimeReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a mix of inputs (files, directories, stdin), each by the reader its content calls for: NCCL
 * logs, nvidia-smi output, NCCL topology and graph dumps, nccl-tests output. nccl-tests files are
 * also read as NCCL logs, for the NCCL lines interleaved with the table. The training framework's
 * step-time lines of the logs are read in the same pass ({@link StepTimeReader}).
 */
public final class InputsReader {
  private final NcclLogReader logReader;

  public InputsReader(NcclLogReader logReader) {
    this.logReader = logReader;
  }

  public Inputs read(List<String> args) {
    LogInput.Expansion expansion = LogInput.expand(args);
    List<LogInput> logs = new ArrayList<>();
    List<SmiReport> smi = new ArrayList<>();
    List<NcclTopology> topologies = new ArrayList<>();
    List<NcclGraphs> graphs = new ArrayList<>();
    List<BenchFile> benches = new ArrayList<>();
    List<Inputs.Routed> kinds = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Map<String, Job> benchLogs = new HashMap<>();
    for (LogInput given : expansion.inputs()) {
      LogInput in;
      try {
        in = given.path() == null ? spooled(given) : given;
      } catch (IOException e) {
        problems.add(given.name() + ": cannot read: " + e.getMessage());
        continue;
      }
      InputKind kind;
      try {
        kind = Sniffer.kind(in);
      } catch (InputProblem e) {
        // the log reader reports unreadable files in its own words
        logs.add(in);
        continue;
      }
      kinds.add(new Inputs.Routed(in.name(), kind));
      try {
        switch (kind) {
          case NCCL_LOG -> logs.add(in);
          case NVIDIA_SMI -> smi.add(new NvidiaSmiReader().read(in));
          case NCCL_TOPOLOGY_XML -> topologies.add(new NcclTopologyReader().read(in));
          case NCCL_GRAPH_XML -> graphs.add(new NcclGraphReader().read(in));
          case NCCL_TESTS -> {
            // its NCCL lines are diagnosed whatever becomes of the table
            logs.add(in);
            BenchFile bench = new NcclTestsReader().read(in.path(), in.name());
            benches.add(bench);
            if (bench.ncclLines() > 0) {
              benchLogs.put(
                  in.name(), logReader.read(new LogInput.Expansion(List.of(in), List.of())));
            }
          }
        }
      } catch (InputProblem e) {
        problems.add(e.getMessage());
      }
    }
    StepTimeReader steps = new StepTimeReader();
    Job job = logReader.read(new LogInput.Expansion(logs, expansion.skipped()), steps.lines());
    return new Inputs(
        job, smi, topologies, graphs, benches, kinds, problems, benchLogs, steps.finish());
  }

  /**
   * Standard input can be read once, but its kind must be told before it is read: it is copied to a
   * temporary file (deleted when topolens exits) and keeps its name in evidence.
   */
  private static LogInput spooled(LogInput stdin) throws IOException {
    Path tmp = Files.createTempFile("topolens-stdin", ".txt");
    tmp.toFile().deleteOnExit();
    try (InputStream in = System.in) {
      Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
    }
    return new LogInput(stdin.name(), tmp);
  }
}
