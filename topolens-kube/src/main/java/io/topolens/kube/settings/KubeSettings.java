package io.topolens.kube.settings;

import io.topolens.catalog.BundledJson;
import io.topolens.catalog.Source;
import io.topolens.kube.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Kubernetes settings topolens plans with and lints against ({@code kube-settings.json}):
 * per-pod policies (/dev/shm, memory, CPU), per instance type settings (huge pages, EFA variables),
 * the values NCCL accepts, and advice on NCCL and EFA variables. Hardware facts come from {@link
 * io.topolens.catalog.HardwareCatalog}, never from here.
 */
public final class KubeSettings {
  private static final KubeSettings BUNDLED = load();

  private final File file;

  private KubeSettings(File file) {
    this.file = file;
  }

  public static KubeSettings bundled() {
    return BUNDLED;
  }

  /** A policy's numbers, why it is so, and its sources. */
  public record Shm(
      String perGpu, String minimum, double maxFractionOfMemory, String why, List<String> sources) {
    public long perGpuBytes() {
      return Quantity.parse(perGpu).orElseThrow().asLong();
    }

    public long minimumBytes() {
      return Quantity.parse(minimum).orElseThrow().asLong();
    }
  }

  /** A share of the node's memory or CPU a whole-node pod asks for. */
  public record Share(double nodeFraction, String why, List<String> sources) {}

  /** DeepSpeed's host-memory estimate for ZeRO-3 with CPU offload. */
  public record Offload(
      double bytesPerParamParamsAndOptimizer,
      double bytesPerParamOptimizerOnly,
      double bytesPerParamPerGpuWithoutZeroInit,
      double bufferFactor,
      String why,
      List<String> sources) {

    /**
     * Host bytes one node needs, as DeepSpeed estimates them.
     *
     * @param params model parameters
     * @param withParams whether parameters are offloaded too (18 bytes), or only the optimizer (16)
     * @param zeroInit whether the model is built inside zero.Init (partitioned as it loads);
     *     without it every process first holds the whole model: 4 bytes x GPUs per node per
     *     parameter
     */
    public double bytesPerNode(
        double params, int gpusPerNode, int nodes, boolean withParams, boolean zeroInit) {
      double perParam = withParams ? bytesPerParamParamsAndOptimizer : bytesPerParamOptimizerOnly;
      double factor =
          zeroInit
              ? perParam / nodes
              : Math.max(bytesPerParamPerGpuWithoutZeroInit * gpusPerNode, perParam / nodes);
      return params * factor * bufferFactor;
    }
  }

  /** An environment variable topolens sets, and why. */
  public record Env(String name, String value, String why) {}

  /** The plan's policies. */
  public record Policy(Shm shm, Share memory, Share cpu, Offload offload, List<Env> ncclDebug) {}

  /** Settings for instance types matching {@code match} (a glob: {@code p5*.48xlarge}). */
  public record Instance(
      String match,
      String hugepages2Mi,
      String hugepagesWhy,
      List<Env> efaEnv,
      String efaEnvWhy,
      List<String> sources) {
    boolean matches(String type) {
      String re = "\\Q" + match.replace("*", "\\E.*\\Q") + "\\E";
      return Pattern.compile(re, Pattern.CASE_INSENSITIVE).matcher(type).matches();
    }
  }

  /** What NCCL accepts as the value of one variable. */
  public record EnvValues(String name, String pattern, String accepted) {
    public boolean accepts(String value) {
      return Pattern.compile(pattern).matcher(value.strip()).matches();
    }
  }

  /**
   * Advice on a variable whose value matches {@code value} (a regex).
   *
   * @param when {@code any}; {@code efa} when the pod requests EFA; {@code gdr} / {@code no-gdr}
   *     when its instance type has / lacks GPUDirect RDMA over EFA
   * @param shortWhy what is wrong, for a finding's title
   * @param shortWhy what is wrong, for a finding's title
   */
  public record EnvAdvice(
      String name,
      String value,
      String when,
      String shortWhy,
      String severity,
      String why,
      String fix,
      List<String> sources) {
    public boolean matches(String v) {
      return v != null && Pattern.compile(value).matcher(v.strip()).matches();
    }
  }

  private record File(
      String about,
      Map<String, Source.Entry> sources,
      Policy policy,
      List<Instance> instances,
      List<EnvValues> envValues,
      List<EnvAdvice> envAdvice) {}

  public Policy policy() {
    return file.policy();
  }

  /** The settings for {@code type}: the most specific match wins, the {@code *} entry else. */
  public Instance instance(String type) {
    Instance best = null;
    for (Instance i : file.instances()) {
      if (i.matches(type) && (best == null || i.match().length() > best.match().length())) {
        best = i;
      }
    }
    if (best == null) {
      throw new IllegalStateException("kube-settings.json has no '*' instance entry");
    }
    return best;
  }

  public Optional<EnvValues> values(String name) {
    return file.envValues().stream().filter(v -> v.name().equals(name)).findFirst();
  }

  /** Advice entries for {@code name} whose value pattern matches {@code value}. */
  public List<EnvAdvice> advice(String name, String value) {
    List<EnvAdvice> out = new ArrayList<>();
    for (EnvAdvice a : file.envAdvice()) {
      if (a.name().equals(name) && a.matches(value)) {
        out.add(a);
      }
    }
    return out;
  }

  public Source source(String key) {
    Source.Entry e = file.sources().get(key);
    if (e == null) {
      throw new IllegalArgumentException("no source " + key);
    }
    return new Source(key, e.title(), e.url());
  }

  /** "KEY (url), KEY (url)" for a finding's text. */
  public String cite(List<String> keys) {
    return String.join(", ", keys.stream().map(k -> source(k).cite()).toList());
  }

  public Map<String, Source> sources() {
    return Source.all(file.sources());
  }

  private static KubeSettings load() {
    File f = BundledJson.read(KubeSettings.class, "kube-settings.json", File.class);
    KubeSettings s = new KubeSettings(f);
    List<String> cited = new ArrayList<>(f.policy().shm().sources());
    cited.addAll(f.policy().memory().sources());
    cited.addAll(f.policy().cpu().sources());
    cited.addAll(f.policy().offload().sources());
    f.instances().forEach(i -> cited.addAll(i.sources()));
    f.envAdvice().forEach(a -> cited.addAll(a.sources()));
    for (String k : cited) {
      s.source(k);
    }
    for (EnvAdvice a : f.envAdvice()) {
      io.topolens.diagnose.Severity.parse(a.severity());
      if (!List.of("any", "efa", "gdr", "no-gdr").contains(a.when().toLowerCase(Locale.ROOT))) {
        throw new IllegalStateException("envAdvice " + a.name() + ": unknown when " + a.when());
      }
    }
    return s;
  }
}
