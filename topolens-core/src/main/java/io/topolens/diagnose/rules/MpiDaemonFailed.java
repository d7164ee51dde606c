package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code mpi-daemon-failed}: Open MPI's runtime (ORTE in 1.x-4.x, PRRTE in 5.x: the daemons mpirun
 * starts on every node, over ssh or the scheduler) could not start a daemon on another node, or
 * lost one: {@code ORTE was unable to reliably start one or more daemons.}, {@code An ORTE daemon
 * has unexpectedly failed after launch and before communicating back to mpirun.}, {@code PRTE has
 * lost communication with a remote daemon.}; or DeepSpeed's runner could not ssh to its hostfile's
 * first host ({@code ... was not reachable via ssh.}), or pdsh (its launcher for several nodes)
 * could not ssh to a node ({@code pdsh@node1: node2: ssh exited with exit code 255}).
 */
public final class MpiDaemonFailed extends WarningRule {

  public MpiDaemonFailed() {
    super(Severity.ERROR, NcclWarning.Kind.MPI_DAEMON);
  }

  @Override
  public String id() {
    return "mpi-daemon-failed";
  }

  @Override
  String title() {
    return "mpirun lost or could not start its daemon on another node";
  }

  @Override
  String explanation() {
    return "mpirun starts a daemon (orted in Open MPI 1.x-4.x, prted in 5.x) on every node of the job, over ssh unless a scheduler (Slurm, PBS) launches it, and each daemon connects back to mpirun over TCP (its out-of-band channel) before any rank starts; the ranks' NCCL never ran, or its errors after this line are the consequence.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            "reliably start one or more daemons",
            "`was unable to reliably start one or more daemons`: a daemon never started on a node. The lines before it usually say why: ssh could not reach or log in to the node (`ssh: connect to host ... Connection refused`, `Could not resolve hostname`, `Host key verification failed`), or the node has no orted in its PATH or Open MPI's libraries in LD_LIBRARY_PATH for a non-interactive shell (`orted: command not found`).",
            "From the node running mpirun, ssh to every node of the hostfile without a password or prompt (ssh NODE true; the same user, host keys accepted, port 22 open or plm_rsh_args); install Open MPI at the same path on every node and pass --prefix (or configure with --enable-orterun-prefix-by-default), or set PATH/LD_LIBRARY_PATH for non-interactive shells; in containers, sshd running in every worker (MPI Operator's launcher and workers)."),
        new Form(
            "daemon has unexpectedly failed",
            "`daemon has unexpectedly failed after launch and before communicating back to mpirun`: the daemon started but could not open its TCP connection back to mpirun: the nodes share no network interface Open MPI will use, there is no route between the interfaces it picked, or a firewall blocks the connection.",
            "Name an interface every node has and reaches the others on: --mca oob_tcp_if_include eth0 (and btl_tcp_if_include for MPI's own traffic; Open MPI 5: --prtemca oob_tcp_if_include), or a subnet (10.0.0.0/16); exclude docker0, lo and virtual bridges; open the ports between the nodes (firewall, security group)."),
        new Form(
            "communication with a remote daemon",
            "`has lost communication with a remote daemon`: a daemon that was running stopped answering. Its node crashed, rebooted or ran out of memory, the daemon was killed, or the TCP connection to it broke (a network or interface problem between the nodes; at larger scale the runtime's own connection limits). The `Remote daemon: ... on node X` line after it names the node; every rank on it is lost.",
            "Check the named node (uptime, dmesg: an out-of-memory kill or a reboot; the scheduler's node state), reach it from the launch node over the interface Open MPI uses (ping, ssh), pin that interface (--mca oob_tcp_if_include IFACE; Open MPI 5: --prtemca oob_tcp_if_include IFACE), and rerun a plain mpirun -np N -H ... hostname over the same nodes before the job."),
        new Form(
            List.of(
                PDSH_SSH, "ssh not successful for host", "could not connect to some hosts via ssh"),
            "`pdsh@HOST: NODE: ssh exited with exit code 255`: pdsh (DeepSpeed's launcher for several nodes unless told otherwise, and cluster tools) could not run its command on NODE over ssh: the key or host key was refused, the name did not resolve, port 22 is closed or sshd is not running in the node's container; no rank started there, and the ranks that did start wait for it at their rendezvous.",
            "From the node running the launcher, `ssh NODE true` must succeed without a prompt (an ssh key in NODE's authorized_keys for the same user, NODE's host key in known_hosts, sshd running in every container, a custom port in ~/.ssh/config or PDSH_SSH_ARGS_APPEND); the line just before it usually says which (`Host key verification failed`, `Connection refused`)."),
        new Form(
            List.of(DEEPSPEED_SSH, DEEPSPEED_SSH_CHECK),
            "`was not reachable via ssh` (or Python's `CalledProcessError: Command 'ssh -o PasswordAuthentication=no HOST hostname' returned non-zero exit status 255` before it): DeepSpeed's runner (launcher/runner.py), given a hostfile, first runs `ssh -o PasswordAuthentication=no HOST hostname` to the hostfile's first host and stops when it fails (ssh exits 255: no key accepted without a password, host key not accepted, name not resolved, port 22 closed or sshd not running in the container), before pdsh or mpirun starts any rank; with one node and a leftover hostfile (/job/hostfile by default) it tries a host it does not need.",
            "From the node running deepspeed, `ssh -o PasswordAuthentication=no HOST hostname` must print the name without a prompt: an ssh key in the host's authorized_keys (the same user), its host key in known_hosts, sshd running in every container (a custom port in ~/.ssh/config); with a single node remove the hostfile or run without one; where ssh works through another path (Kubernetes' MPI Operator), --no_ssh_check skips the check."));
  }

  /** The words of DeepSpeed's runner when its ssh check fails. */
  private static final String DEEPSPEED_SSH = "was not reachable via ssh";

  /** The ssh command of that check, lower-cased as forms compare, in Python's traceback. */
  private static final String DEEPSPEED_SSH_CHECK = "passwordauthentication=no";

  /** pdsh's words when its ssh module could not run the command on a node. */
  private static final String PDSH_SSH = "ssh exited with exit code 255";

  /** Whether every line is DeepSpeed's ssh check, not Open MPI's runtime. */
  private boolean deepspeedOnly(List<NcclWarning> hits) {
    return hits.stream().allMatch(forms().getLast()::saidBy);
  }

  /** Whether every line is a launcher's ssh (DeepSpeed's check, pdsh), not Open MPI's runtime. */
  private boolean sshOnly(List<NcclWarning> hits) {
    List<Form> ssh = forms().subList(forms().size() - 2, forms().size());
    return hits.stream().allMatch(w -> ssh.stream().anyMatch(f -> f.saidBy(w)));
  }

  @Override
  String title(List<NcclWarning> hits) {
    return deepspeedOnly(hits)
        ? "DeepSpeed's launcher could not reach a host of its hostfile over ssh"
        : sshOnly(hits)
            ? "The launcher could not reach a node over ssh (pdsh, horovodrun)"
            : title();
  }

  @Override
  String explanation(List<NcclWarning> hits) {
    return sshOnly(hits)
        ? "A multi-node launcher starts every rank on every host itself (DeepSpeed's runner over pdsh or mpirun, both over ssh), so a host it cannot log in to gets no rank: the job never started, and NCCL never ran."
        : explanation();
  }

  @Override
  String fix() {
    return "Run mpirun -np N -H ... hostname over the same nodes until it works, then the job.";
  }
}
