package io.topolens.present;

import io.topolens.diagnose.Diagnoser;
import io.topolens.diagnose.Diagnosis;
import io.topolens.model.Job;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@code diagnose --format json} does after the reading, on a job of thousands of ranks: the
 * rules, and the JSON document (its channels folded, written to a stream that drops it). The job is
 * read once from {@code bench-data/big-4096.log} (or {@code -Dtopolens.bigLog=FILE}), which {@code
 * python3 bench/make-big-log.py examples/h200-p2p/fsdp-p2p.log bench-data/big-4096.log hosts=1024}
 * makes (1024 hosts x 4 GPUs, one communicator). Run from the repository root: {@code java -jar
 * topolens-bench/target/benchmarks.jar SerialEnd} (docs/performance.md, tenth pass). Times are per
 * job; a real run does each once, mostly before the JIT has compiled it, so these measure the
 * compiled code only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SerialEnd {

  Job job;
  Diagnosis diagnosis;

  @Setup
  public void setUp() throws IOException {
    Path log = Path.of(System.getProperty("topolens.bigLog", "bench-data/big-4096.log"));
    if (!Files.isRegularFile(log)) {
      throw new IOException(
          log
              + " is missing: python3 bench/make-big-log.py examples/h200-p2p/fsdp-p2p.log"
              + " bench-data/big-4096.log hosts=1024");
    }
    job = new NcclLogReader().read(LogInput.expand(List.of(log.toString())));
    diagnosis = Diagnoser.standard().diagnose(job);
  }

  /** Every rule over the job ({@code Diagnoser.standard()}). */
  @Benchmark
  public Diagnosis rules() {
    return Diagnoser.standard().diagnose(job);
  }

  /** The JSON document of the diagnosis, channels folded. */
  @Benchmark
  public void writeJson() throws IOException {
    new JsonReport(true).write(diagnosis, OutputStream.nullOutputStream());
  }
}
