package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The reader parses only the last call line of each thread and communicator of a block, in line
 * order among the block's other lines, and drops none when a block holds more keys than its table.
 */
class LastCallsTest {

  private static final String SLOW = "nccl/gf-bench/slow_trial_1_0_6_20260715_001542/";

  @Test
  void keepsTheLastCallOfEachProcessAndCommunicator() throws IOException {
    byte[] b =
        (Files.readString(Fixtures.path(SLOW + "nccl_logs_2e194b931ff6_15980.txt"))
                + Files.readString(Fixtures.path(SLOW + "nccl_logs_2e194b931ff6_15981.txt")))
            .getBytes(StandardCharsets.UTF_8);

    List<NcclEvent.CollectiveCall> calls = calls(BlockParser.parse(b, b.length));

    // 17 calls of rank 0 and 18 of rank 1 in the block: the last of each
    assertThat(calls)
        .containsExactly(
            new NcclEvent.CollectiveCall("AllReduce", 0x10, "0x2152b590"),
            new NcclEvent.CollectiveCall("AllReduce", 0x11, "0xd980bb0"));
  }

  @Test
  void appliesEachCallBetweenTheLinesAroundIt() throws IOException {
    byte[] b =
        Files.readAllBytes(
            Fixtures.path(
                "nccl/gf-bench/normal_trial_2_iter10_timeout60_20260715_002044/"
                    + "nccl_logs_2e194b931ff6_18569.txt"));

    BlockParser.Result r = BlockParser.parse(b, b.length);

    List<Integer> lines = r.parsed().stream().map(BlockParser.Parsed::line).toList();
    assertThat(lines).isSorted();
    // the last call (opCount a, line 90) before the communicator's Abort COMPLETE (line 94)
    assertThat(r.parsed())
        .filteredOn(p -> p.event() instanceof NcclEvent.CollectiveCall)
        .singleElement()
        .satisfies(p -> assertThat(p.line()).isEqualTo(90));
  }

  /** GF-Bench's last call line on 300 communicators: more keys than the table holds, none lost. */
  @Test
  void dropsNoCallBeyondTheTable() throws IOException {
    String line =
        Files.readAllLines(Fixtures.path(SLOW + "nccl_logs_2e194b931ff6_15981.txt")).stream()
            .filter(l -> l.contains("opCount 11 "))
            .findFirst()
            .orElseThrow();
    String block =
        String.join(
                "\n",
                IntStream.rangeClosed(1, 300)
                    .mapToObj(
                        i -> line.replace("comm 0xd980bb0", "comm 0x" + Integer.toHexString(i)))
                    .toList())
            + "\n";
    byte[] b = block.getBytes(StandardCharsets.UTF_8);

    List<NcclEvent.CollectiveCall> calls = calls(BlockParser.parse(b, b.length));

    assertThat(LastCalls.MAX_KEYS).isLessThan(300);
    assertThat(calls).hasSize(300);
    assertThat(calls.getLast()).isEqualTo(new NcclEvent.CollectiveCall("AllReduce", 0x11, "0x12c"));
  }

  /**
   * The key is read on the bytes (speed15): a Send and a Recv on one communicator are one key (the
   * last of them kept), a call ending the block without a line break (its comm pointer the block's
   * last bytes) is read, and AllToAll (a trace form, not a call's line) is not.
   */
  @Test
  void readsTheKeyOnTheBytesToTheBlocksEnd() {
    String h = "node-1:4242:4250 [0] NCCL INFO ";
    String tail = " datatype 7 op 0 root 0 comm ";
    byte[] b =
        (h
                + "Send: opCount 1 sendbuff 0x1 recvbuff (nil) count 8"
                + tail
                + "0xa [nranks=2]\n"
                + h
                + "Recv: opCount 2 sendbuff (nil) recvbuff 0x2 count 8"
                + tail
                + "0xa\n"
                + h
                + "Send: opCount 3 sendbuff 0x1 recvbuff (nil) count 8"
                + tail
                + "0xa\n"
                + h
                + "AllToAll: opCount 4 sendbuff 0x1 recvbuff 0x2 count 8"
                + tail
                + "0xb\n"
                + h
                + "AllReduce: opCount 5 sendbuff 0x1 recvbuff 0x2 count 8"
                + tail
                + "0xb")
            .getBytes(StandardCharsets.UTF_8);

    List<NcclEvent.CollectiveCall> calls = calls(BlockParser.parse(b, b.length));

    assertThat(calls)
        .containsExactly(
            new NcclEvent.CollectiveCall("Send", 3, "0xa"),
            new NcclEvent.CollectiveCall("AllReduce", 5, "0xb"));
  }

  private static List<NcclEvent.CollectiveCall> calls(BlockParser.Result r) {
    return r.parsed().stream()
        .map(BlockParser.Parsed::event)
        .filter(e -> e instanceof NcclEvent.CollectiveCall)
        .map(e -> (NcclEvent.CollectiveCall) e)
        .toList();
  }
}
