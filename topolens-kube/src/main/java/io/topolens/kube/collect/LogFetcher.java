package io.topolens.kube.collect;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Loggable;
import io.topolens.kube.run.ClusterProblems;
import io.topolens.kube.run.RunListener;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fetches container logs into files, at most {@code parallel} at a time, each streamed from the API
 * server to its file (memory per fetch is one copy buffer, whatever the log's size). Says how far
 * it is on the listener about every tenth of the way. Thread-safe for one {@link #fetch} at a time.
 */
final class LogFetcher {
  /** One log to read: a container's current attempt, or its previous one. */
  record Task(String pod, String container, boolean previous, Path file) {
    String label() {
      return container + (previous ? " (previous)" : "");
    }
  }

  /** What became of a task: the bytes written, or why there are none. */
  record Result(Task task, long bytes, GoneLog gone) {}

  private final KubernetesClient client;
  private final String namespace;
  private final String server;
  private final int parallel;
  private final RunListener listener;

  LogFetcher(
      KubernetesClient client, String namespace, String server, int parallel, RunListener l) {
    this.client = client;
    this.namespace = namespace;
    this.server = server;
    this.parallel = parallel;
    this.listener = l;
  }

  /** Fetches every task; a refusal (403) stops the others and is thrown. */
  List<Result> fetch(List<Task> tasks) throws InputProblem {
    AtomicInteger done = new AtomicInteger();
    AtomicLong bytes = new AtomicLong();
    AtomicReference<InputProblem> refused = new AtomicReference<>();
    int step = Math.max(1, tasks.size() / 10);
    List<Future<Result>> futures = new ArrayList<>();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(parallel, tasks.size())),
            Thread.ofPlatform().name("topolens-logs-", 0).daemon().factory());
    try {
      for (Task t : tasks) {
        futures.add(
            pool.submit(
                () -> {
                  Result r = refused.get() != null ? null : one(t, refused);
                  // counted and told under one lock, so that the lines come in order with their
                  // sums
                  synchronized (done) {
                    long b = bytes.addAndGet(r == null ? 0 : r.bytes());
                    int n = done.incrementAndGet();
                    if (n % step == 0 || n == tasks.size()) {
                      listener.progress(
                          String.format(
                              Locale.ROOT, "fetched %d/%d logs (%s)", n, tasks.size(), size(b)));
                    }
                  }
                  return r;
                }));
      }
      List<Result> out = new ArrayList<>();
      for (Future<Result> f : futures) {
        Result r = f.get();
        if (r != null) {
          out.add(r);
        }
      }
      if (refused.get() != null) {
        throw refused.get();
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InputProblem("interrupted while fetching logs");
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private Result one(Task t, AtomicReference<InputProblem> refused) {
    var container =
        client.pods().inNamespace(namespace).withName(t.pod()).inContainer(t.container());
    Loggable log = t.previous() ? container.terminated() : container;
    try (InputStream in = log.getLogInputStream()) {
      if (in == null) {
        return gone(t, "the API server returned no log");
      }
      try (OutputStream out = Files.newOutputStream(t.file())) {
        return new Result(t, in.transferTo(out), null);
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() == 403) {
        refused.compareAndSet(null, Access.problem(e, "get", "pods/log", namespace, server));
        return null;
      }
      return gone(t, reason(e));
    } catch (IOException e) {
      return gone(t, "the stream broke: " + e.getMessage());
    }
  }

  private Result gone(Task t, String why) {
    try {
      Files.deleteIfExists(t.file());
    } catch (IOException e) {
      // an empty file is harmless
    }
    return new Result(t, 0, new GoneLog(t.pod(), t.label(), why));
  }

  /** The API server's words (the kubelet's, for a log it no longer keeps). */
  private static String reason(KubernetesClientException e) {
    String m =
        e.getStatus() != null && e.getStatus().getMessage() != null
            ? e.getStatus().getMessage()
            : ClusterProblems.firstLine(e.getMessage());
    return (e.getCode() > 0 ? e.getCode() + ": " : "") + ClusterProblems.firstLine(m);
  }

  static String size(long bytes) {
    return bytes < 1 << 20
        ? String.format(Locale.ROOT, "%.1f KB", bytes / 1e3)
        : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }
}
