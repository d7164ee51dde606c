package io.topolens.diagnose.rules;

import io.topolens.catalog.EnvVariable;
import io.topolens.catalog.NcclEnv;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.EnvSetting;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code env-override}: an NCCL setting that changes transports, algorithms or protocols is forced
 * by the environment. One finding per setting, saying what it does ({@code nccl-env.json}); and a
 * value NCCL could not parse and ignored ({@code Invalid value abc for NCCL_IB_TIMEOUT, using
 * default 20.}, misc/param.cc); and a setting NCCL refused and failed on ({@code NET/IB:
 * NCCL_IB_SUBNET_PREFIX_LEN=40 is out of range [1,32]}, net_ib/connect.cc 2.29): an error naming
 * it.
 */
public final class EnvOverride implements Rule {

  @Override
  public String id() {
    return "env-override";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>();
    for (EnvSetting e : job.env()) {
      Optional<EnvVariable> known = NcclEnv.bundled().get(e.name());
      if (known.isEmpty()) {
        continue;
      }
      EnvVariable v = known.get();
      Severity severity = Severity.parse(v.severity());
      if (isDefault(e)) {
        severity = Severity.INFO;
      }
      out.add(
          new Finding(
              id(),
              severity,
              e.name() + "=" + e.value() + " is set by the environment",
              v.effect()
                  + (e.processes() == 0
                      ? " Sent to every process by the launcher's command line."
                      : " Reported by " + e.processes() + " process(es).")
                  + (isDefault(e)
                      ? " This value is NCCL's default, so setting it changes nothing."
                      : ""),
              List.of(e.evidence()),
              v.fix()));
    }
    List<NcclWarning> commId = warnings(job, NcclWarning.Kind.COMM_ID_ONE_ROOT);
    List<NcclWarning> ignored = warnings(job, NcclWarning.Kind.ENV_IGNORED);
    if (!commId.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.WARN,
              "NCCL_COMM_ID overrode the program's unique ids: NCCL used one bootstrap root",
              "The program created its communicator with several ncclUniqueIds"
                  + " (ncclCommInitRankScalable, NCCL 2.23 on, which spreads the bootstrap over"
                  + " several roots), while NCCL_COMM_ID was set in the environment: rank 0 then"
                  + " starts one root at NCCL_COMM_ID's address and uses only the first id (init.cc"
                  + " prints this at INFO, and only on rank 0). The other ranks still hold every"
                  + " id, so those meant for the other roots can wait for roots that rank 0 never"
                  + " started (init hangs or times out); a job that works anyway has lost the"
                  + " scalable bootstrap it asked for.",
              commId.stream().map(NcclWarning::evidence).toList(),
              "Unset NCCL_COMM_ID where the program (or its framework) creates its own unique ids;"
                  + " keep it only for programs that call ncclCommInitRank with one id and rely on"
                  + " the environment's root address."));
    }
    out.addAll(checked(job));
    out.addAll(refused(job));
    if (!ignored.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.WARN,
              "NCCL ignored a setting it could not use as given",
              "NCCL read an NCCL_* value that is not a number of the kind it expects and used its default"
                  + " instead (misc/param.cc prints it only at INFO), or one outside its range that it capped"
                  + " or ignored (NCCL_SOCKET_NTHREADS, NCCL_NSOCKS_PERTHREAD above their maximum,"
                  + " NCCL_SHM_LOCALITY not 1 or 2, NCCL_NTHREADS not a multiple of 32 or past its"
                  + " bounds, which NCCL replaces by the bound): the setting the job meant to apply is not in force."
                  + (ignored.stream().anyMatch(EnvOverride::threadContext)
                      ? " NCCL_CREATE_THREAD_CONTEXT=1 asks NCCL's proxy thread for a CUDA context of"
                          + " its own; NCCL could not create or set it (a driver without cuCtxCreate's"
                          + " entry points, or cuCtxCreate failing) and turned the setting off."
                      : ""),
              ignored.stream().map(NcclWarning::evidence).toList(),
              "Give the variable a plain integer (no units, no quotes carried into the value) within the"
                  + " range NCCL's environment variable reference states for it (NCCL_SOCKET_NTHREADS 1-16,"
                  + " NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD at most 64), or remove it"
                  + (ignored.stream().anyMatch(EnvOverride::threadContext)
                      ? " (NCCL_CREATE_THREAD_CONTEXT: unset it, or update the driver where it is"
                          + " too old)."
                      : ".")));
    }
    return out;
  }

  /**
   * A network plugin's config checker (gIB's guest config checker) refusing or questioning a
   * setting: one finding per variable, an error where it enforced the value (the workload ends).
   */
  private static List<Finding> checked(Job job) {
    List<Finding> out = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (NcclWarning w : warnings(job, NcclWarning.Kind.ENV_CHECKED)) {
      if (!(w.detail() instanceof NcclWarning.Detail.CheckedSetting c) || !seen.add(c.variable())) {
        continue;
      }
      out.add(
          new Finding(
              "env-override",
              c.enforced() ? Severity.ERROR : Severity.WARN,
              "The network plugin's config checker "
                  + (c.enforced() ? "enforced " : "recommends ")
                  + c.variable()
                  + "="
                  + c.expected()
                  + " (set to "
                  + c.value()
                  + ")",
              "The NCCL network plugin's guest config checker (Google's gIB, which prints"
                  + " NCCL/NET (shim) lines) compares the job's NCCL_* settings with the values it"
                  + " requires for the machine type: "
                  + c.variable()
                  + " is "
                  + c.value()
                  + " where it expects "
                  + c.expected()
                  + (c.enforced()
                      ? ". The setting is enforced, so the checker ended the workload: this is"
                          + " the failure, not GPU peer-to-peer or the network."
                      : ". It only recommends the value: the job runs, possibly slower."),
              List.of(w.evidence()),
              "Set "
                  + c.variable()
                  + "="
                  + c.expected()
                  + " or unset it so the plugin's value applies; on Google Cloud source the"
                  + " plugin's environment script (/usr/local/gib/scripts/set_nccl_env.sh) in the"
                  + " job and drop the job's own NCCL_* overrides of it."));
    }
    return out;
  }

  /**
   * An NCCL_* setting NCCL refused and failed on (net_ib/connect.cc 2.29): one error per variable,
   * naming the setting rather than the fabric, since the NET/IB prefix is NCCL's check of the
   * value.
   */
  private static List<Finding> refused(Job job) {
    List<Finding> out = new ArrayList<>();
    java.util.Map<String, List<NcclWarning>> byVariable = new java.util.LinkedHashMap<>();
    java.util.Map<String, NcclWarning.Detail.RefusedSetting> first = new java.util.HashMap<>();
    for (NcclWarning w : warnings(job, NcclWarning.Kind.ENV_REFUSED)) {
      if (w.detail() instanceof NcclWarning.Detail.RefusedSetting r) {
        byVariable.computeIfAbsent(r.variable(), k -> new ArrayList<>()).add(w);
        first.putIfAbsent(r.variable(), r);
      }
    }
    for (var e : byVariable.entrySet()) {
      NcclWarning.Detail.RefusedSetting r = first.get(e.getKey());
      boolean ooo = r.value() == null;
      out.add(
          new Finding(
              "env-override",
              Severity.ERROR,
              "NCCL refused "
                  + (ooo
                      ? r.variable()
                          + " (forced on)"
                          + (r.device() == null ? "" : " on " + r.device())
                      : r.variable() + "=" + r.value() + ", outside " + r.range()),
              (ooo
                      ? "NCCL_IB_OOO_RQ=1 forces out-of-order receive queues on the IB/RoCE queue"
                          + " pairs; NCCL 2.29 checks that the NIC has adaptive routing enabled"
                          + " and that both sides of the connection support OOO RQ, and fails"
                          + " the connection (ncclInternalError) where either does not."
                      : "NCCL checks this value against the range "
                          + r.range()
                          + " and fails the connection (ncclInvalidArgument) when it is outside"
                          + " it (net_ib/connect.cc, NCCL 2.29's subnet-aware routing).")
                  + " The failure is the setting's, not the fabric's: the NET/IB prefix names"
                  + " where NCCL checked it.",
              e.getValue().stream().map(NcclWarning::evidence).distinct().toList(),
              ooo
                  ? "Unset NCCL_IB_OOO_RQ (NCCL then uses OOO RQ only where both sides support"
                      + " it), or enable adaptive routing on the NICs and switches of every node"
                      + " before forcing it."
                  : "Set "
                      + r.variable()
                      + " within "
                      + r.range()
                      + " (the IPv4 prefix length of the RoCE subnets, 24 by default) or unset"
                      + " it."));
    }
    return out;
  }

  /** The job's warnings of one kind that hold a line to cite. */
  private static List<NcclWarning> warnings(Job job, NcclWarning.Kind kind) {
    return job.warnings().stream().filter(w -> w.evidence() != null && w.kind() == kind).toList();
  }

  /** proxy.cc's lines where NCCL_CREATE_THREAD_CONTEXT=1 could not be applied. */
  private static boolean threadContext(NcclWarning w) {
    return w.message().contains("create thread context")
        || w.message().contains("CUDA context on device");
  }

  /** Values that restate NCCL's default. */
  private static boolean isDefault(EnvSetting e) {
    return switch (e.name()) {
      case "NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE", "NCCL_IB_DISABLE", "NCCL_PXN_DISABLE" ->
          e.value().equals("0");
      default -> false;
    };
  }
}
