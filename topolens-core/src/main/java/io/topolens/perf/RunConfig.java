package io.topolens.perf;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.InstanceSpec;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One configuration as a user writes it (YAML keys or command-line options); every field may be
 * missing. {@link #merge} layers configurations, {@link #toScenario} checks them and fills the
 * defaults, which the prediction then lists.
 *
 * @param layout {@code PODSxGPUS} per node, e.g. {@code 1x4} or {@code 4x1}
 * @param zero a ZeRO stage 0-3 (0 = DDP); {@code strategy} names it instead
 * @param measured what a real run measured (validation only; predict ignores it)
 */
public record RunConfig(
    String name,
    String model,
    Long params,
    Integer layers,
    Integer hidden,
    Integer seq,
    Integer microBatch,
    Integer gradAccum,
    Long steps,
    String strategy,
    String zero,
    String precision,
    String reduceDtype,
    Boolean checkpointing,
    String offload,
    Double mfu,
    Double overheadS,
    Double startupS,
    Double tflops,
    Double cpuAdamRate,
    Integer cpuThreads,
    String instance,
    Integer nodes,
    String layout,
    String network,
    String intra,
    Double nicGbps,
    Measured measured) {

  /**
   * A measured result to compare a prediction with.
   *
   * @param jobS measured job time in seconds
   * @param stepS measured step time in seconds
   * @param source where the number comes from
   * @param timers the run's DeepSpeed {@code wall_clock_breakdown} log, relative to the
   *     configuration file, or null
   */
  public record Measured(Double jobS, Double stepS, String source, String timers) {}

  /** Defaults for what a configuration leaves out. */
  static final int DEFAULT_SEQ = 2048;

  static final long DEFAULT_STEPS = 100;

  /** An empty configuration. */
  public static RunConfig empty() {
    return new RunConfig(
        null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null, null, null, null, null, null, null, null, null);
  }

  /** This configuration with every field {@code over} sets replaced. */
  public RunConfig merge(RunConfig over) {
    if (over == null) {
      return this;
    }
    return new RunConfig(
        pick(over.name, name),
        pick(over.model, model),
        pick(over.params, params),
        pick(over.layers, layers),
        pick(over.hidden, hidden),
        pick(over.seq, seq),
        pick(over.microBatch, microBatch),
        pick(over.gradAccum, gradAccum),
        pick(over.steps, steps),
        over.strategy != null || over.zero != null ? over.strategy : strategy,
        over.strategy != null || over.zero != null ? over.zero : zero,
        pick(over.precision, precision),
        pick(over.reduceDtype, reduceDtype),
        pick(over.checkpointing, checkpointing),
        pick(over.offload, offload),
        pick(over.mfu, mfu),
        pick(over.overheadS, overheadS),
        pick(over.startupS, startupS),
        pick(over.tflops, tflops),
        pick(over.cpuAdamRate, cpuAdamRate),
        pick(over.cpuThreads, cpuThreads),
        pick(over.instance, instance),
        pick(over.nodes, nodes),
        pick(over.layout, layout),
        pick(over.network, network),
        pick(over.intra, intra),
        pick(over.nicGbps, nicGbps),
        pick(over.measured, measured));
  }

  private static <T> T pick(T a, T b) {
    return a != null ? a : b;
  }

  /**
   * A configuration from keys and values as the YAML file spells them ({@code microBatch}, {@code
   * layout}...); values may be strings or numbers.
   *
   * @throws InputProblem naming the key that is unknown or has a wrong value
   */
  public static RunConfig fromMap(Map<String, ?> values, String where) throws InputProblem {
    try {
      return ScenarioFile.MAPPER.convertValue(values, RunConfig.class);
    } catch (IllegalArgumentException e) {
      throw new InputProblem(where + ": " + ScenarioFile.firstLine(e.getMessage()));
    }
  }

  /** The same configuration under another name. */
  public RunConfig named(String newName) {
    return new RunConfig(
        newName,
        model,
        params,
        layers,
        hidden,
        seq,
        microBatch,
        gradAccum,
        steps,
        strategy,
        zero,
        precision,
        reduceDtype,
        checkpointing,
        offload,
        mfu,
        overheadS,
        startupS,
        tflops,
        cpuAdamRate,
        cpuThreads,
        instance,
        nodes,
        layout,
        network,
        intra,
        nicGbps,
        measured);
  }

  /** A scenario with the defaults filled in, and the defaults used, in words. */
  public record Checked(Scenario scenario, List<String> defaulted) {}

  /**
   * Checks the configuration and fills defaults.
   *
   * @param where names the configuration in messages (a file, or "command line")
   * @throws InputProblem one line naming what is missing or wrong
   */
  public Checked toScenario(HardwareCatalog catalog, ModelPresets presets, String where)
      throws InputProblem {
    List<String> defaulted = new ArrayList<>();
    try {
      if (instance == null) {
        throw new InputProblem(where + ": no instance type (--instance)");
      }
      InstanceSpec inst =
          catalog
              .instance(instance)
              .orElseThrow(
                  () ->
                      new InputProblem(
                          where
                              + ": unknown instance type \""
                              + instance
                              + "\" (the catalog knows "
                              + String.join(
                                  ", ",
                                  catalog.instances().stream().map(InstanceSpec::type).toList())
                              + "; add one with --catalog FILE)"));
      ModelSpec spec = modelSpec(presets, where);
      int pods;
      int gpus;
      if (layout == null) {
        pods = 1;
        gpus = inst.gpus();
        defaulted.add("layout 1x" + gpus + " (one pod with every GPU of the node)");
      } else {
        Layout l;
        try {
          l = Layout.parse(layout);
        } catch (IllegalArgumentException e) {
          throw new InputProblem(where + ": " + e.getMessage());
        }
        pods = l.pods();
        gpus = l.gpusPerPod();
      }
      int nodeCount = nodes == null ? 1 : nodes;
      PathKind net = network == null ? null : PathKind.parse(network);
      PathKind in = intra == null ? null : PathKind.parse(intra);
      if (net == null && nodeCount * pods > 1) {
        net = inst.efa() > 0 ? PathKind.EFA : PathKind.TCP;
        defaulted.add(
            "network " + net.id() + " (the instance's " + (inst.efa() > 0 ? "EFA" : "ENA") + ")");
      }
      Cluster cluster = new Cluster(inst.type(), nodeCount, pods, gpus, net, in, nicGbps);
      Strategy st;
      if (strategy != null) {
        st = Strategy.parse(strategy);
      } else if (zero != null) {
        st = Strategy.parse(zero);
      } else {
        st = Strategy.DDP;
        defaulted.add("strategy DDP");
      }
      Precision prec = precision == null ? Precision.BF16 : Precision.parse(precision);
      Precision red = reduceDtype == null ? prec : Precision.parse(reduceDtype);
      int s = value(seq, DEFAULT_SEQ, "sequence length " + DEFAULT_SEQ, defaulted);
      int mb = value(microBatch, 1, "micro-batch 1", defaulted);
      int ga = value(gradAccum, 1, "gradient accumulation 1", defaulted);
      long st0 = steps == null ? DEFAULT_STEPS : steps;
      if (steps == null) {
        defaulted.add(DEFAULT_STEPS + " steps");
      }
      Offload off = offload == null ? Offload.NONE : Offload.parse(offload);
      Workload w =
          new Workload(
              spec,
              s,
              mb,
              ga,
              st0,
              st,
              prec,
              red,
              Boolean.TRUE.equals(checkpointing),
              off,
              mfu,
              overheadS == null ? 0 : overheadS,
              startupS == null ? 0 : startupS,
              tflops,
              cpuAdamRate,
              cpuThreads);
      String label = name != null ? name : describe(cluster, st, off);
      return new Checked(new Scenario(label, w, cluster), defaulted);
    } catch (IllegalArgumentException e) {
      throw new InputProblem(where + ": " + e.getMessage());
    }
  }

  private static int value(Integer v, int dflt, String words, List<String> defaulted) {
    if (v == null) {
      defaulted.add(words);
      return dflt;
    }
    return v;
  }

  private ModelSpec modelSpec(ModelPresets presets, String where) throws InputProblem {
    if (model != null) {
      ModelSpec preset =
          presets
              .find(model)
              .orElseThrow(
                  () ->
                      new InputProblem(
                          where
                              + ": unknown model \""
                              + model
                              + "\" (presets: "
                              + String.join(", ", presets.names())
                              + "; or give --params, --layers and --hidden)"));
      if (params == null && layers == null && hidden == null) {
        return preset;
      }
      return new ModelSpec(
          preset.name() + " (modified)",
          params != null ? params : preset.params(),
          layers != null ? layers : preset.layers(),
          hidden != null ? hidden : preset.hidden(),
          null,
          null,
          null,
          null,
          null,
          null,
          preset.sources());
    }
    if (params == null || layers == null || hidden == null) {
      throw new InputProblem(
          where
              + ": no model: give --model ("
              + String.join(", ", presets.names())
              + ") or all of --params, --layers and --hidden");
    }
    return ModelSpec.custom(params, layers, hidden);
  }

  /** {@code g6e.12xlarge 4 x 1x4 efa ZeRO-3 offload cpu}. */
  static String describe(Cluster c, Strategy st, Offload off) {
    return c.instance()
        + " "
        + c.nodes()
        + "n "
        + c.layout()
        + (c.ncclNodes() > 1 && c.network() != null ? " " + netName(c.network()) : "")
        + " "
        + st.label()
        + (off.any() ? " offload " + off.label() : "");
  }

  private static String netName(PathKind p) {
    return p == PathKind.TCP ? "eni" : p.id().toLowerCase(Locale.ROOT);
  }
}
