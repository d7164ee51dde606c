package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code job-cancelled}: Slurm ended the job or step ({@code slurmstepd: error: *** JOB 1234 ON n1
 * CANCELLED AT 2024-04-23T12:18:08 DUE TO TIME LIMIT ***}; preemption, node failure, requeue, or
 * scancel without a reason). The ranks' own errors after it (a lost peer, a watchdog timeout) are
 * its consequences.
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

  @Override
  String title(List<NcclWarning> hits) {
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
