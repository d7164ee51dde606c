package io.topolens.model;

/**
 * One rank's watchdog report that a collective did not finish in time: {@code [Rank 3] Watchdog
 * caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168,
 * NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out}. A rank
 * that prints it had entered the collective and waited for the others.
 *
 * @param rank the reporting rank in its process group, or -1 when not printed
 * @param seq the collective's sequence number in the process group (the same on every rank for the
 *     same call)
 * @param op the operation ({@code ALLREDUCE}, {@code _ALLGATHER_BASE}, {@code BROADCAST}...)
 * @param numelIn elements in, or -1 when the version did not print them
 * @param numelOut elements out, or -1
 * @param timeoutMs the timeout, or -1
 * @param ranForMs how long it ran before the watchdog gave up, or -1
 */
public record CollectiveTimeout(
    int rank,
    long seq,
    String op,
    long numelIn,
    long numelOut,
    long timeoutMs,
    long ranForMs,
    Evidence evidence) {}
