package io.topolens.nccl;

/**
 * NCCL's line for each call the host enqueues, printed with {@code NCCL_DEBUG=INFO} and {@code
 * NCCL_DEBUG_SUBSYS} including {@code COLL} (enqueue.cc, the same words from 2.4 to 2.29): {@code
 * AllReduce: opCount 1f sendbuff 0x7ba3b8600400 recvbuff 0x7ba3b8600400 count 10 datatype 7 op 0
 * root 0 comm 0x342d8540 [nranks=2] stream 0x342d83f0}. The opCount (hex) counts the communicator's
 * operations; the comm pointer names the communicator in its process. Send and Recv print the same
 * line, and so do 2.28's AlltoAll, Gather and Scatter (collectives.cc's ncclFuncToString). Only the
 * call's name, its opCount and the comm pointer are read.
 */
final class CollectiveLine {
  private CollectiveLine() {}

  private static final String[] OPS = {
    "AllReduce",
    "AllGather",
    "ReduceScatter",
    "Broadcast",
    "Reduce",
    "Send",
    "Recv",
    "AlltoAll",
    "Gather",
    "Scatter"
  };

  private static final String OP_COUNT = ": opCount ";
  private static final String COMM = " comm ";

  /** The call a message states, or null when it is not such a line. */
  static NcclEvent.CollectiveCall parse(String m) {
    String op = op(m);
    if (op == null) {
      return null;
    }
    int from = op.length() + OP_COUNT.length();
    int to = from;
    while (to < m.length() && Character.digit(m.charAt(to), 16) >= 0) {
      to++;
    }
    if (to == from || to - from > 15 || to == m.length() || m.charAt(to) != ' ') {
      return null;
    }
    long opCount = Long.parseLong(m, from, to, 16);
    int comm = m.indexOf(COMM, to);
    if (comm < 0) {
      return null;
    }
    int ptrStart = comm + COMM.length();
    int ptrEnd = m.indexOf(' ', ptrStart);
    if (ptrEnd < 0) {
      ptrEnd = m.length();
    }
    if (ptrEnd == ptrStart) {
      return null;
    }
    return new NcclEvent.CollectiveCall(op, opCount, m.substring(ptrStart, ptrEnd));
  }

  private static String op(String m) {
    for (String op : OPS) {
      if (m.startsWith(op) && m.startsWith(OP_COUNT, op.length())) {
        return op;
      }
    }
    return null;
  }
}
