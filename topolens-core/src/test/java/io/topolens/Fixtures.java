package io.topolens;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.diagnose.Observed;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.model.Job;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
import io.topolens.verdict.BenchAnalysis;
import io.topolens.verdict.Expectations;
import io.topolens.verdict.Hardware;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Real logs bundled as test resources (see the README beside each folder for where they come from).
 */
public final class Fixtures {
  private Fixtures() {}

  public static Path path(String resource) {
    URL url = Fixtures.class.getResource("/" + resource);
    if (url == null) {
      throw new IllegalArgumentException("no test resource " + resource);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Reads resources (files or folders) as one job. */
  public static Job read(String... resources) {
    List<String> paths = Arrays.stream(resources).map(r -> path(r).toString()).toList();
    return new NcclLogReader(2).read(LogInput.expand(paths));
  }

  /**
   * Reads resources as {@code diagnose} does: NCCL logs, and beside them topology and nccl-tests
   * output, its runs judged against the built-in catalog.
   */
  public static Observed observe(String... resources) {
    List<String> paths = Arrays.stream(resources).map(r -> path(r).toString()).toList();
    Inputs in = new InputsReader(new NcclLogReader(1)).read(paths);
    return new Observed(
        in.job(),
        in.smi(),
        in.topologies(),
        BenchAnalysis.topology(in),
        new BenchAnalysis(new Expectations(HardwareCatalog.builtIn()))
            .judge(in, Hardware.unknown()));
  }

  /**
   * Every log ({@code .log}, {@code .jsonl}) below these folders (relative to the module, as {@code
   * src/test/resources} or {@code ../examples}), sorted.
   */
  public static Stream<Path> logs(String... folders) {
    List<Path> all = new ArrayList<>();
    for (String folder : folders) {
      try (Stream<Path> s = Files.walk(Path.of(folder))) {
        s.filter(p -> p.toString().endsWith(".log") || p.toString().endsWith(".jsonl"))
            .sorted()
            .forEach(all::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return all.stream();
  }
}
