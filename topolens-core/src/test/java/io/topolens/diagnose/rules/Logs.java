package io.topolens.diagnose.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Shared helper of the rule tests: writes synthetic NCCL logs to files named {@code a.log}, {@code
 * b.log}, ... (one per process or pod, as a user would pass them), reads them with the real reader
 * into a {@link Job}, and checks one rule's findings against a table row ({@link Case}).
 *
 * <p>Evidence is written as {@code "b.log:5"}: file and 1-based line. Every evidence line a rule
 * returns is also compared with the text of that line in the input, so a wrong line number cannot
 * pass.
 */
final class Logs {
  private Logs() {}

  /** Reads the given log texts, the first as {@code a.log}, the second as {@code b.log}, ... */
  static Job job(String... logs) {
    Path dir;
    try {
      dir = Files.createTempDirectory("topolens-ruletest");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      List<String> paths = new ArrayList<>();
      for (int i = 0; i < logs.length; i++) {
        Path p = dir.resolve(fileName(i));
        Files.writeString(p, logs[i]);
        paths.add(p.toString());
      }
      return new NcclLogReader(1).read(LogInput.expand(paths));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException ignored) {
        // a temp directory left behind is harmless
      }
    }
  }

  /**
   * A real excerpt from {@code src/test/resources/nccl/failures/} (sources in its README), as text.
   */
  static String excerpt(String name) {
    try (var in = Logs.class.getResourceAsStream("/nccl/failures/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no excerpt " + name);
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * No finding when {@code severity} is null; else exactly one, of this rule, severity and title,
   * whose first evidence reads {@code firstEvidence} ({@code where: text}).
   */
  static void expectOne(
      List<Finding> found, String rule, String severity, String title, String firstEvidence) {
    if (severity == null) {
      assertThat(found).isEmpty();
      return;
    }
    assertThat(found)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.id()).isEqualTo(rule);
              assertThat(f.severity().label()).isEqualTo(severity);
              assertThat(f.title()).isEqualTo(title);
              assertThat(f.evidence())
                  .first()
                  .extracting(Evidence::toString)
                  .isEqualTo(firstEvidence);
            });
  }

  /** The name the i-th log is read under: a.log, b.log, ... */
  static String fileName(int i) {
    return (char) ('a' + i) + ".log";
  }

  /** Evidence as {@code "a.log:3"}. */
  static String where(Evidence e) {
    return Path.of(e.file()).getFileName() + ":" + e.line();
  }

  /**
   * Rank {@code rank} (0 or 1) of the two-rank communicator {@code 0xabc}, one GPU per process
   * (cudaDev = rank), on {@code host}, where NCCL counted {@code nNodes} nodes and connected the
   * two ranks via {@code via}. The bootstrap address is {@link #address(String)} of the host, so
   * two processes of one host print the same one. Seven lines:
   *
   * <pre>
   * 1 Bootstrap: Using eth0:address(host)&lt;0&gt;
   * 2 NCCL version 2.27.3+cuda12.9
   * 3 ncclCommInitRankConfig ... - Init START
   * 4 comm 0x.. rank r nRanks 2 nNodes n localRanks l localRank k MNNVL 0
   * 5 NET: Channel 00/0 : peer -> rank [receive] via ...   otherwise: Channel 00/0 : rank -> peer via ...
   * 6 NET: Channel 00/0 : rank -> peer [send] via ...      otherwise: Channel 01/0 : rank -> peer via ...
   * 7 ncclCommInitRankConfig ... - Init COMPLETE
   * </pre>
   */
  static String rankOfTwo(int rank, String host, int nNodes, String via) {
    int peer = 1 - rank;
    int pid = 100 * (rank + 1);
    int localRanks = 2 / nNodes;
    int localRank = nNodes == 1 ? rank : 0;
    boolean net = via.startsWith("NET/");
    String first =
        net
            ? "Channel 00/0 : %d[%d] -> %d[%d] [receive] via %s"
                .formatted(peer, peer, rank, rank, via)
            : "Channel 00/0 : %d[%d] -> %d[%d] via %s".formatted(rank, rank, peer, peer, via);
    String second =
        net
            ? "Channel 00/0 : %d[%d] -> %d[%d] [send] via %s".formatted(rank, rank, peer, peer, via)
            : "Channel 01/0 : %d[%d] -> %d[%d] via %s".formatted(rank, rank, peer, peer, via);
    return """
        {h}:{p}:{p} [{r}] NCCL INFO Bootstrap: Using eth0:{ip}<0>
        {h}:{p}:{p} [{r}] NCCL INFO NCCL version 2.27.3+cuda12.9
        {h}:{p}:{t} [{r}] NCCL INFO ncclCommInitRankConfig comm 0x{r}0 rank {r} nranks 2 cudaDev {r} nvmlDev {r} busId {r}1000 commId 0xabc - Init START
        {h}:{p}:{t} [{r}] NCCL INFO comm 0x{r}0 rank {r} nRanks 2 nNodes {n} localRanks {lr} localRank {l} MNNVL 0
        {h}:{p}:{t} [{r}] NCCL INFO {first}
        {h}:{p}:{t} [{r}] NCCL INFO {second}
        {h}:{p}:{t} [{r}] NCCL INFO ncclCommInitRankConfig comm 0x{r}0 rank {r} nranks 2 cudaDev {r} nvmlDev {r} busId {r}1000 commId 0xabc - Init COMPLETE
        """
        .replace("{h}", host)
        .replace("{p}", String.valueOf(pid))
        .replace("{t}", String.valueOf(pid + 10))
        .replace("{r}", String.valueOf(rank))
        .replace("{ip}", address(host))
        .replace("{n}", String.valueOf(nNodes))
        .replace("{lr}", String.valueOf(localRanks))
        .replace("{l}", String.valueOf(localRank))
        .replace("{first}", first)
        .replace("{second}", second);
  }

  /**
   * A bootstrap address for a host: 10.0.0.x with x from the name (node-a: 10.0.0.97, node-b:
   * 10.0.0.98, vm: 10.0.0.109...). Processes of one host share it; NCCL tells machines that share a
   * hostname apart by it.
   */
  static String address(String host) {
    return "10.0.0." + (int) host.charAt(host.length() - 1);
  }

  // ---- table rows ----------------------------------------------------------------------------

  /** A table row with no expected findings yet. */
  static Case given(String name, String... logs) {
    return new Case(name, List.of(logs), Map.of(), List.of());
  }

  static Expect error(String... says) {
    return new Expect(Severity.ERROR, List.of(says), List.of(), List.of());
  }

  static Expect warn(String... says) {
    return new Expect(Severity.WARN, List.of(says), List.of(), List.of());
  }

  static Expect info(String... says) {
    return new Expect(Severity.INFO, List.of(says), List.of(), List.of());
  }

  /**
   * One row: logs, an optional pod-to-node map, and the findings the rule must return, in order
   * (none when {@link #expect} is not called).
   */
  record Case(String name, List<String> logs, Map<String, String> nodeMap, List<Expect> expected) {

    Case expect(Expect... findings) {
      return new Case(name, logs, nodeMap, List.of(findings));
    }

    /** A node map as pairs: pod, node, pod, node... */
    Case nodes(String... podThenNode) {
      Map<String, String> map = new LinkedHashMap<>();
      for (int i = 0; i + 1 < podThenNode.length; i += 2) {
        map.put(podThenNode[i], podThenNode[i + 1]);
      }
      return new Case(name, logs, map, expected);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * One expected finding: its severity, phrases its title, explanation or fix must contain, phrases
   * they must not contain, and its evidence lines exactly, in order (none unless {@link #at} says).
   */
  record Expect(Severity severity, List<String> says, List<String> lacks, List<String> evidence) {

    Expect at(String... lines) {
      return new Expect(severity, says, lacks, List.of(lines));
    }

    Expect lacks(String... phrases) {
      return new Expect(severity, says, List.of(phrases), evidence);
    }
  }

  /** Reads the row's logs, runs the rule alone and checks every expected finding. */
  static List<Finding> check(Rule rule, String id, Case c) {
    assertThat(rule.id()).isEqualTo(id);
    Job job = job(c.logs().toArray(String[]::new));
    if (!c.nodeMap().isEmpty()) {
      job = job.withNodes(c.nodeMap());
    }
    List<Finding> found = rule.check(job);
    assertThat(found)
        .as("findings of %s for \"%s\":%n%s", id, c.name(), render(found))
        .hasSize(c.expected().size());
    for (int i = 0; i < found.size(); i++) {
      Finding f = found.get(i);
      Expect e = c.expected().get(i);
      String text = f.title() + "\n" + f.explanation() + "\n" + f.fix();
      String about = "finding " + i + " of \"" + c.name() + "\":\n" + render(List.of(f));
      assertThat(f.id()).as(about).isEqualTo(id);
      assertThat(f.severity()).as(about).isEqualTo(e.severity());
      assertThat(f.title()).as(about).isNotBlank();
      assertThat(f.fix()).as(about).isNotBlank();
      assertThat(text).as(about).contains(e.says());
      for (String phrase : e.lacks()) {
        assertThat(text).as(about).doesNotContain(phrase);
      }
      assertThat(f.evidence())
          .as(about)
          .extracting(Logs::where)
          .containsExactlyElementsOf(e.evidence());
      for (Evidence ev : f.evidence()) {
        assertThat(ev.text()).as("text of evidence %s", where(ev)).isEqualTo(lineOf(c, ev));
      }
    }
    return found;
  }

  /** The input line an evidence names. */
  private static String lineOf(Case c, Evidence e) {
    String file = Path.of(e.file()).getFileName().toString();
    int index = file.charAt(0) - 'a';
    assertThat(index).as("evidence file %s", file).isBetween(0, c.logs().size() - 1);
    List<String> lines = c.logs().get(index).lines().toList();
    assertThat(e.line()).as("evidence line %s", where(e)).isBetween(1L, (long) lines.size());
    return lines.get((int) e.line() - 1);
  }

  static String render(List<Finding> findings) {
    StringBuilder out = new StringBuilder();
    for (Finding f : findings) {
      out.append("  ")
          .append(f.severity().label())
          .append(' ')
          .append(f.id())
          .append(": ")
          .append(f.title())
          .append("\n    ")
          .append(f.explanation())
          .append("\n    evidence ")
          .append(Arrays.toString(f.evidence().stream().map(Logs::where).toArray()))
          .append('\n');
    }
    return out.isEmpty() ? "  (none)" : out.toString();
  }
}
