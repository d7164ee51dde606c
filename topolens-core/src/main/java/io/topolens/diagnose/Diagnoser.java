package io.topolens.diagnose;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.diagnose.rules.AlgorithmUnavailable;
import io.topolens.diagnose.rules.BufferRegistrationFailed;
import io.topolens.diagnose.rules.BusbwBelowExpected;
import io.topolens.diagnose.rules.CollNetUnavailable;
import io.topolens.diagnose.rules.CollectiveMismatch;
import io.topolens.diagnose.rules.CollectiveTimeoutRule;
import io.topolens.diagnose.rules.ConsumerGpuP2p;
import io.topolens.diagnose.rules.CudaArchUnsupported;
import io.topolens.diagnose.rules.CudaBeforeFork;
import io.topolens.diagnose.rules.CudaDriverTooOld;
import io.topolens.diagnose.rules.CudaFault;
import io.topolens.diagnose.rules.CudaOutOfMemory;
import io.topolens.diagnose.rules.CudaUnsupported;
import io.topolens.diagnose.rules.DdpUnusedParameters;
import io.topolens.diagnose.rules.DmabufUnsupported;
import io.topolens.diagnose.rules.DriverLibraryError;
import io.topolens.diagnose.rules.DuplicateGpu;
import io.topolens.diagnose.rules.DuplicateRank;
import io.topolens.diagnose.rules.EfaNotAllocatable;
import io.topolens.diagnose.rules.EfaNotRequested;
import io.topolens.diagnose.rules.EnvOverride;
import io.topolens.diagnose.rules.GdrDisabled;
import io.topolens.diagnose.rules.GdrcopyFailed;
import io.topolens.diagnose.rules.GpuSharingInterposer;
import io.topolens.diagnose.rules.GpuUnavailable;
import io.topolens.diagnose.rules.GpuXidRule;
import io.topolens.diagnose.rules.IbDeviceUnavailable;
import io.topolens.diagnose.rules.IbError;
import io.topolens.diagnose.rules.IbMemlock;
import io.topolens.diagnose.rules.InterNodeTcp;
import io.topolens.diagnose.rules.InvalidArgument;
import io.topolens.diagnose.rules.InvalidDevice;
import io.topolens.diagnose.rules.JobCancelled;
import io.topolens.diagnose.rules.JobUnschedulable;
import io.topolens.diagnose.rules.KnownNcclBugRule;
import io.topolens.diagnose.rules.LaggingRanks;
import io.topolens.diagnose.rules.LoaderRefused;
import io.topolens.diagnose.rules.MasterPortInUse;
import io.topolens.diagnose.rules.MissingRanks;
import io.topolens.diagnose.rules.MixedInstanceTypes;
import io.topolens.diagnose.rules.MpiDaemonFailed;
import io.topolens.diagnose.rules.MpiTransportError;
import io.topolens.diagnose.rules.NcclBuildCudaOld;
import io.topolens.diagnose.rules.NcclError;
import io.topolens.diagnose.rules.NcclInternalError;
import io.topolens.diagnose.rules.NcclNotBuilt;
import io.topolens.diagnose.rules.NcclOlderThanGpu;
import io.topolens.diagnose.rules.NcclTestsNotMpi;
import io.topolens.diagnose.rules.NcclWarnings;
import io.topolens.diagnose.rules.NetPluginFallback;
import io.topolens.diagnose.rules.NetPluginRejected;
import io.topolens.diagnose.rules.NicFarFromGpu;
import io.topolens.diagnose.rules.NoTransport;
import io.topolens.diagnose.rules.NodesAcrossZones;
import io.topolens.diagnose.rules.NvlinkUnused;
import io.topolens.diagnose.rules.NvlsError;
import io.topolens.diagnose.rules.OfiPluginError;
import io.topolens.diagnose.rules.OneRankPerNode;
import io.topolens.diagnose.rules.P2pNotSupported;
import io.topolens.diagnose.rules.P2pSetupFailed;
import io.topolens.diagnose.rules.P2pUnavailable;
import io.topolens.diagnose.rules.ParallelLayoutInvalid;
import io.topolens.diagnose.rules.ProcessGroupNotInitialized;
import io.topolens.diagnose.rules.ProxyError;
import io.topolens.diagnose.rules.RankAborted;
import io.topolens.diagnose.rules.RankBehind;
import io.topolens.diagnose.rules.RankKilled;
import io.topolens.diagnose.rules.RankSegfault;
import io.topolens.diagnose.rules.RemAllocatorFailed;
import io.topolens.diagnose.rules.RendezvousClosed;
import io.topolens.diagnose.rules.RendezvousEnvMissing;
import io.topolens.diagnose.rules.RendezvousTimeout;
import io.topolens.diagnose.rules.ResourceLimit;
import io.topolens.diagnose.rules.ResultsCorrupted;
import io.topolens.diagnose.rules.SameHostOverNetwork;
import io.topolens.diagnose.rules.ServiceMeshSidecar;
import io.topolens.diagnose.rules.ShmExhausted;
import io.topolens.diagnose.rules.SlowBootstrap;
import io.topolens.diagnose.rules.SocketConnect;
import io.topolens.diagnose.rules.SocketInterface;
import io.topolens.diagnose.rules.StoppedAt;
import io.topolens.diagnose.rules.StuckInNccl;
import io.topolens.diagnose.rules.TcpxRxdmFailed;
import io.topolens.diagnose.rules.TopologyDetectionFailed;
import io.topolens.diagnose.rules.TopologyMismatch;
import io.topolens.diagnose.rules.TunerPluginFailed;
import io.topolens.diagnose.rules.VerbsLibraryMissing;
import io.topolens.diagnose.rules.VersionMismatch;
import io.topolens.diagnose.rules.WatchdogStuck;
import io.topolens.diagnose.rules.WorkerLost;
import io.topolens.inputs.InputKind;
import io.topolens.inputs.Inputs;
import io.topolens.model.Cluster;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.verdict.BenchAnalysis;
import io.topolens.verdict.BenchVerdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/** Runs every rule over a job. */
public final class Diagnoser {
  private final List<Rule> rules;

  public Diagnoser(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  /** All rules topolens ships, in the order docs/findings.md lists them. */
  public static Diagnoser standard() {
    return new Diagnoser(
        List.of(
            new NetPluginFallback(),
            new NetPluginRejected(),
            new InterNodeTcp(),
            new SameHostOverNetwork(),
            new OneRankPerNode(),
            new P2pUnavailable(),
            new ConsumerGpuP2p(),
            new ShmExhausted(),
            new SlowBootstrap(),
            new GdrDisabled(),
            new SocketInterface(),
            new EnvOverride(),
            new MissingRanks(),
            new StoppedAt(),
            new StuckInNccl(),
            new NcclTestsNotMpi(),
            new VersionMismatch(),
            new IbError(),
            new IbMemlock(),
            new CudaOutOfMemory(),
            new RemAllocatorFailed(),
            new CudaDriverTooOld(),
            new NcclBuildCudaOld(),
            new KnownNcclBugRule(),
            new NcclOlderThanGpu(),
            new CudaArchUnsupported(),
            new CudaUnsupported(),
            new InvalidDevice(),
            new CudaFault(),
            new DmabufUnsupported(),
            new GdrcopyFailed(),
            new IbDeviceUnavailable(),
            new VerbsLibraryMissing(),
            new InvalidArgument(),
            new GpuUnavailable(),
            new DriverLibraryError(),
            new ResourceLimit(),
            new BufferRegistrationFailed(),
            new ProxyError(),
            new RendezvousTimeout(),
            new RankKilled(),
            new RankSegfault(),
            new RankAborted(),
            new ProcessGroupNotInitialized(),
            new RendezvousClosed(),
            new CudaBeforeFork(),
            new GpuXidRule(),
            new MasterPortInUse(),
            new ServiceMeshSidecar(),
            new RendezvousEnvMissing(),
            new JobCancelled(),
            new LaggingRanks(),
            new RankBehind(),
            new MpiDaemonFailed(),
            new MpiTransportError(),
            new JobUnschedulable(),
            new WorkerLost(),
            new ParallelLayoutInvalid(),
            new GpuSharingInterposer(),
            new NvlsError(),
            new TunerPluginFailed(),
            new LoaderRefused(),
            new NvlinkUnused(),
            new NicFarFromGpu(),
            new P2pNotSupported(),
            new BusbwBelowExpected(),
            new ResultsCorrupted(),
            new NcclError(),
            new CollectiveTimeoutRule(),
            new WatchdogStuck(),
            new OfiPluginError(),
            new TcpxRxdmFailed(),
            new SocketConnect(),
            new DuplicateRank(),
            new DuplicateGpu(),
            new NcclNotBuilt(),
            new CollectiveMismatch(),
            new DdpUnusedParameters(),
            new TopologyMismatch(),
            new TopologyDetectionFailed(),
            new AlgorithmUnavailable(),
            new CollNetUnavailable(),
            new P2pSetupFailed(),
            new NoTransport(),
            new EfaNotAllocatable(),
            new EfaNotRequested(),
            new NodesAcrossZones(),
            new MixedInstanceTypes(),
            new NcclInternalError(),
            new NcclWarnings()));
  }

  public List<Rule> rules() {
    return rules;
  }

  public Diagnosis diagnose(Job job) {
    return diagnose(Observed.of(job));
  }

  /**
   * Judges a job with what was read beside its logs (topology, verdicts on nccl-tests runs) and
   * names those inputs in the diagnosis: what {@code diagnose} and the HTML report both show.
   */
  public Diagnosis diagnose(Job job, Inputs in, List<BenchVerdict> benches) {
    return diagnose(job, in, benches, Cluster.NONE, null);
  }

  /**
   * Judges a job as {@link #diagnose(Job, Inputs, List)} does, and what the cluster said of its
   * pods and nodes against the catalog ({@code diagnose --job}).
   */
  public Diagnosis diagnose(
      Job job, Inputs in, List<BenchVerdict> benches, Cluster cluster, HardwareCatalog catalog) {
    Observed observed =
        new Observed(
            job, in.smi(), in.topologies(), BenchAnalysis.topology(in), benches, cluster, catalog);
    return diagnose(observed)
        .withBeside(
            in.kinds().stream()
                .filter(r -> r.kind() != InputKind.NCCL_LOG)
                .map(r -> new Diagnosis.Beside(r.name(), r.kind().label()))
                .toList())
        .withSteps(in.steps());
  }

  /**
   * Starts {@link #diagnose(Job, Inputs, List, Cluster, HardwareCatalog)} on a thread of its own
   * and gives its diagnosis when asked (waiting for it), so that the caller can write what needs no
   * finding on the other core meanwhile (a big job's JSON document: docs/performance.md, tenth
   * pass). Rules only read the job, which is immutable. What a rule throws is thrown again by the
   * supplier's {@code get}.
   */
  public Supplier<Diagnosis> diagnoseAside(
      Job job, Inputs in, List<BenchVerdict> benches, Cluster cluster, HardwareCatalog catalog) {
    FutureTask<Diagnosis> task =
        new FutureTask<>(() -> diagnose(job, in, benches, cluster, catalog));
    Thread.ofPlatform().name("topolens-rules").daemon().start(task);
    return () -> {
      try {
        return task.get();
      } catch (ExecutionException e) {
        switch (e.getCause()) {
          case RuntimeException r -> throw r;
          case Error r -> throw r;
          default -> throw new IllegalStateException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the rules ran", e);
      }
    };
  }

  /** Runs every rule over a job and what was given beside it. */
  public Diagnosis diagnose(Observed observed) {
    Job job = observed.job();
    List<Finding> findings = new ArrayList<>();
    List<Rule> catchAll = new ArrayList<>();
    for (Rule r : rules) {
      if (r.catchAll()) {
        catchAll.add(r);
      } else {
        findings.addAll(r.check(observed));
      }
    }
    Set<Evidence> cited = new HashSet<>();
    findings.forEach(f -> cited.addAll(f.evidence()));
    for (Rule r : catchAll) {
      for (Finding f : r.check(observed)) {
        List<Evidence> rest = f.evidence().stream().filter(e -> !cited.contains(e)).toList();
        if (!rest.isEmpty()) {
          findings.add(
              new Finding(f.id(), f.severity(), f.title(), f.explanation(), rest, f.fix()));
        }
      }
    }
    findings.sort(Comparator.comparing(Finding::severity).reversed());
    return new Diagnosis(job, findings);
  }
}
