package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.LineTexts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The stored line texts read back as they were put, whether kept whole or as their differences from
 * a recent text of the same length, in the block being filled or a deflated one.
 */
class LineTextsTest {

  static Stream<String> logs() {
    return Stream.of(
        "deepspeed-1825-steps-per-print.log",
        "deepspeed-3742-megatron-ds-timers.log",
        "deepspeed-accelerate-1589-timers-and-bar.log",
        "hf-alignment-handbook-63-loss-dicts.log",
        "hf-llamafactory-10488-train-metrics.log",
        "hf-seed001-g6e-efa-rank0-tail.log",
        "hf-transformers-262-cut-bars.log",
        "json-fsdp-step-h100.jsonl",
        "lightning-4225-epoch-bars.log",
        "megatron-756-iterations.log",
        "megatron-ds-alcf-sunspot-fwd-bwd.log",
        "torchtitan-2389-eight-ranks.log",
        "torchtitan-3393-steps.log");
  }

  /**
   * Every line of a real step log, many times over (so blocks fill and are deflated), with random
   * digits changed, as step lines change from one to the next.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void readsBackEveryLineOfAStepLog(String log) throws IOException {
    List<String> lines = lines(log);
    Random r = new Random(log.hashCode());
    List<String> texts = new ArrayList<>();
    for (int round = 0; round < 40; round++) {
      for (String line : lines) {
        String t = line.length() > FileSteps.CLIP ? line.substring(0, FileSteps.CLIP) : line;
        texts.add(round == 0 ? t : withDigitsChanged(t, r));
      }
    }
    assertReadBack(texts);
  }

  static Stream<List<String>> edges() {
    String a = "[2024-12-28 16:39:34,838] [INFO] global_step=643, CurrSamplesPerSec=4.40";
    String b = "[2024-12-28 16:39:37,949] [INFO] global_step=644, CurrSamplesPerSec=4.22";
    return Stream.of(
        List.of(a, a, a, b, a),
        List.of(a, b, "x" + a.substring(1), a.substring(0, a.length() - 1) + "y", b),
        // differing first and last bytes, wholly different text of the same length
        List.of("abcdef", "zbcdeg", "ZYXWVU", "abcdef", "abcdeg"),
        // non-ASCII (tqdm's bar), empty and one-byte texts
        List.of(" 37%|███▋      | 644/1722", " 37%|███▊      | 645/1722", "", "", "7", "8"),
        // a text longer than a block: a block of its own
        List.of(a, "9".repeat(40_000), b, "8".repeat(40_000), a));
  }

  @ParameterizedTest
  @MethodSource("edges")
  void readsBackEdgeCases(List<String> texts) {
    assertReadBack(texts);
  }

  @Test
  void adoptedTextsKeepTheirReferencesShifted() {
    List<String> one = new ArrayList<>();
    List<String> two = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      one.add("step=" + (100_000 + i) + " loss=" + (1000 + i % 997));
      two.add("iteration " + (200_000 + i) + " | time " + (3000 + i % 991));
    }
    LineTexts a = new LineTexts();
    LineTexts b = new LineTexts();
    long[] refsA = one.stream().mapToLong(a::put).toArray();
    long[] refsB = two.stream().mapToLong(b::put).toArray();
    long shift = a.adopt(b);
    for (int i = 0; i < one.size(); i++) {
      assertThat(a.get(refsA[i])).isEqualTo(one.get(i));
      assertThat(a.get(refsB[i] + shift)).isEqualTo(two.get(i));
    }
  }

  /**
   * Adopting seals the other store under that store's lock: a thread that holds it (putting, or
   * reading) keeps adopt waiting, not flushing the block it is filling under it.
   */
  @Test
  void adoptTakesTheOtherStoresLock() throws InterruptedException {
    LineTexts a = new LineTexts();
    LineTexts b = new LineTexts();
    long ref = b.put("node-a:1:1 [0] NCCL INFO Init COMPLETE");
    long[] shift = {-1};
    Thread adopter = new Thread(() -> shift[0] = a.adopt(b));
    synchronized (b) {
      adopter.start();
      long until = System.nanoTime() + 10_000_000_000L;
      while (adopter.getState() != Thread.State.BLOCKED
          && adopter.isAlive()
          && System.nanoTime() < until) {
        Thread.sleep(1);
      }
      assertThat(adopter.getState()).isEqualTo(Thread.State.BLOCKED);
    }
    adopter.join();
    assertThat(a.get(ref + shift[0])).isEqualTo("node-a:1:1 [0] NCCL INFO Init COMPLETE");
  }

  private static void assertReadBack(List<String> texts) {
    LineTexts store = new LineTexts();
    long[] refs = texts.stream().mapToLong(store::put).toArray();
    for (int i = 0; i < texts.size(); i++) {
      assertThat(store.get(refs[i])).as("text %d", i).isEqualTo(texts.get(i));
    }
    // and backwards, so blocks are read again after others
    for (int i = texts.size() - 1; i >= 0; i -= 7) {
      assertThat(store.get(refs[i])).as("text %d", i).isEqualTo(texts.get(i));
    }
  }

  private static String withDigitsChanged(String t, Random r) {
    char[] c = t.toCharArray();
    for (int i = 0; i < c.length; i++) {
      if (c[i] >= '0' && c[i] <= '9' && r.nextInt(3) == 0) {
        c[i] = (char) ('0' + r.nextInt(10));
      }
    }
    return new String(c);
  }

  private static List<String> lines(String log) throws IOException {
    try (InputStream in = LineTextsTest.class.getResourceAsStream("/public/steps/" + log)) {
      assertThat(in).as(log).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }
}
