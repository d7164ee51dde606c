package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code mpi-daemon-failed}: Open MPI's runtime (ORTE in 1.x-4.x, PRRTE in 5.x: the daemons mpirun
 * starts on every node, over ssh or the scheduler) could not start a daemon on another node, or
 * lost one: {@code ORTE was unable to reliably start one or more daemons.}, {@code An ORTE daemon
 * has unexpectedly failed after launch and before communicating back to mpirun.}, {@code PRTE has
 * lost communication with a remote daemon.}
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
            "Check the named node (uptime, dmesg: an out-of-memory kill or a reboot; the scheduler's node state), reach it from the launch node over the interface Open MPI uses (ping, ssh), pin that interface (--mca oob_tcp_if_include IFACE; Open MPI 5: --prtemca oob_tcp_if_include IFACE), and rerun a plain mpirun -np N -H ... hostname over the same nodes before the job."));
  }

  @Override
  String fix() {
    return "Run mpirun -np N -H ... hostname over the same nodes until it works, then the job.";
  }
}
