package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code job-cancelled}: Slurm ended the job or step ({@code slurmstepd: error: *** JOB 1234 ON n1
 * CANCELLED AT 2024-04-23T12:18:08 DUE TO TIME LIMIT ***}; preemption, node failure, requeue, or
 * scancel without a reason). The ranks' own errors after it (a lost peer, a watchdog timeout) are
 * its consequences. Also torchrun's agent stopped by a signal from outside ({@code SignalException:
 * Process 4044 got signal: 15}): SIGTERM from a scheduler or operator, SIGHUP from a closed
 * terminal, SIGINT from Ctrl-C.
 */
public final class JobCancelled extends WarningRule {

  public JobCancelled() {
    super(Severity.ERROR, NcclWarning.Kind.CANCELLED);
  }

  @Override
  public String id() {
    return "job-cancelled";
  }

  @Override
  String title() {
    return "Slurm cancelled the job";
  }

  /**
   * The signal of the agent's lines, as the reader read it, when all the lines are the agent's,
   * else null.
   */
  private static String agentSignal(List<NcclWarning> hits) {
    String signal = null;
    for (NcclWarning w : hits) {
      if (!(w.detail() instanceof NcclWarning.Detail.Signal(String s))) {
        return null;
      }
      signal = s;
    }
    return signal;
  }

  /** What a signal to the agent says: who sends it (signal(7)), and what to do. */
  private record Sent(String title, String why, String fix) {}

  private static Sent sent(String signal) {
    return switch (signal) {
      case "1" ->
          new Sent(
              "torchrun's agent got SIGHUP: the terminal that started the job closed",
              "The shell sends SIGHUP to its jobs when the terminal or ssh session that started them ends (a dropped connection, a closed window, a laptop that slept), and torchrun's agent then stops its workers. Nothing in the training failed.",
              "Start the job so that it outlives the session: nohup torchrun ... > train.log 2>&1 & (then disown), or inside tmux or screen, or through a scheduler (sbatch, a Kubernetes Job).");
      case "2" ->
          new Sent(
              "torchrun's agent got SIGINT: someone pressed Ctrl-C",
              "SIGINT is what Ctrl-C in the terminal sends (or kill -INT): the agent stopped its workers on it. Nothing in the training failed; if the job was interrupted because it looked hung, the last lines before this one say where it waited.",
              "Nothing to fix in the job itself; if it was stopped because it hung, set a collective timeout (init_process_group(timeout=...)) so a hang fails with the ranks named, and read the lines before the interrupt.");
      default ->
          new Sent(
              "torchrun's agent was stopped by "
                  + (signal.equals("15") ? "SIGTERM" : "signal " + signal)
                  + " from outside the job",
              "The launcher itself (torchrun's elastic agent) received the signal and shut its workers down: something outside the training stopped the job. SIGTERM is how schedulers and operators stop a job: Slurm (scancel, the time limit, preemption: SIGTERM, then SIGKILL after KillWait), Kubernetes (the pod deleted by kubectl delete, by the Job or PyTorchJob controller on activeDeadlineSeconds or a failed peer, by a node drain or a spot or preemptible node being reclaimed, or evicted by the kubelet under node memory or disk pressure), or a kill by hand. An out-of-memory kill is not this: the kernel's and the container's OOM killer send SIGKILL (exit code -9, OOMKilled), which no process can catch or print. The workers' errors after this line are consequences.",
              "Ask whoever sent it. Slurm: sacct -j JOB -o JobID,State,Reason,Elapsed,Timelimit (CANCELLED by a user, TIMEOUT, PREEMPTED, NODE_FAIL). Kubernetes: kubectl describe pod POD and kubectl get events --field-selector involvedObject.name=POD (Killing, Preempting, Evicted with 'The node was low on resource', DeadlineExceeded, a node NotReady or drained) and the Job's status conditions; on spot or preemptible nodes, the cloud's interruption notice. Then give the job the time it needs, or make it resume from checkpoints if preemption is expected.");
    };
  }

  @Override
  String explanation(List<NcclWarning> hits) {
    String signal = agentSignal(hits);
    return signal == null ? explanation() : sent(signal).why();
  }

  @Override
  String fix(List<NcclWarning> hits) {
    String signal = agentSignal(hits);
    return signal == null ? super.fix(hits) : sent(signal).fix();
  }

  @Override
  String title(List<NcclWarning> hits) {
    String signal = agentSignal(hits);
    if (signal != null) {
      return sent(signal).title();
    }
    for (Form f : forms()) {
      if (hits.stream().anyMatch(f::saidBy)) {
        return "Slurm cancelled the job " + f.words().getFirst();
      }
    }
    return title();
  }

  @Override
  String explanation() {
    return "slurmstepd (or srun) printed that it ended the job or step: the processes were sent SIGTERM and then SIGKILL by the scheduler, not by a failure of their own. Errors the ranks print after this line (a peer that closed its connection, a store that went away, a collective that timed out, exit codes -15 or -9) are consequences of the cancel; errors before it are not explained by it.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            "due to time limit",
            "The reason is the job's time limit (--time, or the partition's MaxTime): the job ran out of wall time. If the log shows a collective or the rendezvous waiting until then, the job was hung and the limit only ended it: look at the last lines before the cancel.",
            "Give the job the time it needs (#SBATCH --time, within the partition's MaxTime: sinfo -o '%P %l'), checkpoint and resume with --signal=B:USR1@300 so a run that hits the limit saves first; if it was hung, set a collective timeout (init_process_group(timeout=...)) below the limit so the hang fails with the ranks named."),
        new Form(
            "due to preemption",
            "The reason is preemption: a job of higher priority (QOS or partition) took the nodes.",
            "Run in a partition or QOS that is not preempted, or make the job resumable: --requeue with checkpoints, and --signal to save before the kill."),
        new Form(
            List.of("due to node failure", "node failure on "),
            "The reason is a node failure: slurmctld lost contact with a node of the job (it rebooted, crashed, or its slurmd stopped responding).",
            "Read slurmctld's log and sinfo -R for the node's reason, drain and check the node (dmesg, nvidia-smi, Xid errors) and exclude it (--exclude) until it is fixed; --requeue restarts the job elsewhere."),
        new Form(
            "due to job requeue",
            "The reason is a requeue: the job was put back in the queue (scontrol requeue, or a node failure with --requeue) and will start again.",
            "Nothing failed in the job itself; make it resume from a checkpoint when it restarts."));
  }

  @Override
  String fix() {
    return "No reason was printed: someone or something ran scancel (the user, an administrator, a workflow manager, a dependency). sacct -j JOB -o JobID,State,Reason,Elapsed,Timelimit says which; if a script cancels jobs that look hung, look at the last lines before the cancel.";
  }
}
