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

  /**
   * A launcher's report that a rank failed whose cause is an earlier line of the log ({@code
   * ChildFailedError}, {@code exits with return code = 1}, {@code task 3: Exited with exit code
   * 1}): no finding, counted as a failure message but neither named nor a gap.
   */
  private static final String CONSEQUENCE = "consequence";

  private static final Set<String> NO_FINDING = Set.of(HEALTHY, UNNAMED, CONSEQUENCE);

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
    check(dir, messages(), Message::line, false);
  }

  /**
   * Each NCCL line pasted without its header (no {@code host:pid:tid [dev] file:line NCCL WARN}: an
   * issue title, a quote) gets the finding it gets with it, when its text holds one of NCCL's
   * failure texts (io/topolens/nccl/failure-texts.txt); one that holds none may give nothing (its
   * format has no literal of 16 bytes), and is listed in nccl/messages/untold.txt.
   */
  @Test
  void everyMessageWithoutItsHeaderGetsItsFinding(@TempDir Path dir) throws IOException {
    List<String> texts = failureTexts();
    List<Message> headerless = messages().stream().filter(m -> !m.level().equals("TEXT")).toList();
    List<Message> told =
        headerless.stream()
            .filter(m -> texts.stream().anyMatch(m.text()::contains))
            .map(
                m ->
                    BY_FILE.containsKey(m.text())
                        ? new Message(
                            m.row(),
                            BY_FILE.get(m.text()),
                            m.level(),
                            m.where(),
                            m.source(),
                            m.text())
                        : m)
            .toList();
    check(dir, told, Message::text, false);
    List<Message> untold =
        headerless.stream().filter(m -> texts.stream().noneMatch(m.text()::contains)).toList();
    check(dir, untold, Message::text, true);
    assertThat(untold.stream().filter(m -> !m.id().equals(HEALTHY)).map(Message::text))
        .as(
            "the failure rows no text of failure-texts.txt tells without their header"
                + " (nccl/messages/untold.txt: %d told, %d untold)",
            told.stream().filter(m -> !m.id().equals(HEALTHY)).count(),
            untold.stream().filter(m -> !m.id().equals(HEALTHY)).count())
        .containsExactlyElementsOf(lines("/nccl/messages/untold.txt"));
  }

  /**
   * Texts whose cause only NCCL's source file tells: without it, the finding of the text's general
   * meaning. CUDA 801 in {@code transport/nvls.cc} is multicast NVLink SHARP refused (nvls-error);
   * elsewhere, a feature the platform lacks (a vGPU without unified memory).
   */
  private static final java.util.Map<String, String> BY_FILE =
      java.util.Map.of("Cuda failure 'operation not supported'", "cuda-unsupported");

  /** A resource's lines, blank lines and {@code #} comments left out. */
  private static List<String> lines(String resource) throws IOException {
    try (InputStream in = MessageCoverageTest.class.getResourceAsStream(resource)) {
      return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).stream()
          .filter(l -> !l.isBlank() && !l.startsWith("#"))
          .toList();
    }
  }

  private static List<String> failureTexts() throws IOException {
    return lines("/io/topolens/nccl/failure-texts.txt").stream()
        .map(l -> l.split("\t")[0])
        .toList();
  }

  /**
   * Diagnoses each message alone, written by {@code line}: its finding is the one the list expects
   * (or, where {@code orNothing}, no finding at all).
   */
  private static void check(
      Path dir,
      List<Message> all,
      java.util.function.Function<Message, String> line,
      boolean orNothing)
      throws IOException {
    List<String> wrong = new ArrayList<>();
    TreeMap<String, int[]> byId = new TreeMap<>();
    int named = 0;
    int failures = 0;
    for (Message m : all) {
      Path log = dir.resolve("row" + m.row() + ".log");
      Files.writeString(log, line.apply(m) + "\n");
      Job job = new NcclLogReader(1).read(LogInput.expand(List.of(log.toString())));
      List<String> ids =
          Diagnoser.standard().diagnose(job).findings().stream()
              .map(Finding::id)
              .distinct()
              .toList();
      boolean ok =
          (orNothing && ids.isEmpty())
              || (NO_FINDING.contains(m.id())
                  ? ids.isEmpty()
                  : CATCH_ALL.contains(m.id())
                      ? ids.stream().allMatch(CATCH_ALL::contains) && ids.contains(m.id())
                      : ids.contains(m.id()));
      byId.computeIfAbsent(m.id(), k -> new int[2])[ok ? 0 : 1]++;
      if (!m.id().equals(HEALTHY)) {
        failures++;
        if (ok && !ids.isEmpty() && !CATCH_ALL.contains(m.id()) && !m.id().equals(UNNAMED)) {
          named++;
        }
      }
      if (!ok) {
        wrong.add("row " + m.row() + " expects " + m.id() + ", got " + ids + ": " + line.apply(m));
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
