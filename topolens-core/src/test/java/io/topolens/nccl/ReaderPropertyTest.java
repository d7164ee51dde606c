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
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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

  /**
   * Random inputs from a seed, so that a failing case names its seed and can be replayed. (Plain
   * JUnit: the property-testing library this used before printed instructions into test output.)
   */
  static final class Gen {
    private static final String[] TEXT_SPECIAL = {
      "\t", "\r", "\n", "\r\n", "\u001b", "\u001b[0m", "\u001b[1;31m"
    };
    private static final String[] HEADER_PIECES = {
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
      "99999999999999999999"
    };
    private static final String[] CRI = {
      "2024-01-01T00:00:00.000000000Z stdout F ",
      "2024-01-01T00:00:00.000000000Z stderr F ",
      "2025-11-21T23:59:59.123456789Z stdout P "
    };

    private final Random r;

    Gen(long seed) {
      r = new Random(seed);
    }

    int index() {
      return r.nextInt(1_000_001);
    }

    int between(int min, int max) {
      return min + r.nextInt(max - min + 1);
    }

    boolean bool() {
      return r.nextBoolean();
    }

    long seed() {
      return r.nextLong();
    }

    String chars(char from, char to, int minLen, int maxLen) {
      StringBuilder sb = new StringBuilder();
      int n = between(minLen, maxLen);
      for (int i = 0; i < n; i++) {
        sb.append((char) (from + r.nextInt(to - from + 1)));
      }
      return sb.toString();
    }

    String launcherPrefix() {
      int rank = r.nextInt(512);
      return switch (r.nextInt(5)) {
        case 0 -> "[rank" + rank + "]:";
        case 1 -> "[rank" + rank + "]: ";
        case 2 -> CRI[r.nextInt(CRI.length)];
        case 3 -> "[1," + rank + "]<stdout>:";
        default -> "[1," + rank + "]<stderr>:";
      };
    }

    /**
     * Text that keeps the file text: printable ASCII, tab, CR, LF, ANSI escapes, high bytes (often
     * invalid UTF-8) and pieces of NCCL headers.
     */
    String textInsertion() {
      StringBuilder sb = new StringBuilder();
      int pieces = between(1, 6);
      for (int i = 0; i < pieces; i++) {
        int f = r.nextInt(12);
        if (f < 6) {
          sb.append(chars(' ', '~', 1, 4));
        } else if (f < 8) {
          sb.append(TEXT_SPECIAL[r.nextInt(TEXT_SPECIAL.length)]);
        } else if (f < 10) {
          sb.append(chars('\u0080', '\u00ff', 1, 3));
        } else {
          sb.append(HEADER_PIECES[r.nextInt(HEADER_PIECES.length)]);
        }
      }
      return sb.toString();
    }

    /** Any byte at all, NUL and control characters included. */
    String byteInsertion() {
      return chars('\u0000', '\u00ff', 1, 24);
    }

    Mutation mutation(boolean anyBytes) {
      return switch (r.nextInt(6)) {
        case 0 -> new Truncate(index(), index());
        case 1 -> new Insert(index(), index(), anyBytes ? byteInsertion() : textInsertion());
        case 2 -> new Duplicate(index());
        case 3 -> new Swap(index(), index());
        case 4 -> new Shuffle(seed());
        default -> new Prefix(index(), launcherPrefix());
      };
    }

    List<Mutation> mutations(boolean anyBytes) {
      List<Mutation> out = new ArrayList<>();
      int n = between(1, 30);
      for (int i = 0; i < n; i++) {
        out.add(mutation(anyBytes));
      }
      return out;
    }
  }

  static IntStream seeds300() {
    return IntStream.range(0, 300);
  }

  static IntStream seeds100() {
    return IntStream.range(0, 100);
  }

  static IntStream seeds16() {
    return IntStream.range(0, 16);
  }

  // ------------------------------------------------------------------ properties

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds300")
  void mutatedTextIsReadAndEveryLineCounted(int seed) {
    Gen gen = new Gen(seed);
    List<Mutation> mutations = gen.mutations(false);
    int threads = gen.between(1, 4);
    byte[] content = mutate(mutations);

    Job job = read(content, threads);

    InputFile f = job.inputs().get(0);
    assertThat(job.inputs()).hasSize(1);
    assertThat(f.problem()).as(mutations.toString()).isNull();
    assertCounts(job, content);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds300")
  void arbitraryBytesNeverThrow(int seed) {
    Gen gen = new Gen(1_000_000L + seed);
    List<Mutation> mutations = gen.mutations(true);
    int threads = gen.between(1, 4);
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

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds100")
  void launcherPrefixesDoNotChangeEdges(int seed) {
    Gen gen = new Gen(2_000_000L + seed);
    String prefix = gen.launcherPrefix();
    boolean mixPrefixes = gen.bool();
    int threads = gen.between(1, 4);
    List<String> choices =
        List.of(
            "[rank3]:",
            "[rank12]: ",
            "2024-01-01T00:00:00.000000000Z stdout F ",
            "[1,3]<stdout>:",
            prefix);
    Random random = new Random(gen.seed());
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
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds16")
  void blockBoundariesAndThreadsDoNotChangeEdges(int seed) {
    Gen gen = new Gen(3_000_000L + seed);
    int cutLine = gen.between(0, 100_000) % LINES.size();
    int intoLine = gen.between(0, 400);
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
