package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.model.Evidence;
import io.topolens.model.InputFile;
import io.topolens.model.Job;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * Properties of {@link NcclLogReader} on real lines of the 4 x H200 FSDP log ({@code
 * fixtures/h200x4/fsdp/p2p.log}, NCCL 2.28.9), mutated: the reader never throws, counts every line,
 * never reports more NCCL lines than there are, ignores launcher prefixes, and gives the same
 * result whatever the thread count and wherever the 4 MiB block boundaries fall.
 */
class ReaderPropertyTest {

  private static final String FIXTURE = "/fixtures/h200x4/fsdp/p2p.log";
  private static final List<byte[]> LINES = fixtureLines();
  private static final byte[] CONTENT = join(LINES);
  private static final Job REFERENCE = read(CONTENT, 1);
  private static final byte[] NCCL = "NCCL".getBytes(StandardCharsets.US_ASCII);

  // ------------------------------------------------------------------ mutations

  /** One change to the list of lines; indexes are taken modulo the current sizes. */
  sealed interface Mutation {
    void apply(List<byte[]> lines);
  }

  /** Cuts a line at a position. */
  record Truncate(int line, int at) implements Mutation {
    @Override
    public void apply(List<byte[]> lines) {
      int i = line % lines.size();
      byte[] l = lines.get(i);
      lines.set(i, Arrays.copyOf(l, l.length == 0 ? 0 : at % l.length));
    }
  }

  /**
   * Inserts bytes (possibly newlines, NULs, escapes, high bytes) into a line; {@code latin1} holds
   * one byte per char.
   */
  record Insert(int line, int at, String latin1) implements Mutation {
    @Override
    public void apply(List<byte[]> lines) {
      int i = line % lines.size();
      byte[] l = lines.get(i);
      int pos = at % (l.length + 1);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(l, 0, pos);
      out.writeBytes(latin1.getBytes(StandardCharsets.ISO_8859_1));
      out.write(l, pos, l.length - pos);
      lines.set(i, out.toByteArray());
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("Insert[line=" + line + ", at=" + at + ", bytes=");
      latin1.chars().forEach(c -> sb.append(String.format("%02x ", c)));
      return sb.append(']').toString();
    }
  }

  /** Writes a line twice. */
  record Duplicate(int line) implements Mutation {
    @Override
    public void apply(List<byte[]> lines) {
      int i = line % lines.size();
      lines.add(i, lines.get(i));
    }
  }

  /** Exchanges two lines. */
  record Swap(int a, int b) implements Mutation {
    @Override
    public void apply(List<byte[]> lines) {
      Collections.swap(lines, a % lines.size(), b % lines.size());
    }
  }

  /** Shuffles every line. */
  record Shuffle(long seed) implements Mutation {
    @Override
    public void apply(List<byte[]> lines) {
      Collections.shuffle(lines, new Random(seed));
    }
  }

  /** Puts a launcher prefix before a line. */
  record Prefix(int line, String prefix) implements Mutation {
    @Override
    public void apply(List<byte[]> lines) {
      int i = line % lines.size();
      lines.set(i, concat(prefix.getBytes(StandardCharsets.UTF_8), lines.get(i)));
    }
  }

  @Provide
  Arbitrary<String> launcherPrefix() {
    Arbitrary<Integer> rank = Arbitraries.integers().between(0, 511);
    return Arbitraries.oneOf(
        rank.map(r -> "[rank" + r + "]:"),
        rank.map(r -> "[rank" + r + "]: "),
        Arbitraries.of(
            "2024-01-01T00:00:00.000000000Z stdout F ",
            "2024-01-01T00:00:00.000000000Z stderr F ",
            "2025-11-21T23:59:59.123456789Z stdout P "),
        rank.map(r -> "[1," + r + "]<stdout>:"),
        rank.map(r -> "[1," + r + "]<stderr>:"));
  }

  private Arbitrary<Mutation> mutation(Arbitrary<String> insertions) {
    Arbitrary<Integer> index = Arbitraries.integers().between(0, 1_000_000);
    return Arbitraries.oneOf(
        Combinators.combine(index, index).as(Truncate::new),
        Combinators.combine(index, index, insertions).as(Insert::new),
        index.map(Duplicate::new),
        Combinators.combine(index, index).as(Swap::new),
        Arbitraries.longs().map(Shuffle::new),
        Combinators.combine(index, launcherPrefix()).as(Prefix::new));
  }

  /**
   * Insertions that keep the file text: printable ASCII, tab, CR, LF, ANSI escapes, high bytes
   * (often invalid UTF-8) and pieces of NCCL headers.
   */
  @Provide
  Arbitrary<List<Mutation>> textMutations() {
    Arbitrary<String> piece =
        Arbitraries.frequencyOf(
            Tuple.of(
                6, Arbitraries.strings().withCharRange(' ', '~').ofMinLength(1).ofMaxLength(4)),
            Tuple.of(
                2, Arbitraries.of("\t", "\r", "\n", "\r\n", "\u001b", "\u001b[0m", "\u001b[1;31m")),
            Tuple.of(
                2,
                Arbitraries.strings()
                    .withCharRange('\u0080', '\u00ff')
                    .ofMinLength(1)
                    .ofMaxLength(3)),
            Tuple.of(
                2,
                Arbitraries.of(
                    "NCCL",
                    " NCCL INFO ",
                    " NCCL WARN ",
                    " [0] ",
                    " [-1] ",
                    "vm:1:2",
                    "vm:2246:2246 [0] NCCL INFO ",
                    ":",
                    "[",
                    "]",
                    " via ",
                    " -> ",
                    "99999999999999999999")));
    Arbitrary<String> insertion =
        piece.list().ofMinSize(1).ofMaxSize(6).map(l -> String.join("", l));
    return mutation(insertion).list().ofMinSize(1).ofMaxSize(30);
  }

  /** Any byte at all, NUL and control characters included. */
  @Provide
  Arbitrary<List<Mutation>> byteMutations() {
    Arbitrary<String> anyBytes =
        Arbitraries.strings().withCharRange('\u0000', '\u00ff').ofMinLength(1).ofMaxLength(24);
    return mutation(anyBytes).list().ofMinSize(1).ofMaxSize(30);
  }

  // ------------------------------------------------------------------ properties

  @Property(tries = 300)
  void mutatedTextIsReadAndEveryLineCounted(
      @ForAll("textMutations") List<Mutation> mutations,
      @ForAll @IntRange(min = 1, max = 4) int threads) {
    byte[] content = mutate(mutations);

    Job job = read(content, threads);

    InputFile f = job.inputs().get(0);
    assertThat(job.inputs()).hasSize(1);
    assertThat(f.problem()).isNull();
    assertCounts(job, content);
  }

  @Property(tries = 300)
  void arbitraryBytesNeverThrow(
      @ForAll("byteMutations") List<Mutation> mutations,
      @ForAll @IntRange(min = 1, max = 4) int threads) {
    byte[] content = mutate(mutations);

    Job job = read(content, threads);

    InputFile f = job.inputs().get(0);
    if (f.problem() == null) {
      assertCounts(job, content);
    } else {
      // only the first 8 KiB decide that a file is not text; then nothing of it is read
      assertThat(f.problem()).containsAnyOf("binary data", "UTF-16");
      assertThat(f.lines()).isZero();
      assertThat(f.ncclLines()).isZero();
    }
  }

  @Property(tries = 100)
  void launcherPrefixesDoNotChangeEdges(
      @ForAll("launcherPrefix") String prefix,
      @ForAll boolean mixPrefixes,
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 4) int threads) {
    List<String> choices =
        List.of(
            "[rank3]:",
            "[rank12]: ",
            "2024-01-01T00:00:00.000000000Z stdout F ",
            "[1,3]<stdout>:",
            prefix);
    Random random = new Random(seed);
    List<byte[]> lines = new ArrayList<>();
    for (byte[] l : LINES) {
      String p = mixPrefixes ? choices.get(random.nextInt(choices.size())) : prefix;
      lines.add(concat(p.getBytes(StandardCharsets.UTF_8), l));
    }

    Job job = read(join(lines), threads);

    assertThat(edges(job)).isNotEmpty().isEqualTo(edges(REFERENCE));
    InputFile f = job.inputs().get(0);
    InputFile ref = REFERENCE.inputs().get(0);
    assertThat(f.lines()).isEqualTo(ref.lines());
    assertThat(f.ncclLines()).isEqualTo(ref.ncclLines());
    assertThat(job.unrecognized().count()).isEqualTo(REFERENCE.unrecognized().count());
    assertThat(job.ranks()).hasSameSizeAs(REFERENCE.ranks());
  }

  /**
   * Places the 4 MiB block boundary at any line of the log (and any byte within it) by writing
   * filler lines first; one thread and three threads must both see what reading the log alone sees,
   * with line numbers shifted by the filler.
   */
  @Property(tries = 16)
  void blockBoundariesAndThreadsDoNotChangeEdges(
      @ForAll @IntRange(min = 0, max = 100_000) int cutLineSeed,
      @ForAll @IntRange(min = 0, max = 400) int intoLine) {
    int cutLine = cutLineSeed % LINES.size();
    int before = 0;
    for (int i = 0; i < cutLine; i++) {
      before += LINES.get(i).length + 1;
    }
    int fillerBytes = NcclLogReader.BLOCK - before - Math.min(intoLine, LINES.get(cutLine).length);
    byte[] filler = filler(fillerBytes);
    long fillerLines = countLines(filler);
    byte[] content = concat(filler, CONTENT);

    Job one = read(content, 1);
    Job three = read(content, 3);

    for (Job job : List.of(one, three)) {
      InputFile f = job.inputs().get(0);
      assertThat(f.problem()).isNull();
      assertThat(f.lines()).isEqualTo(fillerLines + LINES.size());
      assertThat(f.ncclLines()).isEqualTo(REFERENCE.inputs().get(0).ncclLines());
      assertThat(job.unrecognized().count()).isEqualTo(REFERENCE.unrecognized().count());
      assertThat(edges(job)).isNotEmpty().isEqualTo(edges(REFERENCE));
      assertThat(edgeEvidence(job, fillerLines)).isEqualTo(edgeEvidence(REFERENCE, 0));
    }
  }

  // ------------------------------------------------------------------ checks

  /** Line counts, NCCL line counts and evidence line numbers agree with the bytes written. */
  private static void assertCounts(Job job, byte[] content) {
    InputFile f = job.inputs().get(0);
    List<byte[]> raw = split(content);
    long ncclLooking =
        raw.stream().filter(l -> l.length <= BlockParser.MAX_LINE && contains(l, NCCL)).count();

    assertThat(f.lines()).as("lines").isEqualTo(raw.size());
    assertThat(f.ncclLines()).as("NCCL lines").isLessThanOrEqualTo(ncclLooking);
    assertThat(job.unrecognized().count()).as("unrecognized").isLessThanOrEqualTo(f.ncclLines());
    assertThat(job.malformed().count()).as("malformed").isZero();
    for (Evidence e : job.unrecognized().samples()) {
      assertEvidence(e, raw);
    }
    for (Communicator c : job.communicators()) {
      for (Edge e : c.edges()) {
        assertEvidence(e.evidence(), raw);
        assertThat(e.evidence().text()).contains(" via ");
      }
    }
  }

  /** Evidence points at the line it quotes. */
  private static void assertEvidence(Evidence e, List<byte[]> raw) {
    assertThat(e.line()).isBetween(1L, (long) raw.size());
    byte[] line = raw.get((int) e.line() - 1);
    assertThat(contains(line, NCCL)).as(e.toString()).isTrue();
    assertThat(e.text()).as(e.toString()).isEqualTo(BlockParser.decode(line, 0, line.length));
  }

  /** Every edge channel as (from, to, channel, transport, detail). */
  private static Set<String> edges(Job job) {
    Set<String> out = new TreeSet<>();
    for (Communicator c : job.communicators()) {
      for (Edge e : c.edges()) {
        for (int ch : e.channels()) {
          out.add(
              e.from() + "->" + e.to() + " ch" + ch + " " + e.transport() + " " + e.path().raw());
        }
      }
    }
    return out;
  }

  /** Each folded edge with the line and text of its evidence, line numbers less {@code shift}. */
  private static TreeMap<String, String> edgeEvidence(Job job, long shift) {
    TreeMap<String, String> out = new TreeMap<>();
    for (Communicator c : job.communicators()) {
      for (Edge e : c.edges()) {
        out.put(
            c.key()
                + " "
                + e.from()
                + "->"
                + e.to()
                + " "
                + e.direction()
                + " "
                + e.path().raw()
                + " "
                + e.channels(),
            (e.evidence().line() - shift) + ": " + e.evidence().text());
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ helpers

  private static byte[] mutate(List<Mutation> mutations) {
    List<byte[]> lines = new ArrayList<>(LINES);
    for (Mutation m : mutations) {
      m.apply(lines);
    }
    return join(lines);
  }

  /** Reads bytes through a temporary file, as the command line does. */
  private static Job read(byte[] content, int threads) {
    Path p = null;
    try {
      p = Files.createTempFile("topolens-prop", ".log");
      Files.write(p, content);
      return new NcclLogReader(threads).read(LogInput.expand(List.of(p.toString())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (p != null) {
        try {
          Files.deleteIfExists(p);
        } catch (IOException ignored) {
          // a leftover temp file is harmless
        }
      }
    }
  }

  private static List<byte[]> fixtureLines() {
    try (InputStream in = ReaderPropertyTest.class.getResourceAsStream(FIXTURE)) {
      if (in == null) {
        throw new IllegalStateException(FIXTURE + " is not on the test class path");
      }
      return List.copyOf(split(in.readAllBytes()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Lines as the reader sees them: split at LF, a last line without LF still a line. */
  private static List<byte[]> split(byte[] b) {
    List<byte[]> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < b.length; i++) {
      if (b[i] == '\n') {
        out.add(Arrays.copyOfRange(b, start, i));
        start = i + 1;
      }
    }
    if (start < b.length) {
      out.add(Arrays.copyOfRange(b, start, b.length));
    }
    return out;
  }

  private static long countLines(byte[] b) {
    return split(b).size();
  }

  private static byte[] join(List<byte[]> lines) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] l : lines) {
      out.write(l, 0, l.length);
      out.write('\n');
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** Exactly {@code n} bytes of whole non-NCCL lines of 100 bytes (the last one shorter). */
  private static byte[] filler(int n) {
    byte[] out = new byte[n];
    Arrays.fill(out, (byte) '.');
    for (int i = 99; i < n; i += 100) {
      out[i] = '\n';
    }
    out[n - 1] = '\n';
    return out;
  }

  private static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
