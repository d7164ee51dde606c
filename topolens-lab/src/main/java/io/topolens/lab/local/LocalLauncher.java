package io.topolens.lab.local;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Starts {@code worldSize} processes of one command on this host as env:// ranks (RANK, WORLD_SIZE,
 * LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR=127.0.0.1, a free MASTER_PORT), writes each rank's
 * stdout and stderr to {@code rank-N.out}/{@code rank-N.err} in a log directory, and waits for them
 * all. When one rank fails, the timeout passes, the caller is interrupted or {@link #stop} is
 * called, every rank still running is killed with its children, so no rank waits forever on a
 * rendezvous that cannot complete. NVLink multicast stays off in every rank ({@link
 * #MULTICAST_OFF}, applied last so no variable given here turns it on).
 *
 * <p>With {@link #processGroups()} each rank leads its own process group ({@code setsid}): a
 * terminal's Ctrl-C no longer reaches the ranks directly, and killing a rank kills its whole group,
 * children that outlived their parent included.
 *
 * <p>Not thread-safe: one {@link #run} at a time per instance; {@link #stop} may come from any
 * thread.
 */
public final class LocalLauncher {

  /** How long the other ranks may go on after one failed before they are killed. */
  static final Duration GRACE = Duration.ofSeconds(5);

  /** NVLink multicast off in NCCL, PyTorch and NVSHMEM: on shared hosts it can wedge the GPUs. */
  public static final Map<String, String> MULTICAST_OFF =
      Map.of(
          "NCCL_NVLS_ENABLE", "0",
          "TORCH_SYMM_MEM_DISABLE_MULTICAST", "1",
          "NVSHMEM_DISABLE_NVLS", "1");

  private static final Path SETSID = Path.of("/usr/bin/setsid");

  private final List<String> command;
  private final int worldSize;
  private final Map<String, String> env = new LinkedHashMap<>();
  private IntFunction<Map<String, String>> rankEnv = r -> Map.of();
  private Duration timeout = Duration.ofMinutes(30);
  private Consumer<String> rank0Out;
  private Consumer<String> rank0Err;
  private Path workingDirectory;
  private boolean groups;
  private final List<Process> live = new ArrayList<>();
  private volatile boolean stopped;

  /** All ranks run {@code command} (interpreter, script and arguments). */
  public LocalLauncher(List<String> command, int worldSize) {
    if (worldSize < 1) {
      throw new IllegalArgumentException("world size must be at least 1, not " + worldSize);
    }
    this.command = List.copyOf(command);
    this.worldSize = worldSize;
  }

  /** Variables for every rank; they override the launcher's own, except {@link #MULTICAST_OFF}. */
  public LocalLauncher env(Map<String, String> vars) {
    env.putAll(vars);
    return this;
  }

  /**
   * Variables of one rank (CUDA_VISIBLE_DEVICES, NCCL_HOSTID, LOCAL_RANK of an emulated pod...),
   * applied last.
   */
  public LocalLauncher rankEnv(IntFunction<Map<String, String>> perRank) {
    this.rankEnv = perRank;
    return this;
  }

  public LocalLauncher timeout(Duration limit) {
    this.timeout = limit;
    return this;
  }

  /** The ranks' working directory (default: this process's). */
  public LocalLauncher workingDirectory(Path dir) {
    this.workingDirectory = dir;
    return this;
  }

  /**
   * Starts each rank as the leader of its own process group through {@code setsid} (where {@code
   * /usr/bin/setsid} exists), so that killing the rank kills its whole group.
   */
  public LocalLauncher processGroups() {
    this.groups = Files.isExecutable(SETSID);
    return this;
  }

  /**
   * Kills every rank running now and makes {@link #run} return; for a shutdown hook or another
   * thread. Returns once the ranks are dead. Later runs of this instance start nothing.
   */
  public void stop() {
    stopped = true;
    List<Process> now;
    synchronized (live) {
      now = List.copyOf(live);
    }
    for (Process p : now) {
      kill(p, groups);
    }
  }

  /** Also hands rank 0's stdout and stderr lines, as they come, to these (null: files only). */
  public LocalLauncher followRank0(Consumer<String> out, Consumer<String> err) {
    this.rank0Out = out;
    this.rank0Err = err;
    return this;
  }

  /**
   * What became of the ranks.
   *
   * @param exitCodes per rank; -1 for a rank killed before it exited by itself
   * @param logs the directory holding {@code rank-N.out} and {@code rank-N.err}
   * @param timedOut true when the timeout killed the ranks
   */
  public record Result(List<Integer> exitCodes, Path logs, boolean timedOut) {
    public boolean ok() {
      return !timedOut && exitCodes.stream().allMatch(c -> c == 0);
    }

    public Path stdout(int rank) {
      return logs.resolve("rank-" + rank + ".out");
    }

    public Path stderr(int rank) {
      return logs.resolve("rank-" + rank + ".err");
    }

    /**
     * What went wrong, in one line (the timeout, or the first rank that failed with its exit code
     * and the last line of its stderr); null when every rank succeeded.
     */
    public String failure() {
      if (timedOut) {
        return "timed out; the ranks were killed";
      }
      int bad = firstFailed();
      if (bad < 0) {
        return null;
      }
      int code = exitCodes.get(bad);
      return "rank "
          + bad
          + (code == -1 ? " was killed" : " exited with " + code)
          + ": "
          + lastLine(stderr(bad));
    }

    private static String lastLine(Path file) {
      try {
        if (!Files.exists(file)) {
          return "(no output)";
        }
        List<String> lines = Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "(no output)" : lines.getLast().strip();
      } catch (IOException | UncheckedIOException e) {
        return "(its output cannot be read: " + e.getMessage() + ")";
      }
    }

    /** The first rank that failed, or -1. */
    public int firstFailed() {
      for (int r = 0; r < exitCodes.size(); r++) {
        if (exitCodes.get(r) != 0) {
          return r;
        }
      }
      return -1;
    }
  }

  /** Runs the ranks to their end, writing their output under {@code logs}. */
  public Result run(Path logs) throws IOException, InterruptedException {
    Files.createDirectories(logs);
    int port = freePort();
    List<Process> procs = new ArrayList<>();
    List<Thread> pumps = new ArrayList<>();
    boolean timedOut = false;
    try {
      for (int r = 0; r < worldSize && !stopped; r++) {
        List<String> argv = new ArrayList<>();
        if (groups) {
          argv.add(SETSID.toString());
        }
        argv.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(argv);
        if (workingDirectory != null) {
          pb.directory(workingDirectory.toFile());
        }
        Map<String, String> e = pb.environment();
        e.put("RANK", Integer.toString(r));
        e.put("WORLD_SIZE", Integer.toString(worldSize));
        e.put("LOCAL_RANK", Integer.toString(r));
        e.put("LOCAL_WORLD_SIZE", Integer.toString(worldSize));
        e.put("MASTER_ADDR", "127.0.0.1");
        e.put("MASTER_PORT", Integer.toString(port));
        e.putAll(env);
        e.putAll(rankEnv.apply(r));
        e.putAll(MULTICAST_OFF);
        Path out = logs.resolve("rank-" + r + ".out");
        Path err = logs.resolve("rank-" + r + ".err");
        boolean follow = r == 0 && (rank0Out != null || rank0Err != null);
        if (follow) {
          pb.redirectOutput(ProcessBuilder.Redirect.PIPE)
              .redirectError(ProcessBuilder.Redirect.PIPE);
        } else {
          pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        }
        Process p = pb.start();
        procs.add(p);
        synchronized (live) {
          live.add(p);
        }
        if (follow) {
          pumps.add(pump(p.getInputStream(), out, rank0Out));
          pumps.add(pump(p.getErrorStream(), err, rank0Err));
        }
      }
      timedOut = !await(procs);
    } finally {
      for (Process p : procs) {
        kill(p, groups);
      }
      synchronized (live) {
        live.clear();
      }
      for (Thread t : pumps) {
        t.join(GRACE.toMillis());
      }
    }
    List<Integer> codes = new ArrayList<>();
    for (Process p : procs) {
      codes.add(p.isAlive() ? -1 : p.exitValue());
    }
    return new Result(List.copyOf(codes), logs, timedOut);
  }

  /**
   * Waits for every rank; after the first failure the rest get {@link #GRACE}. False on timeout.
   */
  private boolean await(List<Process> procs) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long failedAt = 0;
    while (true) {
      boolean running = false;
      for (Process p : procs) {
        if (p.isAlive()) {
          running = true;
        } else if (p.exitValue() != 0 && failedAt == 0) {
          failedAt = System.nanoTime();
        }
      }
      if (!running || stopped) {
        return true;
      }
      long now = System.nanoTime();
      if (now > deadline) {
        return false;
      }
      if (failedAt != 0 && now - failedAt > GRACE.toNanos()) {
        return true;
      }
      Thread.sleep(50);
    }
  }

  private static void kill(Process p, boolean group) {
    if (group) {
      ProcessGroups.kill(p.pid());
    }
    if (!p.isAlive()) {
      return;
    }
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    try {
      p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Thread pump(InputStream in, Path file, Consumer<String> sink) {
    Thread t =
        Thread.ofPlatform()
            .daemon()
            .start(
                () -> {
                  try (BufferedReader r =
                          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                      Writer w = new BufferedWriter(Files.newBufferedWriter(file))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                      w.write(line);
                      w.write('\n');
                      if (sink != null) {
                        sink.accept(line);
                      }
                    }
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });
    return t;
  }

  /** A TCP port free on loopback now (the rendezvous binds it a moment later). */
  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
