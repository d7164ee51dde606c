package io.topolens;

import io.topolens.model.Job;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
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
