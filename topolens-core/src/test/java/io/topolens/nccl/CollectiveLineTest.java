package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NCCL's call lines (NCCL_DEBUG_SUBSYS=COLL) as the test resources hold them, read to the call, its
 * opCount and the comm pointer; lines that only look alike are not calls.
 */
class CollectiveLineTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // message | op | opCount | comm pointer, or - for none
        // GF-Bench (2.20.5), torchtitan-1369 (set 27 l12), fixtures/h200x4/verbose (stream (nil))
        "`AllReduce: opCount 11 sendbuff 0x7939f0600400 recvbuff 0x7939f0600400 count 10 datatype 7"
            + " op 0 root 0 comm 0xd980bb0 [nranks=2] stream 0xd980a60` | AllReduce | 17 |"
            + " 0xd980bb0",
        "`AllGather: opCount d sendbuff 0x7fa921200000 recvbuff 0x7fa915800000 count 2097152"
            + " datatype 7 op 0 root 0 comm 0x55fca23fc0f0 [nranks=2] stream 0x55fca193e8e0` |"
            + " AllGather | 13 | 0x55fca23fc0f0",
        "`ReduceScatter: opCount e sendbuff 0x7fdf57c00000 recvbuff 0x7fdf61a00000 count 2097152"
            + " datatype 7 op 0 root 0 comm 0x55e290bd32d0 [nranks=2] stream 0x55e29067e430` |"
            + " ReduceScatter | 14 | 0x55e290bd32d0",
        "`Broadcast: opCount 0 sendbuff 0x7f5e39d10c00 recvbuff 0x7f5e39d10c00 count 16 datatype 1"
            + " op 0 root 0 comm 0x4483b3a0 [nranks=4] stream (nil)` | Broadcast | 0 | 0x4483b3a0",
        // the same form with the names of Reduce and Send (enqueue.cc prints one format for all)
        "`Reduce: opCount a sendbuff 0x7939f0600400 recvbuff 0x7939f0600400 count 10 datatype 7"
            + " op 0 root 0 comm 0xd980bb0 [nranks=2] stream 0xd980a60` | Reduce | 10 | 0xd980bb0",
        "`Send: opCount 5 sendbuff 0x7939f0600400 recvbuff 0x7939f0600400 count 10 datatype 7"
            + " op 0 root 1 comm 0xd980bb0 [nranks=2] stream 0xd980a60` | Send | 5 | 0xd980bb0",
        // 2.28's collectives print the same line (collectives.cc's ncclFuncToString names)
        "`AlltoAll: opCount 7 sendbuff 0x7939f0600400 recvbuff 0x7939f0700400 count 10 datatype 7"
            + " op 0 root 0 comm 0xd980bb0 [nranks=2] stream 0xd980a60` | AlltoAll | 7 | 0xd980bb0",
        "`Gather: opCount 8 sendbuff 0x7939f0600400 recvbuff 0x7939f0700400 count 10 datatype 7"
            + " op 0 root 1 comm 0xd980bb0 [nranks=2] stream 0xd980a60` | Gather | 8 | 0xd980bb0",
        "`Scatter: opCount 9 sendbuff 0x7939f0600400 recvbuff 0x7939f0700400 count 10 datatype 7"
            + " op 0 root 0 comm 0xd980bb0 [nranks=2] stream 0xd980a60` | Scatter | 9 | 0xd980bb0",
        // not calls: the tuning table, NCCL CALL's own form, no opCount number, no communicator
        "`    AllReduce |     8.8/   2.4 |    17.8/   0.0 |    56.0/   9.2 |` | - | 0 | -",
        "`ncclAllReduce(7c7cc6600200,7c7cc6600200,10,7,0,0,0x2152b590,0x1f956590)` | - | 0 | -",
        "`AllReduce: opCount sendbuff 0x7939f0600400 comm 0xd980bb0` | - | 0 | -",
        "`AllReduce: opCount 3 sendbuff 0x7939f0600400 recvbuff 0x7939f0600400 count 10` | - | 0 |"
            + " -",
        "`AllToAll: opCount 3 sendbuff 0x7939f0600400 comm 0xd980bb0 [nranks=2]` | - | 0 | -",
      })
  void readsTheCall(String message, String op, long opCount, String comm) {
    NcclEvent.CollectiveCall call = CollectiveLine.parse(message);
    if (op.equals("-")) {
      assertThat(call).isNull();
      return;
    }
    assertThat(call).isEqualTo(new NcclEvent.CollectiveCall(op, opCount, comm));
  }
}
