package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job too large for the heap the JVM was given (a 10 GiB log of 68,220 ranks under -Xmx256m did
 * this) gets one line saying so and how to give more, exit 2, not a stack trace: run in a child JVM
 * with a 16 MiB heap on a log of 50,000 ranks.
 */
class OutOfMemoryTest {

  @Test
  void aJobLargerThanTheHeapIsOneLineAndExitTwo(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path log = dir.resolve("ranks.log");
    int n = 50_000;
    try (Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      for (int r = 0; r < n; r++) {
        String head = "host%05d:%d:%d [%d] NCCL INFO ".formatted(r / 8, 1000 + r, 2000 + r, r % 8);
        w.write(
            head
                + "comm 0x55d5c%07x rank %d nranks %d cudaDev %d nvmlDev %d busId %d0000 commId 0x1234 - Init START\n"
                    .formatted(r, r, n, r % 8, r % 8, r % 8));
        w.write(
            head
                + "Channel 00/0 : %d[%d] -> %d[%d] [send] via NET/Socket/0\n"
                    .formatted(r, r % 8, (r + 1) % n, (r + 1) % 8));
      }
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p =
        new ProcessBuilder(
                java,
                "-Xmx16m",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "diagnose",
                log.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(err).isEqualTo(2);
    // one line; the heap size is what the JVM reports for -Xmx16m (16 with G1, a little less with
    // another collector)
    assertThat(err.lines().filter(l -> !l.isBlank()).toList())
        .singleElement()
        .asString()
        .matches(
            "topolens: out of memory: the inputs need more than the 1[0-6] MiB of heap this JVM may"
                + " use; run again with more, e.g. TOPOLENS_JAVA_OPTS=-Xmx8g");
  }
}
