package io.topolens.model;

/**
 * The last collective one process called on one communicator, as NCCL printed it when the host
 * enqueued the call ({@code NCCL_DEBUG_SUBSYS=COLL}: {@code AllReduce: opCount 11 sendbuff ... comm
 * 0x... [nranks=2] stream ...}).
 *
 * @param process host:pid
 * @param commKey the communicator's commId, or {@code nranks=N} where its init lines printed none
 *     (null where no init line of the communicator was seen in this process)
 * @param rank the process's rank in the communicator, or -1 where unknown
 * @param op the call NCCL named ({@code AllReduce}, {@code Broadcast}, {@code Send} ...)
 * @param opCount NCCL's count of the communicator's operations at that call (printed in hex)
 * @param pointToPoint whether the process called Send or Recv on this communicator
 * @param last the line of that call
 */
public record CollectiveReached(
    String process,
    String commKey,
    int rank,
    String op,
    long opCount,
    boolean pointToPoint,
    Evidence last) {}
