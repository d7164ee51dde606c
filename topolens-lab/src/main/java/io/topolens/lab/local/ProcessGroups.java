package io.topolens.lab.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Kills a process group on Linux: every process whose group id ({@code /proc/PID/stat}, field 5) is
 * the given one, children that outlived their parent included. Elsewhere it does nothing.
 */
final class ProcessGroups {
  private ProcessGroups() {}

  static void kill(long pgid) {
    ProcessHandle.allProcesses()
        .filter(h -> group(h.pid()) == pgid)
        .forEach(
            h -> {
              h.destroyForcibly();
              try {
                h.onExit().get(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (ExecutionException | TimeoutException e) {
                // a zombie waits for its parent to reap it; it holds nothing
              }
            });
  }

  /** The process group of {@code pid}, or -1 when it cannot be read. */
  static long group(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[2]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
