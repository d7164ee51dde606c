package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code topolens diagnose} end to end through {@link Main#run}: exit codes, what reaches stdout
 * and stderr, and the JSON shape, on the H200 fixture logs copied under {@code resources/logs}.
 */
class DiagnoseCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  private static Path log(String name) {
    try {
      return Path.of(DiagnoseCommandTest.class.getResource("/logs/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] bytes(String name) throws IOException {
    return Files.readAllBytes(log(name));
  }

  private static void assertNoStackTrace(CliRun r) {
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(r.out()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  /** Every edge of every communicator as "from->to ch transport detail", in output order. */
  private static List<String> edges(String json) throws IOException {
    JsonNode root = JSON.readTree(json);
    List<String> edges = new ArrayList<>();
    for (JsonNode c : root.get("communicators")) {
      for (JsonNode e : c.get("edges")) {
        edges.add(
            e.get("from").asInt()
                + "->"
                + e.get("to").asInt()
                + " ch"
                + e.get("channel").asInt()
                + " "
                + e.get("transport").asText()
                + " "
                + e.get("detail").asText());
      }
    }
    return edges;
  }

  /** The edges of a diagnosis that must exit with {@code code}. */
  private static List<String> jsonEdgesOf(int code, String... args) throws IOException {
    CliRun r = CliRun.of(args);
    assertThat(r.code()).as(r.err()).isEqualTo(code);
    return edges(r.out());
  }

  // ---------------------------------------------------------------- bad inputs

  /** Creates a bad input under the temp dir and returns the path to pass on the command line. */
  interface BadInput {
    Path create(Path dir) throws IOException;
  }

  static Stream<Arguments> badInputs() {
    return Stream.of(
        arguments(
            "empty file",
            (BadInput) d -> Files.write(d.resolve("empty.log"), new byte[0]),
            "empty file"),
        arguments(
            "binary file",
            (BadInput) d -> Files.write(d.resolve("core.bin"), randomBytesWithNuls(64 * 1024)),
            "binary data"),
        arguments(
            "UTF-16LE text",
            (BadInput)
                d ->
                    Files.write(
                        d.resolve("utf16.log"),
                        new String(bytes("p2p.log"), StandardCharsets.UTF_8)
                            .getBytes(StandardCharsets.UTF_16LE)),
            "UTF-16"),
        arguments(
            "only non-NCCL lines",
            (BadInput)
                d ->
                    Files.writeString(
                        d.resolve("app.log"),
                        "epoch 1 loss 0.31\nepoch 2 loss 0.27\nsaving checkpoint to /ckpt\n"),
            "no NCCL lines"),
        arguments(
            "missing path", (BadInput) d -> d.resolve("missing.log"), "no such file or directory"));
  }

  private static byte[] randomBytesWithNuls(int n) {
    byte[] b = new byte[n];
    new Random(42).nextBytes(b);
    for (int i = 0; i < n; i += 97) {
      b[i] = 0;
    }
    return b;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void badInputExitsTwoWithOneClearLineNamingTheFile(String label, BadInput input, String problem)
      throws IOException {
    Path p = input.create(tmp);

    CliRun r = CliRun.of("diagnose", p.toString());

    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertNoStackTrace(r);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).isNotEmpty().allMatch(l -> l.startsWith("topolens: "));
    List<String> naming = r.errLines().stream().filter(l -> l.contains(p.toString())).toList();
    assertThat(naming).as(r.err()).hasSize(1);
    assertThat(naming.get(0)).contains(problem);
  }

  /**
   * One line per bad input is the goal. Today every input that cannot be read (all but the "no NCCL
   * lines" case) prints a second, redundant summary line ("topolens: nothing could be read") after
   * the line naming the file.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void badInputPrintsExactlyOneStderrLine(String label, BadInput input, String problem)
      throws IOException {
    Path p = input.create(tmp);
    CliRun r = CliRun.of("diagnose", p.toString());
    assertThat(r.errLines()).as(r.err()).hasSize(1);
  }

  /** picocli names the option and the value on the first line, then prints the usage text. */
  @Test
  void unknownFormatIsAUsageError() {
    CliRun r = CliRun.of("diagnose", "--format", "xml", log("p2p.log").toString());

    assertThat(r.code()).isEqualTo(2);
    assertNoStackTrace(r);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines().get(0)).contains("--format").contains("xml").contains("json");
  }

  @ParameterizedTest
  @CsvSource({"0", "-2"})
  void threadsBelowOneAreRefused(int threads) {
    CliRun r =
        CliRun.of("diagnose", "--threads", String.valueOf(threads), log("p2p.log").toString());

    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines())
        .containsExactly("topolens: --threads must be at least 1, not " + threads);
  }

  @Test
  void bogusMinSeverityIsOneLine() {
    CliRun r = CliRun.of("diagnose", "--min-severity", "bogus", log("p2p.log").toString());

    assertThat(r.code()).isEqualTo(2);
    assertNoStackTrace(r);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.errLines().get(0))
        .startsWith("topolens: ")
        .contains("--min-severity")
        .contains("bogus");
  }

  @Test
  void unreadableFileInDirectoryIsReportedAndTheRestAnalysed() throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("logs"));
    Files.copy(log("p2p.log"), dir.resolve("good.log"));
    Path secret = Files.writeString(dir.resolve("secret.log"), "vm:1:1 [0] NCCL INFO x\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
    try {
      Assumptions.assumeFalse(
          Files.isReadable(secret), "chmod 000 does not stop this user (root) from reading");

      CliRun r = CliRun.of("diagnose", dir.toString());

      // the readable p2p.log has no error finding; the unreadable file is reported, not judged
      assertThat(r.code()).as(r.err()).isZero();
      assertNoStackTrace(r);
      assertThat(r.errLines())
          .anySatisfy(l -> assertThat(l).contains(secret.toString()).contains("permission denied"));
      assertThat(r.out()).contains("P2P/CUMEM");
    } finally {
      Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    }
  }

  /** Same as above but works as root: a dangling symlink cannot be read by anyone. */
  @Test
  void danglingLinkInDirectoryIsReportedAndTheRestAnalysed() throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("logs"));
    Files.copy(log("p2p.log"), dir.resolve("good.log"));
    Path link = dir.resolve("rank9.log");
    try {
      Files.createSymbolicLink(link, tmp.resolve("gone.log"));
    } catch (UnsupportedOperationException | IOException e) {
      Assumptions.abort("no symbolic links here: " + e);
    }

    CliRun r = CliRun.of("diagnose", dir.toString());

    assertThat(r.code()).as(r.err()).isZero();
    assertNoStackTrace(r);
    assertThat(r.errLines()).anySatisfy(l -> assertThat(l).contains(link.toString()));
    assertThat(r.out()).contains("P2P/CUMEM");
  }

  // ---------------------------------------------------------------- good inputs

  @Test
  void p2pLogHasNoErrors() {
    CliRun r = CliRun.of("diagnose", log("p2p.log").toString());

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).contains("P2P/CUMEM");
    assertNoStackTrace(r);
  }

  @Test
  void sockLogIsSameHostOverNetwork() {
    CliRun r = CliRun.of("diagnose", log("sock.log").toString());

    assertThat(r.code()).as(r.err()).isEqualTo(1);
    assertThat(r.out()).contains("same-host-over-network").contains("NET/Socket");
    assertNoStackTrace(r);
  }

  @ParameterizedTest
  @CsvSource({"p2p.log, 0", "sock.log, 1"})
  void jsonHasTheDocumentedShape(String name, int code) throws IOException {
    CliRun r = CliRun.of("diagnose", "--format", "json", log(name).toString());

    assertThat(r.code()).as(r.err()).isEqualTo(code);
    JsonNode root = JSON.readTree(r.out());
    assertThat(root.get("schema").asInt()).isEqualTo(1);
    for (String key :
        List.of("schema", "inputs", "job", "communicators", "findings", "unrecognized")) {
      assertThat(root.has(key)).as(key).isTrue();
    }
    assertThat(root.get("inputs")).hasSize(1);
    JsonNode input = root.get("inputs").get(0);
    assertThat(input.get("file").asText()).isEqualTo(log(name).toString());
    assertThat(input.get("lines").asLong()).isEqualTo(Files.readAllLines(log(name)).size());
    assertThat(input.get("problem").isNull()).isTrue();
    assertThat(root.get("job").get("rankCount").asInt()).isEqualTo(4);

    assertThat(root.get("communicators")).isNotEmpty();
    int edgeCount = 0;
    for (JsonNode c : root.get("communicators")) {
      for (JsonNode e : c.get("edges")) {
        edgeCount++;
        assertThat(e.get("from").isInt()).isTrue();
        assertThat(e.get("to").isInt()).isTrue();
        assertThat(e.get("channel").isInt()).isTrue();
        assertThat(e.get("transport").asText()).isIn("P2P", "SHM", "NET");
        assertThat(e.get("detail").asText()).isNotBlank();
      }
    }
    assertThat(edgeCount).isPositive();

    assertThat(root.get("findings")).isNotEmpty();
    for (JsonNode f : root.get("findings")) {
      for (String key : List.of("id", "severity", "title", "fix")) {
        assertThat(f.get(key).asText()).as(key).isNotBlank();
      }
      assertThat(f.get("severity").asText()).isIn("error", "warn", "info");
      assertThat(f.get("evidence")).isNotEmpty();
      for (JsonNode ev : f.get("evidence")) {
        assertThat(ev.get("file").asText()).isEqualTo(log(name).toString());
        assertThat(ev.get("line").asLong()).isPositive();
        assertThat(ev.get("text").asText()).contains("NCCL");
      }
    }
    assertThat(root.get("unrecognized").get("count").isIntegralNumber()).isTrue();
    assertThat(root.get("unrecognized").get("samples").isArray()).isTrue();
  }

  @Test
  void sockJsonCarriesTheErrorFinding() throws IOException {
    JsonNode root =
        JSON.readTree(CliRun.of("diagnose", "--format", "json", log("sock.log").toString()).out());
    List<String> ids = new ArrayList<>();
    root.get("findings")
        .forEach(f -> ids.add(f.get("severity").asText() + " " + f.get("id").asText()));
    assertThat(ids).contains("error same-host-over-network");
    assertThat(edges(root.toString())).allMatch(e -> e.contains(" NET NET/Socket/"));
  }

  @Test
  void gzipGivesTheSameEdgesAsPlain() throws IOException {
    Path gz = tmp.resolve("p2p.log.gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
      o.write(bytes("p2p.log"));
    }

    List<String> plain = jsonEdgesOf(0, "diagnose", "--format", "json", log("p2p.log").toString());
    List<String> zipped = jsonEdgesOf(0, "diagnose", "--format", "json", gz.toString());

    assertThat(plain).isNotEmpty().allMatch(e -> e.contains(" P2P P2P/CUMEM"));
    assertThat(zipped).isEqualTo(plain);
  }

  @Test
  void aTruncatedGzipIsNamedAsSuch() throws IOException {
    Path gz = tmp.resolve("p2p.log.gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
      o.write(bytes("p2p.log"));
    }
    byte[] all = Files.readAllBytes(gz);
    Path cut = tmp.resolve("cut.log.gz");
    Files.write(cut, java.util.Arrays.copyOf(all, all.length / 2));

    CliRun r = CliRun.of("diagnose", "--format", "json", cut.toString());

    // the lines before the cut are read and diagnosed, the file named as broken
    assertThat(r.errLines())
        .singleElement()
        .asString()
        .startsWith("topolens: " + cut + ": read failed after line ")
        .endsWith(": the file ends before its compressed data does (truncated .gz)");
    JsonNode input = JSON.readTree(r.out()).get("inputs").get(0);
    long read = input.get("lines").asLong();
    assertThat(read).isPositive().isLessThan(Files.readAllLines(log("p2p.log")).size());
    assertThat(r.errLines().get(0)).contains("after line " + read + ":");
    assertThat(input.get("ncclLines").asLong()).isEqualTo(read);
    CliRun text = CliRun.of("diagnose", cut.toString());
    assertThat(text.out())
        .contains(
            "  cut short "
                + cut
                + ": read failed after line "
                + read
                + ": the file ends before its compressed data does (truncated .gz) (its lines"
                + " before are read)");
  }

  @Test
  void readsStandardInput() throws IOException {
    CliRun r = CliRun.of(bytes("p2p.log"), "diagnose", "--format", "json", "-");

    assertThat(r.code()).as(r.err()).isZero();
    JsonNode root = JSON.readTree(r.out());
    assertThat(root.get("inputs").get(0).get("file").asText()).isEqualTo("<stdin>");
    assertThat(root.get("inputs").get(0).get("lines").asLong())
        .isEqualTo(Files.readAllLines(log("p2p.log")).size());
    assertThat(edges(r.out()))
        .isEqualTo(jsonEdgesOf(0, "diagnose", "--format", "json", log("p2p.log").toString()));
  }

  @Test
  void readsGzipFromStandardInput() throws IOException {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (OutputStream o = new GZIPOutputStream(gz)) {
      o.write(bytes("p2p.log"));
    }
    CliRun r = CliRun.of(gz.toByteArray(), "diagnose", "--format", "json", "-");

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(edges(r.out()))
        .isEqualTo(jsonEdgesOf(0, "diagnose", "--format", "json", log("p2p.log").toString()));
  }

  private Path hugeLineThen(byte[] tail, String name) throws IOException {
    Path p = tmp.resolve(name);
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) 'x');
    try (OutputStream o = Files.newOutputStream(p)) {
      for (int i = 0; i < 50; i++) {
        o.write(chunk);
      }
      o.write('\n');
      o.write(tail);
    }
    return p;
  }

  private void assertHugeLineSkipped(Path p, long expectedLines) throws IOException {
    CliRun r = CliRun.of("diagnose", "--format", "json", p.toString());

    assertThat(r.code()).as(r.err()).isNotEqualTo(2);
    assertNoStackTrace(r);
    JsonNode root = JSON.readTree(r.out());
    assertThat(root.get("malformed").get("count").asLong()).isEqualTo(1);
    assertThat(root.get("malformed").get("samples").get(0).get("line").asLong()).isEqualTo(1);
    assertThat(root.get("inputs").get(0).get("lines").asLong()).isEqualTo(expectedLines);
    assertThat(edges(r.out()))
        .isEqualTo(jsonEdgesOf(0, "diagnose", "--format", "json", log("p2p.log").toString()));
  }

  /**
   * Bug in NcclLogReader.readOne: when a line longer than a block (4 MiB) ends in the last, partly
   * filled buffer, the loop reaches EOF with {@code skipping} still set and the {@code else if
   * (skipping)} branch drops the whole rest of the buffer, NCCL lines included. Result: exit 2, "no
   * NCCL lines in FILE".
   */
  @Test
  void fiftyMegabyteLineThenNcclLines() throws IOException {
    byte[] tail = bytes("p2p.log");
    Path p = hugeLineThen(tail, "huge.log");
    assertHugeLineSkipped(p, 1 + Files.readAllLines(log("p2p.log")).size());
  }

  /** The part that works today: after the long line come more than 4 MiB of log. */
  @Test
  void fiftyMegabyteLineThenMoreThanABlockOfNcclLines() throws IOException {
    byte[] one = bytes("p2p.log");
    int copies = (5 << 20) / one.length + 1;
    ByteArrayOutputStream tail = new ByteArrayOutputStream();
    for (int i = 0; i < copies; i++) {
      tail.write(one);
    }
    Path p = hugeLineThen(tail.toByteArray(), "huge-long-tail.log");
    assertHugeLineSkipped(p, 1 + (long) copies * Files.readAllLines(log("p2p.log")).size());
  }

  static Stream<Arguments> decorations() {
    return Stream.of(
        arguments("CRLF", "", "", "\r\n"),
        arguments("ANSI reset around lines", "\u001b[0m", "\u001b[0m", "\n"),
        arguments("ANSI colour and CRLF", "\u001b[1;32m", "\u001b[0m", "\r\n"),
        arguments("ANSI reset and CRLF", "\u001b[0m", "\u001b[0m", "\r\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decorations")
  void crlfAndAnsiCodesParseLikeTheCleanFile(
      String label, String before, String after, String newline) throws IOException {
    for (String name : List.of("p2p.log", "sock.log")) {
      StringBuilder sb = new StringBuilder();
      for (String line : Files.readAllLines(log(name))) {
        sb.append(before).append(line).append(after).append(newline);
      }
      Path p = Files.writeString(tmp.resolve(label.replace(' ', '-') + "-" + name), sb);

      List<String> clean =
          jsonEdgesOf(
              name.equals("p2p.log") ? 0 : 1, "diagnose", "--format", "json", log(name).toString());
      CliRun r = CliRun.of("diagnose", "--format", "json", p.toString());

      assertThat(r.code()).as(r.err()).isEqualTo(name.equals("p2p.log") ? 0 : 1);
      assertThat(edges(r.out())).as(name).isNotEmpty().isEqualTo(clean);
      JsonNode root = JSON.readTree(r.out());
      for (JsonNode c : root.get("communicators")) {
        for (JsonNode e : c.get("edges")) {
          assertThat(e.get("detail").asText()).doesNotContain("\r").doesNotContain("\u001b");
        }
      }
    }
  }

  static Stream<Arguments> stepTimes() {
    return Stream.of(
        // the seeds' own job (seed 001, EFA run): the Trainer's last bar, 50/50 at 46.16 s/it
        arguments(
            "public/steps/hf-seed001-g6e-efa-rank0-tail.log", "huggingface", "rate", 46.16, 1, 2),
        // the H200 fixture's FSDP run: one JSON summary line with every step's time
        arguments(
            "public/steps/json-fsdp-summary-h200-p2p.log", "json", "measured", 0.096, 7, 250));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stepTimes")
  void jsonReportsTheJobsStepTime(
      String log, String framework, String derivation, double median, int count, int line)
      throws IOException {
    CliRun r = CliRun.of("diagnose", "--format", "json", CliRun.fixture(log));
    // neither log holds a finding above info: the seeds' tail is healthy, the H200 run too
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode steps = JSON.readTree(r.out()).get("steps");
    assertThat(steps.get("framework").asText()).isEqualTo(framework);
    assertThat(steps.get("derivation").asText()).isEqualTo(derivation);
    assertThat(steps.get("medianSeconds").asDouble()).isEqualTo(median);
    assertThat(steps.get("count").asInt()).isEqualTo(count);
    assertThat(steps.get("example").get("line").asInt()).isEqualTo(line);
    assertThat(steps.get("malformed").get("count").asInt()).isZero();
  }

  @Test
  void seed004HasTrainerLinesButNoStepTimeYet() throws IOException {
    String log = CliRun.fixture("seeds/004-eks-g6e-efa-fallback.log");
    JsonNode steps =
        JSON.readTree(CliRun.of("diagnose", "--format", "json", log).out()).get("steps");
    assertThat(steps.get("framework").asText()).isEqualTo("huggingface");
    assertThat(steps.get("medianSeconds").isNull()).isTrue();
    assertThat(steps.get("lines").get("huggingface").asInt()).isEqualTo(3);
    assertThat(CliRun.of("diagnose", log).out())
        .contains("  steps     no step time yet in 3 Hugging Face Trainer line(s)\n");
  }

  @Test
  void textShowsTheStepTimeUnderTheSummary() {
    CliRun r = CliRun.of("diagnose", CliRun.fixture("public/steps/json-fsdp-summary-h200-p2p.log"));
    assertThat(r.out())
        .contains(
            "  comms     1 communicator(s)\n  steps     0.096 s median (min 0.0906, max 0.1029) over 7"
                + " step(s), JSON lines, measured per step; 1 warm-up step(s) left out\n");
  }

  @Test
  void logsWithoutFrameworkLinesHaveNullSteps() throws IOException {
    String log = CliRun.fixture("seeds/001-g6e-shm-socket-libfabric.log");
    CliRun r = CliRun.of("diagnose", "--format", "json", log);
    assertThat(JSON.readTree(r.out()).get("steps").isNull()).isTrue();
    assertThat(CliRun.of("diagnose", log).out()).doesNotContain("  steps ");
  }
}
