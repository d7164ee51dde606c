package io.topolens.kube.run;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Streams one container's log into a file as it is written ({@code follow=true}). What arrived is
 * on disk whatever happens next; if the stream breaks before the container ends, {@link
 * #complete()} fetches the whole log once it has.
 */
final class LogFollower implements AutoCloseable {
  private final KubernetesClient client;
  private final String namespace;
  private final String pod;
  private final String container;
  private final Path file;
  private final CompletableFuture<Throwable> done = new CompletableFuture<>();
  private Counting out;
  private LogWatch watch;
  private volatile boolean endedEarly;

  LogFollower(KubernetesClient client, String namespace, String pod, String container, Path file) {
    this.client = client;
    this.namespace = namespace;
    this.pod = pod;
    this.container = container;
    this.file = file;
  }

  void start() throws IOException {
    out = new Counting(Files.newOutputStream(file));
    try {
      watch =
          client.pods().inNamespace(namespace).withName(pod).inContainer(container).watchLog(out);
      watch.onClose().whenComplete((t, e) -> done.complete(e != null ? e : t));
    } catch (KubernetesClientException e) {
      done.complete(e);
    }
  }

  /** Waits up to {@code millis} for the stream to end by itself; true if it did. */
  boolean awaitEnd(long millis) throws InterruptedException {
    try {
      done.get(millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return true;
    }
  }

  boolean ended() {
    return done.isDone();
  }

  /** Notes that the stream ended while the container was still running: a dropped connection. */
  void containerStillRunning() {
    if (done.isDone()) {
      endedEarly = true;
    }
  }

  /** Why the stream broke, or null if it ended cleanly or has not ended. */
  Throwable error() {
    return done.isDone() ? done.getNow(null) : null;
  }

  long bytes() {
    return out == null ? 0 : out.count;
  }

  /**
   * After the container ended: when the stream broke or missed the end, writes the whole log
   * instead (it holds everything the stream had). Returns whether it did.
   */
  boolean complete() {
    try {
      String full =
          client.pods().inNamespace(namespace).withName(pod).inContainer(container).getLog();
      if (full != null && full.getBytes(StandardCharsets.UTF_8).length > bytes()) {
        close();
        Files.writeString(file, full, StandardCharsets.UTF_8);
        return true;
      }
    } catch (KubernetesClientException | IOException e) {
      // keep what the stream wrote
    }
    return false;
  }

  @Override
  public void close() {
    if (watch != null) {
      watch.close();
    }
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        // the file keeps what was flushed
      }
    }
  }

  /** Counts bytes and flushes each write, so a partial log is on disk at once. */
  private static final class Counting extends FilterOutputStream {
    volatile long count;

    Counting(OutputStream out) {
      super(out);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      out.flush();
      count += len;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      out.write(b);
      count++;
    }
  }
}
