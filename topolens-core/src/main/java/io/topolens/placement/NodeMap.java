package io.topolens.placement;

import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a pod-to-node map: one {@code POD NODE} pair per line, as {@code kubectl get pods -o
 * custom-columns=POD:.metadata.name,NODE:.spec.nodeName --no-headers} prints it. Blank lines and
 * {@code #} comments are skipped; a header line {@code POD NODE} is allowed.
 */
public final class NodeMap {
  private NodeMap() {}

  public static Map<String, String> read(Path file) throws InputProblem {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InputProblem(
          file
              + ": cannot read node map: "
              + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }
    Map<String, String> map = new LinkedHashMap<>();
    int n = 0;
    for (String raw : lines) {
      n++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split("\\s+");
      if (parts.length != 2) {
        throw new InputProblem(file + ":" + n + ": expected \"POD NODE\", got \"" + line + "\"");
      }
      if (n == 1 && parts[0].equalsIgnoreCase("POD") && parts[1].equalsIgnoreCase("NODE")) {
        continue;
      }
      // NCCL prints the hostname up to its first dot
      String pod = parts[0].contains(".") ? parts[0].substring(0, parts[0].indexOf('.')) : parts[0];
      map.put(pod, parts[1]);
    }
    if (map.isEmpty()) {
      throw new InputProblem(file + ": node map is empty");
    }
    return map;
  }
}
