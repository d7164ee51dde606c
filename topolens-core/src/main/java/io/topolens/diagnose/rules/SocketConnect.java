package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * {@code socket-connect}: NCCL's TCP connections between ranks (bootstrap, or the socket transport)
 * failed: {@code Call to connect returned Connection timed out|refused, retrying}, {@code Connect
 * to ADDR failed}, {@code socketStartConnect}/{@code socketPollConnect} errors; a connection of the
 * wrong kind arrived ({@code socketFinalizeAccept: wrong type}); or a peer closed its connection
 * ({@code Connection closed by remote peer}, {@code Connection reset by peer}); also the forms
 * before 2.4 ({@code Call to connect failed : Connection timed out}, {@code Call to connect timeout
 * : Connection refused}, {@code Call to recv failed : Connection reset by peer}).
 */
public final class SocketConnect implements Rule {

  /** Refusals retried this often with no connection shown say nothing listened all along. */
  private static final int REPEATED = 3;

  @Override
  public String id() {
    return "socket-connect";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>();
    List<NcclWarning> failed = socket(job, SocketConnect::connectFailed);
    List<NcclWarning> retried =
        socket(
            job,
            m ->
                (m.contains("connect returned")
                        || (m.contains("connect to ") && m.contains(" returned ")))
                    && !connectFailed(m));
    if (!failed.isEmpty() || !retried.isEmpty()) {
      List<NcclWarning> all = new ArrayList<>(failed);
      all.addAll(retried);
      boolean refused = all.stream().anyMatch(SocketConnect::refused);
      boolean timedOut =
          all.stream()
              .anyMatch(
                  w -> w.detail() instanceof NcclWarning.Detail.ConnectError e && e.timedOut());
      if (failed.isEmpty()
          && refused
          && all.stream().allMatch(SocketConnect::refused)
          && all.stream().mapToLong(NcclWarning::count).sum() >= REPEATED
          && job.communicators().isEmpty()) {
        out.add(onlyRefused(all));
      } else {
        out.add(generic(all, failed.isEmpty(), refused, timedOut));
      }
    }

    List<NcclWarning> wrongType = socket(job, m -> m.contains("wrong type"));
    if (!wrongType.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "A connection NCCL did not expect reached its socket (wrong type)",
              "NCCL checks the first bytes of every connection to its listening socket; these did not come from"
                  + " the NCCL connection it waited for. Most often one rank uses an RDMA network plugin while its"
                  + " peers fell back to sockets (or the other way round): a setting such as NCCL_IB_DISABLE,"
                  + " NCCL_NET or the plugin's library path reached some ranks only. Else ranks running different"
                  + " NCCL versions, another job or a leftover process reusing the same address and port, or a"
                  + " scanner connecting to the port.",
              wrongType.stream().map(NcclWarning::evidence).toList(),
              "Check every rank printed the same NCCL_* settings and \"Using network\" line (export them to all"
                  + " ranks: torchrun and mpirun do not forward the environment of the launching shell everywhere);"
                  + " run one NCCL version everywhere (one image digest); give each job its own MASTER_PORT and kill"
                  + " stale processes."));
    }
    List<NcclWarning> closed =
        socket(
            job,
            m ->
                m.contains("closed by remote peer")
                    || m.contains("reset by peer")
                    || m.contains("connection closed")
                    || m.contains("broken pipe")
                    || m.contains("socket progress error"));
    if (!closed.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.WARN,
              "A peer closed its NCCL connection",
              "The remote rank closed or reset the connection: it exited, crashed, was killed (out of memory,"
                  + " preemption) or aborted its communicator after its own error. This rank is a victim.",
              closed.stream().map(NcclWarning::evidence).toList(),
              "Look at the logs of the peer named in the line (its address) for the error that came first."));
    }
    // NCCL's RAS (2.24+) gave up on a peer: keep-alive, connect retry, stuck send, collective
    List<NcclWarning> ras = socket(job, m -> m.startsWith("ras "));
    if (!ras.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.WARN,
              "NCCL's RAS lost contact with a peer process",
              "NCCL's reliability service (RAS, NCCL 2.24+) keeps a socket to other processes of the job and"
                  + " gave up on the one the line names: no keep-alive for the timeout it prints, connects that"
                  + " kept failing, a send that did not move, or a RAS collective it answered no more. That"
                  + " process died, hangs (a GPU or a CUDA call stuck, the host frozen) or its node is unreachable"
                  + " on the network; collectives with it hang or fail. This rank is a victim.",
              ras.stream().map(NcclWarning::evidence).toList(),
              "Look at the process at the address the line names: whether it is alive (its log's last lines,"
                  + " dmesg, kubectl describe pod), stuck (py-spy dump, nvidia-smi for a GPU at 100% with no"
                  + " progress, Xid errors) or unreachable (ping and nc -zv between the nodes); ncclras on any node"
                  + " of the job (NCCL 2.24+) lists the ranks it still reaches."));
    }
    return out;
  }

  /** The finding for connections retried or given up on, by what the peer answered. */
  private Finding generic(
      List<NcclWarning> all, boolean retriedOnly, boolean refused, boolean timedOut) {
    return new Finding(
        id(),
        retriedOnly ? Severity.WARN : Severity.ERROR,
        retriedOnly
            ? "NCCL had to retry TCP connections to its peers"
            : "NCCL could not open a TCP connection to a peer",
        "A rank tried to reach another rank's listening address and "
            + (timedOut && refused
                ? "got no answer or a refusal"
                : timedOut ? "got no answer (connection timed out)" : "was refused or cut off")
            + (retriedOnly
                ? ", then retried; it may have connected in the end."
                : "; NCCL gave up and init or the collective fails.")
            + (timedOut
                ? " A timeout means packets are dropped on the way: a firewall or security group, or an"
                    + " address other nodes cannot route to (a container bridge, a veth, an IPv6 link-local"
                    + " address, the wrong one of several NICs)."
                : "")
            + (refused || !timedOut
                ? " A refusal or abort means nothing listens there: the peer crashed, has not started yet,"
                    + " or listens on another address."
                : ""),
        all.stream().map(NcclWarning::evidence).toList(),
        "From the failing rank's host, test the address and port NCCL quotes (nc -zv ADDR PORT). Let the"
            + " nodes reach each other on all TCP ports (NCCL listens on random ports; on AWS a security"
            + " group rule allowing all traffic from itself), pin NCCL_SOCKET_IFNAME to the interface that"
            + " routes between nodes (eth0 on EKS), and check the peer was alive at that time.");
  }

  /**
   * Every attempt refused and no communicator formed: the refusal comes from the peer host's
   * kernel, so the host was reached and nothing listened on that port the whole time.
   */
  private Finding onlyRefused(List<NcclWarning> all) {
    long lines = all.stream().mapToLong(NcclWarning::count).sum();
    return new Finding(
        id(),
        Severity.WARN,
        "Every connection attempt was refused and none succeeded: nothing listened at the peer's"
            + " address",
        "NCCL retried its TCP connection "
            + lines
            + " time(s) and every attempt was refused (ECONNREFUSED), and the log shows no"
            + " communicator formed. A refusal is the peer host's own answer: the host was reached (a"
            + " network that drops packets gives timeouts instead, though a firewall's REJECT rule"
            + " refuses too), and no process listened on that port at any time this log covers. The"
            + " process this rank dials (during init, the root rank's bootstrap: rank 0 of the job,"
            + " at the address its unique id carries) was not running there: not started yet or"
            + " already exited, started as part of another job (every node launched as its own"
            + " job, without the job's world size and its own rank), or listening on another"
            + " address than the one dialled. Which of these this log cannot tell: the dialled"
            + " rank's log can.",
        all.stream().map(NcclWarning::evidence).toList(),
        "Check that rank 0 (the master) runs and listens while the others start: its log, and"
            + " nc -zv ADDR PORT from this host. Launch every node with the job's total world size"
            + " and its own rank (torchrun --nnodes N --node_rank K --master_addr of node 0 on each"
            + " node; fairseq --distributed-world-size and --distributed-rank; Slurm srun with the"
            + " job's ntasks), the same MASTER_ADDR and port everywhere, and start node 0 first or"
            + " within the rendezvous timeout.");
  }

  /** Whether the reader read the line as a refused connect (ECONNREFUSED). */
  private static boolean refused(NcclWarning w) {
    return w.detail() instanceof NcclWarning.Detail.ConnectError e && e.refused();
  }

  /** A connect that NCCL gave up on, or a socket error on connect. */
  private static boolean connectFailed(String m) {
    return (m.contains("connect to ") && m.contains("failed"))
        // include/socket.h and core.h before 2.4: "Call to connect failed : ...", SYSCHECKNTIMES
        // giving up after its retries "Call to connect timeout : Connection refused"
        || m.contains("call to connect failed")
        || m.contains("call to connect timeout")
        || m.contains("socketstartconnect")
        || (m.contains("socketpollconnect") && !m.contains("retrying"))
        || m.contains("no route to host")
        // misc/socket.cc 2.19+: accepting a peer's connection failed or kept failing
        || m.contains("sockettryaccept");
  }

  private static List<NcclWarning> socket(Job job, Predicate<String> test) {
    return job.warnings().stream()
        .filter(w -> w.kind() == NcclWarning.Kind.SOCKET && w.evidence() != null)
        .filter(w -> test.test(lower(w)))
        .toList();
  }

  private static String lower(NcclWarning w) {
    return w.message().toLowerCase(Locale.ROOT);
  }
}
