package io.topolens.nccl;

import io.topolens.model.Evidence;
import io.topolens.model.InputFile;
import io.topolens.model.Job;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPInputStream;

/**
 * Reads NCCL debug logs into a {@link Job}. Inputs stream in blocks of whole lines; blocks parse on
 * all cores and are applied in order, so memory stays bounded by the blocks in flight plus what the
 * job holds (ranks, communicators, distinct connections), whatever the size of the logs.
 *
 * <p>Thread-safety: one reader per call of {@link #read}; it owns its worker threads.
 */
public final class NcclLogReader {
  /** The read buffer: lines longer than this are skipped as they stream by. */
  static final int BLOCK = 4 << 20;

  /** What one parse task reads: small, so it stays in cache and is no humongous object. */
  static final int SLICE = 256 << 10;

  /** Parse tasks queued per thread before the oldest is applied. */
  private static final int SLICES_IN_FLIGHT = 4;

  private final int threads;

  public NcclLogReader() {
    this(Runtime.getRuntime().availableProcessors());
  }

  public NcclLogReader(int threads) {
    this.threads = Math.max(1, threads);
  }

  /**
   * Initializes the tables every read makes first, in the calling thread: the line filter's needle
   * set (its key choice over NCCL's failure texts, read from the jar) and the message parser's
   * known lines. A caller may run it on a thread of its own while it starts ({@code
   * io.topolens.diagnose.Preload}); a read does the same itself when it comes first.
   */
  public static void prepare() {
    for (Class<?> c : new Class<?>[] {BlockParser.class, MessageParser.class, KnownLines.class}) {
      try {
        Class.forName(c.getName(), true, c.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        // the read meets the same error in its own thread and reports it
      }
    }
  }

  /** Reads every input; files that cannot be read are recorded with their problem, not thrown. */
  public Job read(LogInput.Expansion expansion) {
    return read(expansion, OtherLines.NONE);
  }

  /**
   * Reads every input, and hands the lines of other programs that {@code others} wants to its sink
   * on the way, in file order.
   */
  public Job read(LogInput.Expansion expansion, OtherLines others) {
    JobAssembler job = new JobAssembler();
    for (LogInput.Skipped s : expansion.skipped()) {
      job.input(new InputFile(s.name(), 0, 0, s.problem()));
    }
    // A parse thread can run out of heap outside its task (the pool's own bookkeeping), where no
    // Future carries the error: the JVM would print it as a stack trace. It is kept and thrown
    // here,
    // so out of memory stays the one-line error wherever the heap ran out.
    AtomicReference<OutOfMemoryError> outOfMemory = new AtomicReference<>();
    try (ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "topolens-parse");
              t.setDaemon(true);
              t.setUncaughtExceptionHandler(
                  (thread, e) -> {
                    if (e instanceof OutOfMemoryError oom) {
                      outOfMemory.compareAndSet(null, oom);
                    } else {
                      thread.getThreadGroup().uncaughtException(thread, e);
                    }
                  });
              return t;
            })) {
      for (LogInput input : expansion.inputs()) {
        job.input(readOne(input, job, pool, others));
      }
    }
    if (outOfMemory.get() != null) {
      throw outOfMemory.get();
    }
    return job.finish();
  }

  private InputFile readOne(
      LogInput input, JobAssembler job, ExecutorService pool, OtherLines others) {
    String name = input.name();
    long[] counts = {0, 0}; // lines, NCCL lines
    Deque<Future<BlockParser.Result>> inFlight = new ArrayDeque<>();
    long[] base = {0};
    EOFException broken;
    InputStream opened;
    try {
      opened = input.open();
    } catch (InputProblem e) {
      return new InputFile(name, 0, 0, e.getMessage().substring(name.length() + 2));
    }
    // a regular file read as it is can be read again at a line's place (standard input is spooled
    // to a file before it is read); a compressed one cannot
    Place place =
        new Place(
            name,
            input.path() != null && !(opened instanceof GZIPInputStream) ? input.path() : null);
    try (CutShortInput in = new CutShortInput(opened)) {
      // read straight into the array a parse task gets: a slice's bytes are copied once, by the
      // read. An array grows (up to BLOCK) only for a line longer than a slice.
      byte[] buf = new byte[SLICE];
      int filled = 0;
      boolean first = true;
      boolean skipping = false;
      long skippedBytes = 0;
      while (true) {
        int n = in.read(buf, filled, buf.length - filled);
        if (n < 0) {
          break;
        }
        filled += n;
        if (first && filled >= Math.min(buf.length, 8192)) {
          String binary = binaryProblem(buf, filled);
          if (binary != null) {
            return new InputFile(name, 0, 0, binary);
          }
          first = false;
        }
        if (filled < buf.length) {
          continue;
        }
        if (skipping) {
          // inside a line of BLOCK bytes or more: drop bytes until its end, keeping memory flat
          int nl = firstNewline(buf, filled);
          if (nl < 0) {
            skippedBytes += filled;
            place.consumed += filled;
            filled = 0;
            continue;
          }
          skippedBytes += nl;
          place.consumed += nl + 1;
          skipped(name, job, base, counts, skippedBytes);
          skipping = false;
          System.arraycopy(buf, nl + 1, buf, 0, filled - nl - 1);
          filled -= nl + 1;
          continue;
        }
        int cut = lastNewline(buf, filled);
        if (cut >= 0 && buf.length == SLICE && holdsLastError(buf, 0, cut)) {
          // the line after "Last error:" belongs to it: both go to the next slice
          cut = lastNewline(buf, 0, cut);
        }
        if (cut < 0) {
          if (buf.length < BLOCK) {
            buf = Arrays.copyOf(buf, Math.min(2 * buf.length, BLOCK));
            continue;
          }
          // an overlong line: blocks before it are applied first so line numbers stay in order
          applyAll(inFlight, place, job, base, others, counts);
          skipping = true;
          skippedBytes = filled;
          place.consumed += filled;
          filled = 0;
          continue;
        }
        int len = cut + 1;
        byte[] next = new byte[Math.max(SLICE, filled - len)];
        System.arraycopy(buf, len, next, 0, filled - len);
        submit(buf, len, pool, inFlight, others, place.consumed);
        buf = next;
        filled -= len;
        place.consumed += len;
        while (inFlight.size() > SLICES_IN_FLIGHT * threads) {
          apply(inFlight.poll(), place, job, base, others, counts);
        }
      }
      if (first && filled > 0) {
        String binary = binaryProblem(buf, filled);
        if (binary != null) {
          return new InputFile(name, 0, 0, binary);
        }
      }
      if (skipping) {
        int nl = firstNewline(buf, filled);
        skipped(name, job, base, counts, skippedBytes + (nl < 0 ? filled : nl));
        if (nl >= 0) {
          System.arraycopy(buf, nl + 1, buf, 0, filled - nl - 1);
          filled -= nl + 1;
          place.consumed += nl + 1;
        } else {
          place.consumed += filled;
          filled = 0;
        }
      }
      if (filled > 0) {
        submit(buf, filled, pool, inFlight, others, place.consumed);
        place.consumed += filled;
      }
      applyAll(inFlight, place, job, base, others, counts);
      broken = in.cut();
    } catch (IOException e) {
      inFlight.forEach(f -> f.cancel(true));
      return new InputFile(
          name,
          counts[0],
          counts[1],
          "read failed after line " + base[0] + ": " + LogInput.reason(e));
    }
    if (broken != null) {
      // the lines before the break were read and kept; the file is still named as broken
      return new InputFile(
          name,
          counts[0],
          counts[1],
          "read failed after line " + base[0] + ": " + LogInput.reason(broken));
    }
    if (counts[0] == 0) {
      return new InputFile(name, 0, 0, "empty file");
    }
    return new InputFile(name, counts[0], counts[1], null);
  }

  /** A line of {@code bytes} bytes, too long to hold, counted and reported as malformed. */
  private static void skipped(
      String name, JobAssembler job, long[] base, long[] counts, long bytes) {
    counts[0]++;
    base[0]++;
    job.malformed(
        new Evidence(
            name, base[0], "line of at least " + bytes + " bytes (not a log line), skipped"));
  }

  /**
   * Hands {@code buf[0, len)} (whole lines) to the parsers: the array itself when it is a slice (it
   * is the task's from now on), else cut into slices ({@link #submitSlices}).
   */
  private static void submit(
      byte[] buf,
      int len,
      ExecutorService pool,
      Deque<Future<BlockParser.Result>> inFlight,
      OtherLines others,
      long offset) {
    if (buf.length == SLICE) {
      inFlight.add(pool.submit(() -> BlockParser.parse(buf, len, others, offset)));
    } else {
      submitSlices(buf, len, pool, inFlight, others, offset);
    }
  }

  /**
   * Hands {@code buf[0, len)} (whole lines, a line longer than a slice among them) to the parsers
   * in slices of about {@link #SLICE} bytes cut at line ends; a slice holds at least one line,
   * however long. Slices are copies, small enough not to be humongous objects for G1 (half a
   * region).
   */
  private static void submitSlices(
      byte[] buf,
      int len,
      ExecutorService pool,
      Deque<Future<BlockParser.Result>> inFlight,
      OtherLines others,
      long offset) {
    int from = 0;
    while (from < len) {
      int to = Math.min(len, from + SLICE);
      if (to < len) {
        int nl = lastNewline(buf, from, to);
        to = nl >= 0 ? nl + 1 : nextNewline(buf, to, len) + 1;
        if (to < len && holdsLastError(buf, from, to - 1)) {
          // the line after "Last error:" belongs to it: keep both in one slice
          to = nextNewline(buf, to, len) + 1;
        }
      }
      byte[] slice = Arrays.copyOfRange(buf, from, to);
      long at = offset + from;
      inFlight.add(pool.submit(() -> BlockParser.parse(slice, slice.length, others, at)));
      from = to;
    }
  }

  /** Whether the line ending at {@code end} (its newline) holds {@link Needles#LAST_ERROR}. */
  private static boolean holdsLastError(byte[] b, int from, int end) {
    int start = lastNewline(b, from, end) + 1;
    String needle = Needles.LAST_ERROR;
    outer:
    for (int i = Math.max(start, from); i + needle.length() <= end; i++) {
      for (int k = 0; k < needle.length(); k++) {
        if (b[i + k] != needle.charAt(k)) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /** Applies every slice in flight, in order. */
  private static void applyAll(
      Deque<Future<BlockParser.Result>> inFlight,
      Place place,
      JobAssembler job,
      long[] base,
      OtherLines others,
      long[] counts) {
    while (!inFlight.isEmpty()) {
      apply(inFlight.poll(), place, job, base, others, counts);
    }
  }

  /** Applies one slice's lines to the job and adds its counts to {@code counts}. */
  private static void apply(
      Future<BlockParser.Result> future,
      Place place,
      JobAssembler job,
      long[] base,
      OtherLines others,
      long[] counts) {
    String name = place.name;
    BlockParser.Result r;
    try {
      r = future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error; // out of memory in a parser thread: the command says so in one line
      }
      // a defect of the parser, not of the input: still named by the file and the line after
      // which its slice starts, so the one-line error says where
      throw new IllegalStateException(
          name + ": parser failed after line " + base[0] + ": " + e.getCause(), e.getCause());
    }
    for (BlockParser.Parsed p : r.overlong()) {
      job.malformed(new Evidence(name, base[0] + p.line(), p.text()));
    }
    for (BlockParser.Parsed p : r.parsed()) {
      long line = base[0] + p.line();
      if (p.header() == null && p.event() instanceof NcclEvent.Unrecognized) {
        job.unrecognized(new Evidence(name, line, p.text()));
      } else if (p.header() == null) {
        job.acceptFramework(p.event(), name, line, p.text());
      } else {
        job.accept(p.header(), p.event(), name, line, p.text());
      }
    }
    if (r.other() != null) {
      others.sink().lines(new OtherLines.At(name, place.again, base[0], r.offset()), r.other());
    }
    base[0] += r.lines();
    counts[0] += r.lines();
    counts[1] += r.ncclLines();
  }

  /**
   * An input as its lines' places are told: its name, its path when it can be read again, and how
   * many of its bytes came before the read buffer's first.
   */
  private static final class Place {
    final String name;
    final Path again;
    long consumed;

    Place(String name, Path again) {
      this.name = name;
      this.again = again;
    }
  }

  private static int lastNewline(byte[] b, int len) {
    return lastNewline(b, 0, len);
  }

  private static int lastNewline(byte[] b, int from, int to) {
    for (int i = to - 1; i >= from; i--) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** The first newline at or after {@code from}; {@code len - 1} when there is none. */
  private static int nextNewline(byte[] b, int from, int len) {
    for (int i = from; i < len; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return len - 1;
  }

  private static int firstNewline(byte[] b, int len) {
    for (int i = 0; i < len; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** A problem sentence when the first bytes are not text, else null. */
  static String binaryProblem(byte[] b, int len) {
    int n = Math.min(len, 8192);
    int nul = 0;
    int nulOdd = 0;
    int control = 0;
    for (int i = 0; i < n; i++) {
      int c = b[i] & 0xff;
      if (c == 0) {
        nul++;
        if ((i & 1) == 1) {
          nulOdd++;
        }
      } else if (c < 0x09 || (c > 0x0d && c < 0x20 && c != 0x1b)) {
        control++;
      }
    }
    if (nul > 0 && n >= 2 && nul * 3 >= n && (nulOdd * 10 >= nul * 9 || nulOdd * 10 <= nul)) {
      return "looks like UTF-16 text, not UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)";
    }
    if (nul > 0 || control * 20 > n) {
      return "binary data, not a text log";
    }
    return null;
  }
}
