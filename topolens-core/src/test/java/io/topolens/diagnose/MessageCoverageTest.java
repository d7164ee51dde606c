package io.topolens.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Job;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failure messages NCCL, aws-ofi-nccl and PyTorch print, swept from their sources
 * (nccl/messages/README.md says how), each written as the log line a user sees and diagnosed alone:
 * every message's finding is the one the list expects. The list is the sweep's output; a new NCCL
 * version's messages are added to it as rows.
 */
class MessageCoverageTest {

  /** Findings that only catch what no rule explains: a row expecting one is not "named". */
  private static final Set<String> CATCH_ALL = Set.of("nccl-warning", "nccl-error");

  /** A healthy line: no finding at all, and not a failure message. */
  private static final String HEALTHY = "-";

  /**
   * A failure message no rule names yet and no finding cites: a known gap, counted as not named.
   */
  private static final String UNNAMED = "unnamed";

  private static final Set<String> NO_FINDING = Set.of(HEALTHY, UNNAMED);

  /** One row of messages.tsv. */
  record Message(int row, String id, String level, String where, String source, String text) {

    /** The line as NCCL prints it: WARN lines carry file:line, INFO lines do not. */
    String line() {
      String header = "node-a:4021:4090 [0] ";
      return switch (level) {
        case "WARN" -> header + where + " NCCL WARN " + text;
        case "INFO" -> header + "NCCL INFO " + text;
        default -> text;
      };
    }
  }

  static List<Message> messages() {
    try (InputStream in =
        MessageCoverageTest.class.getResourceAsStream("/nccl/messages/messages.tsv")) {
      List<Message> out = new ArrayList<>();
      String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
      for (int i = 0; i < lines.length; i++) {
        String l = lines[i];
        if (l.isBlank() || l.startsWith("#")) {
          continue;
        }
        String[] f = l.split("\t", -1);
        assertThat(f)
            .as("messages.tsv row %d: id, level, where, source, message", i + 1)
            .hasSize(5);
        out.add(new Message(i + 1, f[0], f[1], f[2], f[3], f[4]));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void everyMessageGetsItsFinding(@TempDir Path dir) throws IOException {
    List<Message> all = messages();
    List<String> wrong = new ArrayList<>();
    TreeMap<String, int[]> byId = new TreeMap<>();
    int named = 0;
    int failures = 0;
    for (Message m : all) {
      Path log = dir.resolve("row" + m.row() + ".log");
      Files.writeString(log, m.line() + "\n");
      Job job = new NcclLogReader(1).read(LogInput.expand(List.of(log.toString())));
      List<String> ids =
          Diagnoser.standard().diagnose(job).findings().stream()
              .map(Finding::id)
              .distinct()
              .toList();
      boolean ok =
          NO_FINDING.contains(m.id())
              ? ids.isEmpty()
              : CATCH_ALL.contains(m.id())
                  ? ids.stream().allMatch(CATCH_ALL::contains) && ids.contains(m.id())
                  : ids.contains(m.id());
      byId.computeIfAbsent(m.id(), k -> new int[2])[ok ? 0 : 1]++;
      if (!m.id().equals(HEALTHY)) {
        failures++;
        if (ok && !CATCH_ALL.contains(m.id()) && !m.id().equals(UNNAMED)) {
          named++;
        }
      }
      if (!ok) {
        wrong.add("row " + m.row() + " expects " + m.id() + ", got " + ids + ": " + m.line());
      }
    }
    StringBuilder summary = new StringBuilder();
    summary.append(
        "failure messages named by a specific finding: %d of %d (%d rows in all)%n"
            .formatted(named, failures, all.size()));
    byId.forEach(
        (id, n) -> summary.append("  %-26s ok %3d  wrong %3d%n".formatted(id, n[0], n[1])));
    assertThat(wrong).as("%s%n%s", summary, String.join("\n", wrong)).isEmpty();
  }
}
