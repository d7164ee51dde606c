package io.topolens.perf;

import io.topolens.bench.ProbeLaunch;
import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.InstanceSpec;
import io.topolens.catalog.Source;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Predicts the optimizer step of a data-parallel training job (docs/model.md): compute from FLOPs
 * over peak x MFU, the strategy's collectives priced by {@link CollectiveModel} and overlapped with
 * compute, CPU offload as PCIe transfers plus the CPU optimizer, and the sum as the step.
 */
public final class StepModel {
  private final HardwareCatalog catalog;
  private final PerfConstants k;

  /** The fit host's own result of the probe's launch micro-benchmark (its layer op). */
  static final String LAUNCH_REF = "compute.launchRefLayerUs";

  private final Calibration calibration;
  private final CollectiveModel costs;
  private final LinkPriors priors;
  private final ModelPresets presets;

  public StepModel(HardwareCatalog catalog, PerfConstants constants, Calibration calibration) {
    this.catalog = catalog;
    this.k = constants;
    this.calibration = calibration;
    this.costs = new CollectiveModel(constants);
    this.priors = new LinkPriors(constants);
    this.presets = ModelPresets.bundled();
  }

  /** The built-in catalog and constants, no calibration. */
  public static StepModel standard() {
    return new StepModel(HardwareCatalog.builtIn(), PerfConstants.bundled(), Calibration.none());
  }

  public Calibration calibration() {
    return calibration;
  }

  /** The same model with another calibration. */
  public StepModel with(Calibration c) {
    return new StepModel(catalog, k, c);
  }

  /**
   * The same model without ZeRO-3's module hooks: for fitting a run's own framework time to its
   * timers, which then stands in for them.
   */
  public StepModel withoutZero3Hooks() {
    return new StepModel(
        catalog,
        k.with(
            Map.of(Zero3Hooks.KEY, 0.0),
            new Source(
                "NO-ZERO3-HOOKS",
                Zero3Hooks.KEY + " set to 0: the run's own framework time stands in for it",
                "")),
        calibration);
  }

  /** The communicator a cluster gives, with its links, and the assumptions made to build it. */
  public record Resolved(InstanceSpec instance, GpuSpec gpu, CommGroup group, List<String> notes) {}

  /** Builds the communicator of a cluster: paths, their bandwidth and the protocols allowed. */
  public Resolved resolve(Cluster c) throws InputProblem {
    InstanceSpec inst =
        catalog
            .instance(c.instance())
            .orElseThrow(
                () ->
                    new InputProblem(
                        "unknown instance type \""
                            + c.instance()
                            + "\" (the catalog knows "
                            + String.join(
                                ", ", catalog.instances().stream().map(InstanceSpec::type).toList())
                            + "; add one with --catalog FILE)"));
    GpuSpec gpu = catalog.gpuOf(inst);
    int perHost = c.podsPerNode() * c.gpusPerPod();
    if (perHost > inst.gpus()) {
      throw new InputProblem(
          "layout "
              + c.layout()
              + " needs "
              + perHost
              + " GPUs per node; "
              + inst.type()
              + " has "
              + inst.gpus());
    }
    List<String> notes = new ArrayList<>();
    Link intra = null;
    if (c.gpusPerPod() > 1) {
      PathKind ik = c.intra();
      if (ik == null) {
        ik = gpu.hasNvlink() ? PathKind.NVLINK : PathKind.SHM;
        if (ik == PathKind.SHM) {
          notes.add(
              gpu.name()
                  + " has no NVLink: NCCL uses SHM between GPUs that do not share a PCIe switch"
                  + " (it does not use P2P across CPU host bridges by default, NCCL paths.cc);"
                  + " give --intra pcie if they share one");
        }
      }
      Link prior =
          switch (ik) {
            case NVLINK -> priors.nvlink(gpu);
            case PCIE -> priors.pcie(gpu);
            case SHM -> priors.shm(gpu);
            default -> priors.network(ik, inst, 1, false, c.nicGbps());
          };
      // with P2P and SHM off, every hop of the host's ring is a socket flow through its stack
      intra =
          calibration.apply(
              prior,
              1,
              ik == PathKind.TCP && c.nodes() == 1 ? perHost : 0,
              k.value(SocketFlows.EXPONENT));
      calibrationNote(ik, gpu, notes);
    }
    Link inter = null;
    if (c.ncclNodes() > 1) {
      PathKind nk = c.network();
      if (nk == null) {
        nk = inst.efa() > 0 ? PathKind.EFA : PathKind.TCP;
      }
      boolean crossesHosts = c.nodes() > 1;
      Link prior = priors.network(nk, inst, c.podsPerNode(), crossesHosts, c.nicGbps());
      int sharers = nk == PathKind.TCP && !crossesHosts ? 1 : c.podsPerNode();
      // pods of one host over TCP: the ring leaves each pod once, or at every hop when the pods'
      // own GPUs talk over TCP too; those flows share the host's CPUs
      int hostHops =
          nk == PathKind.TCP && !crossesHosts
              ? SocketFlows.ringFlows(
                  c.podsPerNode(), c.gpusPerPod(), intra != null && intra.path() == PathKind.TCP)
              : 0;
      inter = calibration.apply(prior, sharers, hostHops, k.value(SocketFlows.EXPONENT));
      calibrationNote(nk, gpu, notes);
      if (c.podsPerNode() > 1) {
        notes.add(
            c.podsPerNode()
                + " pods per node: each pod has its own hostname, so NCCL counts it as a node"
                + " (its host hash) and GPUs of one host talk over "
                + nk.label()
                + " instead of "
                + (intra != null ? intra.path().label() : gpu.hasNvlink() ? "NVLink" : "SHM"));
      }
    }
    Set<Protocol> protocols = EnumSet.of(Protocol.LL, Protocol.SIMPLE);
    boolean gdrNet =
        inter == null
            || ((inter.path() == PathKind.EFA || inter.path() == PathKind.IB)
                && inst.gpuDirectRdma());
    if ((intra == null || intra.path() == PathKind.NVLINK) && gdrNet) {
      protocols.add(Protocol.LL128);
    }
    if (inter != null && inter.path() == PathKind.EFA && !inst.gpuDirectRdma()) {
      protocols = EnumSet.of(Protocol.SIMPLE);
      notes.add(
          inst.type()
              + " has no GPUDirect RDMA: EFA stages through host memory and NCCL runs with"
              + " NCCL_PROTO=simple, as AWS requires");
    }
    CommGroup g =
        new CommGroup(
            c.ranks(),
            c.ncclNodes(),
            c.gpusPerPod(),
            intra,
            inter,
            GpuArch.of(gpu.computeCapability()),
            protocols);
    return new Resolved(inst, gpu, g, notes);
  }

  private void calibrationNote(PathKind path, GpuSpec gpu, List<String> notes) {
    calibration
        .fit(path)
        .ifPresent(
            f -> {
              if (f.gpu() != null
                  && catalog.gpuByName(f.gpu()).map(g -> !g.id().equals(gpu.id())).orElse(true)) {
                notes.add(
                    "the "
                        + path.label()
                        + " calibration was measured on "
                        + f.gpu()
                        + ", not on "
                        + gpu.name()
                        + ": it is applied as it is");
              }
            });
  }

  /** Predicts one scenario. */
  public Prediction predict(Scenario s) throws InputProblem {
    Workload w = s.workload();
    Cluster c = s.cluster();
    Resolved r = resolve(c);
    InstanceSpec inst = r.instance();
    GpuSpec gpu = r.gpu();
    CommGroup g = r.group();
    List<String> assumptions = new ArrayList<>(r.notes());
    List<String> warnings = new ArrayList<>();
    List<Input> inputs = new ArrayList<>();
    ModelSpec m = w.model();
    int n = c.ranks();

    inputs.add(
        new Input(
            "model",
            m.name()
                + ": "
                + num(m.params() / 1e9)
                + " B parameters, "
                + m.layers()
                + " layers, hidden "
                + m.hidden(),
            m.sources().isEmpty() ? List.of("given") : m.sources()));
    inputs.add(
        new Input(
            "GPU",
            n
                + " x "
                + gpu.name()
                + " ("
                + (c.nodes() > 1 ? c.nodes() + " x " : "")
                + inst.type()
                + ", "
                + c.podsPerNode()
                + (c.podsPerNode() == 1 ? " pod" : " pods")
                + " of "
                + c.gpusPerPod()
                + " per node)",
            join(gpu.sources(), inst.sources())));

    // Compute.
    double peak;
    List<String> peakSources;
    if (w.tflops() != null) {
      peak = w.tflops();
      peakSources = List.of("given");
    } else if (w.precision() == Precision.FP32) {
      throw new InputProblem(
          "the catalog has no FP32/TF32 peak for " + gpu.name() + "; pass --tflops");
    } else if (gpu.bf16Tflops() == null) {
      throw new InputProblem(
          "the catalog has no BF16 TFLOPS for " + gpu.name() + "; pass --tflops");
    } else {
      peak = gpu.bf16Tflops();
      peakSources = gpu.sources();
    }
    inputs.add(
        new Input(
            "GPU peak" + (w.tflops() != null ? "" : " (BF16 dense)"),
            num(peak) + " TFLOPS",
            peakSources));
    int passes = ComputeTime.passes(w.checkpointing());
    long tokensMb = (long) w.microBatch() * w.seq();
    double params = m.params();
    double perToken = passes * (2 * params + 4.0 * m.layers() * m.hidden() * w.seq());
    double flopsMb = tokensMb * perToken;
    ComputeTime ct = new ComputeTime(k);
    ProbeLaunch host = calibration.launch().orElse(null);
    if (host != null && w.mfu() == null && !calibration.scalesLaunch()) {
      // shown, not applied: on held-out one-pod steps it widened the errors (Calibration)
      inputs.add(
          new Input(
              "launch",
              String.format(
                  Locale.ROOT,
                  "measured by the probe, %s us/op against %s on the fit host; not applied: on"
                      + " held-out one-pod steps scaling the launch time by it widened the errors"
                      + " (docs/model-validation.md, the launch section)",
                  num3(host.layerUs()),
                  num3(k.value(LAUNCH_REF))),
              join(List.of(host.evidence().where()), k.parameter(LAUNCH_REF).sources())));
    } else if (host != null && w.mfu() == null) {
      // the host's launch speed, measured by the probe's micro-benchmark, against the fit host's
      double ref = k.value(LAUNCH_REF);
      ct = ct.withLaunchScale(host.layerUs() / ref);
      inputs.add(
          new Input(
              "launch",
              String.format(
                  Locale.ROOT,
                  "measured by the probe, %s us/op against %s on the fit host: %s s per layer"
                      + " (x %s)",
                  num3(host.layerUs()),
                  num3(ref),
                  num3(ct.launchPerLayerS()),
                  num3(host.layerUs() / ref)),
              join(List.of(host.evidence().where()), k.parameter(LAUNCH_REF).sources())));
    }
    double computeMb;
    double mfu;
    boolean launchBound = false;
    if (w.mfu() != null) {
      mfu = w.mfu();
      computeMb = flopsMb / (peak * 1e12 * mfu);
      inputs.add(new Input("MFU", num(mfu), List.of("given")));
    } else {
      double flopS = ct.flopSeconds(flopsMb, peak);
      // FSDP's per-layer gathers and reductions make every rank wait on the others' launches
      // (measured for FSDP2; DeepSpeed ZeRO-3's own hooks were not measured and keep one rank's)
      int peers = w.strategy() == Strategy.FSDP ? c.ranks() - 1 : 0;
      double launchS = ct.launchSeconds(m.layers(), w.checkpointing(), peers);
      launchBound = launchS > flopS;
      computeMb = Math.max(flopS, launchS);
      mfu = flopsMb / (peak * 1e12 * computeMb);
      inputs.add(
          new Input(
              "MFU",
              String.format(
                  Locale.ROOT,
                  "%s (derived: the FLOPs of a micro-step take %s s at %s of peak, launching its"
                      + " %d layers takes %s s on the host (%s s per layer%s%s); the longer, %s,"
                      + " sets the pace)",
                  num3(mfu),
                  num3(flopS),
                  num(ct.kernelShare()),
                  m.layers(),
                  num3(launchS),
                  num3(ct.launchPerLayerS()),
                  w.checkpointing() ? " x 4/3 with recomputation" : "",
                  peers > 0
                      ? String.format(
                          Locale.ROOT,
                          " x %s: per-layer collectives wait on %d other ranks' launches, %s"
                              + " per rank%s",
                          num3(ct.peerFactor(peers)),
                          peers,
                          num3(ct.peerShare()),
                          peers > ct.peerCap()
                              ? " up to " + ct.peerCap() + " (the most measured)"
                              : "")
                      : "",
                  launchBound ? "launching" : "the FLOPs"),
              join(
                  join(
                      k.parameter("compute.kernelShare").sources(),
                      k.parameter("compute.launchPerLayerS").sources()),
                  peers > 0 ? k.parameter("compute.launchPerPeerShare").sources() : List.of())));
    }
    inputs.add(
        new Input(
            "FLOPs per token",
            (passes * 2)
                + " x N + "
                + passes
                + " x 4 x layers x hidden x seq = "
                + sci(perToken)
                + (w.checkpointing() ? " (activation recomputation: one more forward)" : ""),
            k.parameter("flops.perParamToken").sources()));
    int ga = w.gradAccum();
    double overheadMb = w.overheadS();
    // ZeRO-3's per-module fetch and release hooks, counted from the shape, unless the run's own
    // framework time is given (--overhead, or fitted to its DeepSpeed timers), which replaces it
    double hooksMb = overheadMb > 0 ? 0 : Zero3Hooks.seconds(k, w);
    if (hooksMb > 0) {
      overheadMb = hooksMb;
      inputs.add(
          new Input(
              "ZeRO-3 module hooks",
              String.format(
                  Locale.ROOT,
                  "%d modules with parameters (%s) x %d passes (forward, backward%s) x %s ms per"
                      + " module and pass = %s s per micro-step",
                  Zero3Hooks.modules(m),
                  Zero3Hooks.gated(m)
                      ? m.layers() + " layers of 9, the preset's architecture, and 3 outside them"
                      : m.layers() + " layers of 6, a GPT-2-like layer assumed, and 3 outside them",
                  Zero3Hooks.passes(w.checkpointing()),
                  w.checkpointing() ? ", recomputed forward" : "",
                  num3(k.value(Zero3Hooks.KEY) * 1e3),
                  num3(hooksMb)),
              k.parameter(Zero3Hooks.KEY).sources()));
      assumptions.add(
          "ZeRO-3: every module with parameters runs DeepSpeed's fetch and release hooks once per"
              + " pass; their host time adds to the micro-step and communication can overlap it;"
              + " the constant was fitted without parameter offload, whose host side it does not"
              + " hold");
    }
    double backward = (passes - 1.0) / passes;

    // Links.
    if (g.intra() != null) {
      inputs.add(
          new Input(
              "intra-node path",
              g.intra().path().label() + ", " + num(g.intra().busBwGBps()) + " GB/s bus bandwidth",
              g.intra().sources()));
    }
    if (g.inter() != null) {
      inputs.add(
          new Input(
              "network path",
              g.inter().path().label()
                  + ", "
                  + num(g.inter().busBwGBps())
                  + " GB/s bus bandwidth per "
                  + (c.podsPerNode() > 1 ? "pod" : "node"),
              g.inter().sources()));
    }

    // Collectives.
    long pBytes = m.params() * w.precision().bytes();
    long gBytes = m.params() * w.reduce().bytes();
    int layers = m.layers();
    List<CollectiveUse> uses = new ArrayList<>();
    Strategy st = w.strategy();
    switch (st) {
      case ZERO3, FSDP -> {
        CollectiveCost ag = costs.cost(CollectiveOp.ALL_GATHER, pBytes / layers, g);
        CollectiveCost rs = costs.cost(CollectiveOp.REDUCE_SCATTER, gBytes / layers, g);
        double agS = ag.seconds() * layers;
        double rsS = rs.seconds() * layers;
        // each pass hides only its own collectives: the forward's gathers behind the forward,
        // the backward's gathers and reductions behind the backward (the backward starts only
        // when the forward's loss is known, so a slack forward cannot hide backward traffic)
        double window = computeMb + overheadMb;
        double forwardWindow = window / passes;
        double exposedF = exposedBehind(agS, forwardWindow, layers);
        double backS = agS + rsS;
        double exposedB =
            Math.min(backS, Math.max(0, backS - (window - forwardWindow)) + rsS / layers);
        double shareB = backS > 0 ? exposedB / backS : 0;
        uses.add(use("parameters before forward", ag, ga * layers, ga * agS, ga * exposedF, g));
        uses.add(
            use("parameters before backward", ag, ga * layers, ga * agS, ga * agS * shareB, g));
        uses.add(use("gradients", rs, ga * layers, ga * rsS, ga * rsS * shareB, g));
        assumptions.add(
            st.label()
                + ": per micro-step one all_gather of the parameters before forward, one before"
                + " backward and one reduce_scatter of the gradients, one call per layer; prefetch"
                + " overlaps the forward's gathers with the forward and the backward's gathers and"
                + " reductions with the backward, except the first layer's gather and the last"
                + " layer's reduction");
      }
      case ZERO2, ZERO1 -> {
        // ZeRO-2 reduce-scatters every micro-step, ZeRO-1 once per step (the last backward).
        int times = st == Strategy.ZERO2 ? ga : 1;
        CollectiveCost rs = costs.cost(CollectiveOp.REDUCE_SCATTER, gBytes / layers, g);
        double rsS = rs.seconds() * layers;
        double exposed = exposedBehind(rsS, computeMb * backward + overheadMb, layers);
        uses.add(use("gradients", rs, times * layers, times * rsS, times * exposed, g));
        uses.add(updatedParameters(pBytes, layers, g));
        assumptions.add(
            (st == Strategy.ZERO2
                    ? "ZeRO-2: gradients reduce-scattered every micro-step during backward"
                    : "ZeRO-1: gradients reduce-scattered once per step during the last backward")
                + "; updated parameters all-gathered after the optimizer step, not overlapped");
      }
      case DDP -> {
        CollectiveCost ar = costs.cost(CollectiveOp.ALL_REDUCE, gBytes / layers, g);
        double arS = ar.seconds() * layers;
        double exposed = exposedBehind(arS, computeMb * backward + overheadMb, layers);
        uses.add(use("gradients", ar, layers, arS, exposed, g));
        assumptions.add(
            "DDP: one all_reduce of the gradients per step (no_sync while accumulating),"
                + " overlapped with the last backward except the last bucket");
      }
    }

    List<Term> terms = new ArrayList<>();
    terms.add(
        new Term(
            Term.Kind.COMPUTE,
            "compute",
            ga * computeMb,
            String.format(
                    Locale.ROOT,
                    "%d micro-steps x %d tokens x %s FLOP/token = %s FLOP per GPU at %s x %s TFLOPS",
                    ga,
                    tokensMb,
                    sci(perToken),
                    sci(ga * flopsMb),
                    num3(mfu),
                    num(peak))
                + (launchBound ? " (host-bound: launching the layers takes longer)" : "")));
    if (!w.offload().any()) {
      gpuOptimizer(st, params / (st == Strategy.DDP ? 1 : n), gpu, ct, terms, inputs, assumptions);
    }
    if (hooksMb > 0) {
      terms.add(
          new Term(
              Term.Kind.OVERHEAD,
              "ZeRO-3 module hooks",
              ga * hooksMb,
              String.format(
                  Locale.ROOT,
                  "%d micro-steps x %d module fetches x %s ms",
                  ga,
                  Zero3Hooks.perMicroStep(w),
                  num3(k.value(Zero3Hooks.KEY) * 1e3))));
    } else if (overheadMb > 0) {
      terms.add(
          new Term(
              Term.Kind.OVERHEAD,
              "framework overhead",
              ga * overheadMb,
              ga + " micro-steps x " + num(overheadMb) + " s (given)"));
    }
    for (CollectiveUse u : uses) {
      if (u.exposedSeconds() > 0) {
        terms.add(
            new Term(
                Term.Kind.COMMUNICATION,
                u.op().label() + " (" + u.purpose() + ")",
                u.exposedSeconds(),
                String.format(
                    Locale.ROOT,
                    "%d calls of %s over %s, %s s in all, %s s exposed",
                    u.callsPerStep(),
                    bytes(u.perCall().bytes()),
                    u.perCall().bottleneck() == null ? "-" : u.perCall().bottleneck().label(),
                    num3(u.seconds()),
                    num3(u.exposedSeconds()))));
      }
    }

    // Offload.
    if (w.offload().any()) {
      offload(w, c, inst, gpu, st, ga * computeMb, terms, inputs, assumptions, warnings);
    }

    double step = terms.stream().mapToDouble(Term::seconds).sum();
    double job = w.steps() * step + w.startupS();
    if (w.startupS() > 0) {
      assumptions.add("job time adds " + num(w.startupS()) + " s of startup (given)");
    } else {
      assumptions.add("job time is steps x step time: model loading and startup not included");
    }
    Prediction draft =
        new Prediction(
            s, step, job, terms, uses, g, "", List.of(), inputs, assumptions, warnings, List.of());
    String bottleneck = bottleneck(draft, gpu, mfu, peak);
    List<String> explanations = explain(draft);
    return new Prediction(
        s,
        step,
        job,
        terms,
        uses,
        g,
        bottleneck,
        explanations,
        inputs,
        assumptions,
        warnings,
        resolveSources(inputs));
  }

  private void offload(
      Workload w,
      Cluster c,
      InstanceSpec inst,
      GpuSpec gpu,
      Strategy st,
      double computeS,
      List<Term> terms,
      List<Input> inputs,
      List<String> assumptions,
      List<String> warnings)
      throws InputProblem {
    if (st == Strategy.DDP) {
      throw new InputProblem("DDP has no CPU offload; use --zero 1, 2 or 3, or --strategy fsdp");
    }
    Offload eff = w.offload();
    if (eff == Offload.FULL && (st == Strategy.ZERO1 || st == Strategy.ZERO2)) {
      eff = Offload.OPTIMIZER;
      assumptions.add("DeepSpeed offloads parameters only in stage 3: optimizer offload only");
    }
    if (eff == Offload.OPTIMIZER && st == Strategy.FSDP) {
      eff = Offload.FULL;
      assumptions.add("FSDP's CPU offload moves parameters and optimizer state together");
    }
    double n = c.ranks();
    double params = w.model().params();
    int ga = w.gradAccum();
    double p = params * w.precision().bytes() / n;
    double gr = params * w.reduce().bytes() / n;
    double fp32 = params * 4 / n;
    double h2d;
    double d2h;
    String pattern;
    if (st == Strategy.FSDP) {
      h2d = 2 * ga * fp32;
      d2h = ga * fp32;
      pattern =
          "FSDP offload: fp32 parameter shards copied to the GPU before each all_gather (2 per"
              + " micro-step), fp32 gradient shards copied back every micro-step";
    } else if (st == Strategy.ZERO3) {
      h2d = ga * p + (eff == Offload.FULL ? 2 * ga * p : p);
      d2h = ga * p + fp32;
      pattern =
          "DeepSpeed ZeRO-3 offload (DS-STAGE3): the gradient partition goes to the CPU buffer and"
              + " back every micro-step, fp32 gradients copied at the boundary"
              + (eff == Offload.FULL
                  ? ", parameter partitions fetched from host memory before forward and backward"
                  : ", updated parameters copied back after the step");
    } else {
      h2d = p;
      d2h = (st == Strategy.ZERO2 ? ga : 1) * gr;
      pattern =
          "DeepSpeed ZeRO-"
              + (st == Strategy.ZERO2 ? "2" : "1")
              + " offload: gradient partitions copied to the CPU"
              + (st == Strategy.ZERO2 ? " every micro-step" : " once per step")
              + ", updated parameters copied back";
    }
    double pcie =
        gpu.pcie() != null ? gpu.pcie().gbps() * k.value("copy.pinnedShare") : priors.pciGBps(gpu);
    double tPcie = Math.max(h2d, d2h) / (pcie * 1e9);
    inputs.add(
        new Input(
            "host-GPU copies (offload)",
            gpu.pcie() != null
                ? num(pcie)
                    + " GB/s per direction: "
                    + num(k.value("copy.pinnedShare"))
                    + " (measured pinned copies) x PCIe Gen"
                    + gpu.pcie().generation()
                    + "'s "
                    + num(gpu.pcie().gbps())
                    + " GB/s"
                : num(pcie) + " GB/s per direction (NCCL's PCI model)",
            join(gpu.sources(), k.parameter("copy.pinnedShare").sources())));
    // FSDP copies on its own stream, prefetching the next layer while this one computes.
    double exposedPcie = st == Strategy.FSDP ? Math.max(0, tPcie - computeS) : tPcie;
    terms.add(
        new Term(
            Term.Kind.OFFLOAD_TRANSFER,
            "offload copies (PCIe)",
            exposedPcie,
            String.format(
                    Locale.ROOT,
                    "%s host-to-GPU and %s GPU-to-host per GPU per step at %s GB/s each way: %s s",
                    bytes((long) h2d),
                    bytes((long) d2h),
                    num(pcie),
                    num3(tPcie))
                + (st == Strategy.FSDP
                    ? ", " + num3(tPcie - exposedPcie) + " s of it hidden behind compute"
                    : "")));
    assumptions.add(
        pattern
            + (st == Strategy.FSDP
                ? "; the copies run on their own stream beside compute (FSDP prefetch)"
                : "; the copies are not overlapped with compute"));
    int perHost = c.podsPerNode() * c.gpusPerPod();
    double onHost = params * perHost / n;
    // one training process per GPU; each runs its own CPU optimizer on its shard, side by side
    int threads =
        w.cpuThreads() != null
            ? w.cpuThreads()
            : HostThreads.torchrunDefault(c.gpusPerPod(), inst.vcpus());
    HostThreads host = new HostThreads(perHost, threads, inst.vcpus());
    CpuOptimizerTime cpu =
        st.deepSpeed()
            ? CpuOptimizerTime.deepSpeed(
                k, host, params / n, st == Strategy.ZERO3 && eff == Offload.FULL)
            : CpuOptimizerTime.torch(k, host, params / n, w.model().layers());
    double rate = w.cpuAdamRate() != null ? w.cpuAdamRate() : cpu.hostRate();
    String threadsNote =
        w.cpuThreads() != null
            ? ""
            : " (threads not declared: torchrun's "
                + (c.gpusPerPod() > 1
                    ? "OMP_NUM_THREADS=1 with several processes per pod"
                    : "default with one process per pod, every vCPU")
                + ")";
    inputs.add(
        new Input(
            "CPU optimizer rate",
            sci(rate)
                + " parameters/s per host ("
                + (w.cpuAdamRate() != null ? "given" : cpu.detail() + threadsNote)
                + ")",
            w.cpuAdamRate() != null
                ? List.of("given")
                : join(join(cpu.sources(), inst.sources()), List.of("TORCHRUN-OMP"))));
    terms.add(
        new Term(
            Term.Kind.CPU_OPTIMIZER,
            "CPU optimizer",
            onHost / rate,
            String.format(
                    Locale.ROOT,
                    "%s parameters updated on each host (%d GPUs of %d) at %s/s",
                    sci(onHost),
                    perHost,
                    (int) n,
                    sci(rate))
                + (w.cpuAdamRate() != null ? "" : ": " + cpu.detail())));
    double perParam =
        k.value("offload.hostBytesPerParam")
            + (st.deepSpeed() && eff == Offload.FULL ? w.precision().bytes() : 0);
    double need = onHost * perParam;
    double have = inst.memoryGiB() * (1L << 30);
    inputs.add(
        new Input(
            "host memory", num(inst.memoryGiB()) + " GiB per " + inst.type(), inst.sources()));
    if (have > 0 && need > 0.9 * have) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "offload needs about %s of host memory per node (%s bytes per parameter x %s"
                  + " parameters), more than 90%% of %s's %s GiB",
              bytes((long) need),
              num(perParam),
              sci(onHost),
              inst.type(),
              num(inst.memoryGiB())));
    }
  }

  /** AdamW on the GPU: memory-bound, over the parameters each GPU holds. */
  private void gpuOptimizer(
      Strategy st,
      double paramsPerGpu,
      GpuSpec gpu,
      ComputeTime ct,
      List<Term> terms,
      List<Input> inputs,
      List<String> assumptions) {
    if (gpu.memoryTBs() == null) {
      assumptions.add(
          "the catalog has no memory bandwidth for "
              + gpu.name()
              + ": the optimizer step is left out");
      return;
    }
    double seconds = ct.optimizerSeconds(paramsPerGpu, gpu.memoryTBs());
    inputs.add(
        new Input(
            "GPU memory bandwidth (optimizer)",
            num(gpu.memoryTBs())
                + " TB/s x "
                + num(ct.hbmShare())
                + " reached by AdamW at "
                + num(ct.optBytesPerParam())
                + " bytes per parameter",
            join(gpu.sources(), k.parameter("optimizer.gpu.hbmShare").sources())));
    terms.add(
        new Term(
            Term.Kind.COMPUTE,
            "optimizer step (GPU)",
            seconds,
            String.format(
                Locale.ROOT,
                "%s parameters per GPU%s x %s bytes at %s TB/s",
                sci(paramsPerGpu),
                st == Strategy.DDP ? "" : " (its shard)",
                num(ct.optBytesPerParam()),
                num(gpu.memoryTBs() * ct.hbmShare()))));
  }

  private String bottleneck(Prediction p, GpuSpec gpu, double mfu, double peak) {
    double step = p.stepS();
    double compute = p.seconds(Term.Kind.COMPUTE);
    double comm = p.seconds(Term.Kind.COMMUNICATION);
    double pcie = p.seconds(Term.Kind.OFFLOAD_TRANSFER);
    double cpu = p.seconds(Term.Kind.CPU_OPTIMIZER);
    double overhead = p.seconds(Term.Kind.OVERHEAD);
    double max = Math.max(Math.max(compute, comm), Math.max(Math.max(pcie, cpu), overhead));
    String pct = " (" + Math.round(100 * max / step) + "% of the " + num3(step) + " s step)";
    if (max == comm) {
      CollectiveUse worst =
          p.collectives().stream()
              .max(Comparator.comparingDouble(CollectiveUse::exposedSeconds))
              .orElseThrow();
      Link b = p.group().bottleneck();
      return "Communication-bound: the collectives move "
          + num(p.communicationGB())
          + " GB per GPU per step over "
          + b.path().label()
          + " at "
          + num(b.busBwGBps())
          + " GB/s bus bandwidth; "
          + num3(comm)
          + " s of it is not hidden by compute"
          + (overhead > 0 ? " or host work" : "")
          + pct
          + ", most in "
          + worst.op().label()
          + " ("
          + worst.purpose()
          + ").";
    }
    if (max == cpu) {
      return "CPU-bound: the CPU optimizer takes "
          + num3(cpu)
          + " s per step"
          + pct
          + "; GPUs and network wait for the host.";
    }
    if (max == pcie) {
      return "Offload-bound: copies between host and GPU memory take "
          + num3(pcie)
          + " s per step"
          + pct
          + ".";
    }
    if (max == overhead) {
      boolean hooks = p.terms().stream().anyMatch(t -> t.label().equals("ZeRO-3 module hooks"));
      return "Overhead-bound: "
          + (hooks
              ? "ZeRO-3's module hooks (DeepSpeed's fetch and release per module and pass) take "
              : "the given framework overhead takes ")
          + num3(overhead)
          + " s"
          + pct
          + (hooks && comm > 0 ? "; collectives overlap them" : "")
          + ".";
    }
    return "Compute-bound: GPU compute takes "
        + num3(compute)
        + " s per step"
        + pct
        + " at "
        + num(mfu)
        + " MFU of "
        + num(peak)
        + " TFLOPS ("
        + gpu.name()
        + "); communication ("
        + num3(p.communicationSeconds())
        + " s) is "
        + (comm < 0.05 * step ? "almost all hidden behind it." : "partly hidden behind it.");
  }

  private List<String> explain(Prediction p) {
    List<String> out = new ArrayList<>();
    double comm = p.communicationSeconds();
    double exposed = p.seconds(Term.Kind.COMMUNICATION);
    Link b = p.group().bottleneck();
    if (b != null && comm > 0) {
      out.add(
          String.format(
              Locale.ROOT,
              "Collectives take %s s per step over %s (%s GB/s bus bandwidth); %s s of it is"
                  + " exposed, the rest overlaps compute%s.",
              num3(comm),
              b.path().label(),
              num(b.busBwGBps()),
              num3(exposed),
              p.seconds(Term.Kind.OVERHEAD) > 0 ? " and host work" : ""));
    }
    Cluster c = p.scenario().cluster();
    CommGroup g = p.group();
    if (c.podsPerNode() > 1 && g.inter() != null) {
      out.add(
          String.format(
              Locale.ROOT,
              "With %d pods per node NCCL sees %d nodes of %d GPU(s): each pod has its own"
                  + " hostname, so GPUs of one host talk over %s at %s GB/s per pod instead of"
                  + " over %s; one pod per node keeps that traffic inside the host.",
              c.podsPerNode(),
              g.nodes(),
              g.ranksPerNode(),
              g.inter().path().label(),
              num(g.inter().busBwGBps()),
              intraLabel(p)));
    }
    double offload = p.seconds(Term.Kind.OFFLOAD_TRANSFER) + p.seconds(Term.Kind.CPU_OPTIMIZER);
    if (offload > 0) {
      out.add(
          String.format(
              Locale.ROOT,
              "CPU offload adds %s s per step (PCIe copies %s s, CPU optimizer %s s) that no"
                  + " network change removes: it is %d%% of the step, which dilutes any"
                  + " network penalty.",
              num3(offload),
              num3(p.seconds(Term.Kind.OFFLOAD_TRANSFER)),
              num3(p.seconds(Term.Kind.CPU_OPTIMIZER)),
              Math.round(100 * offload / p.stepS())));
    }
    return out;
  }

  private String intraLabel(Prediction p) {
    GpuSpec gpu = catalog.gpuOf(catalog.instance(p.scenario().cluster().instance()).orElseThrow());
    return gpu.hasNvlink() ? "NVLink" : "SHM or PCIe";
  }

  /**
   * What shows of {@code seconds} of one-call-per-layer collectives run behind a {@code window} of
   * compute: what the window cannot hide, and at least the last layer's call, which has nothing
   * left to overlap.
   */
  private static double exposedBehind(double seconds, double window, int layers) {
    return Math.min(seconds, Math.max(0, seconds - window) + seconds / layers);
  }

  /** ZeRO-1/2: the updated parameters all-gathered after the optimizer step, not overlapped. */
  private CollectiveUse updatedParameters(long pBytes, int layers, CommGroup g) {
    CollectiveCost ag = costs.cost(CollectiveOp.ALL_GATHER, pBytes / layers, g);
    return use("updated parameters", ag, layers, ag.seconds() * layers, ag.seconds() * layers, g);
  }

  private static CollectiveUse use(
      String purpose,
      CollectiveCost perCall,
      long calls,
      double seconds,
      double exposed,
      CommGroup g) {
    double busGB = calls * perCall.bytes() * perCall.op().busBwFactor(g.ranks()) / 1e9;
    return new CollectiveUse(purpose, perCall.op(), calls, perCall, seconds, exposed, busGB);
  }

  private List<Source> resolveSources(List<Input> inputs) {
    Set<String> keys = new LinkedHashSet<>();
    inputs.forEach(i -> keys.addAll(i.sources()));
    List<Source> out = new ArrayList<>();
    for (String key : keys) {
      Source s = lookup(key);
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  private Source lookup(String key) {
    try {
      return catalog.source(key);
    } catch (IllegalArgumentException e) {
      // not a catalog key
    }
    try {
      return k.source(key);
    } catch (IllegalArgumentException e) {
      // not a model key
    }
    try {
      return presets.source(key);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static List<String> join(List<String> a, List<String> b) {
    Set<String> s = new LinkedHashSet<>(a);
    s.addAll(b);
    return List.copyOf(s);
  }

  static String num(double v) {
    return LinkPriors.num(v);
  }

  /** A figure with about three significant digits: 123, 12.3, 1.23, 0.123. */
  public static String num3(double v) {
    if (v >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (v >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    if (v >= 1) {
      return String.format(Locale.ROOT, "%.2f", v);
    }
    return String.format(Locale.ROOT, "%.3f", v);
  }

  public static String sci(double v) {
    return String.format(Locale.ROOT, "%.3g", v).replace("e+", "e");
  }

  static String bytes(long b) {
    if (b >= 1e9) {
      return num(Math.round(b / 1e7) / 100.0) + " GB";
    }
    if (b >= 1e6) {
      return num(Math.round(b / 1e4) / 100.0) + " MB";
    }
    return num(Math.round(b / 10.0) / 100.0) + " kB";
  }
}
