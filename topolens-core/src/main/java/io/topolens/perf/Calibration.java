package io.topolens.perf;

import io.topolens.bench.ProbeLaunch;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fitted paths that replace the model's priors (see {@link Calibrator}), and the host's launch
 * speed when a probe measured it ({@link ProbeLaunch}). The launch speed is shown, not applied: on
 * held-out one-pod steps, scaling the per-layer launch time by it widened the errors (the probe's
 * draw of the host's speed does not carry to the training's processes; docs/model-validation.md,
 * the launch section). Only {@link #withLaunchScaled} applies it, for that comparison.
 */
public final class Calibration {
  private static final Calibration NONE = new Calibration(Map.of(), null, false);

  private final Map<PathKind, PathFit> fits;
  private final ProbeLaunch launch;
  private final boolean scalesLaunch;

  private Calibration(Map<PathKind, PathFit> fits, ProbeLaunch launch, boolean scalesLaunch) {
    this.fits = fits;
    this.launch = launch;
    this.scalesLaunch = scalesLaunch;
  }

  public static Calibration none() {
    return NONE;
  }

  /** These fits with the fit of {@code path} replaced (one measured step's fit). */
  public Calibration with(PathFit fit) {
    Map<PathKind, PathFit> m = new EnumMap<>(PathKind.class);
    m.putAll(fits);
    m.put(fit.path(), fit);
    return new Calibration(m, launch, scalesLaunch);
  }

  public static Calibration of(List<PathFit> fits) {
    Map<PathKind, PathFit> m = new EnumMap<>(PathKind.class);
    fits.forEach(f -> m.put(f.path(), f));
    return new Calibration(m, null, false);
  }

  /** These fits with the host's launch speed a probe measured (null: none), shown, not applied. */
  public Calibration withLaunch(ProbeLaunch measured) {
    return new Calibration(fits, measured, false);
  }

  /**
   * These fits with the host's launch speed a probe measured, applied to the per-layer launch time:
   * what {@code validate-model} compares against the model without it.
   */
  public Calibration withLaunchScaled(ProbeLaunch measured) {
    return new Calibration(fits, measured, measured != null);
  }

  /** Whether the per-layer launch time is scaled by {@link #launch()}. */
  public boolean scalesLaunch() {
    return scalesLaunch;
  }

  /** The probe's launch micro-benchmark, when one of the calibration's files held it. */
  public Optional<ProbeLaunch> launch() {
    return Optional.ofNullable(launch);
  }

  public Optional<PathFit> fit(PathKind path) {
    return Optional.ofNullable(fits.get(path));
  }

  public List<PathFit> fits() {
    return new ArrayList<>(fits.values());
  }

  /** No fitted path (a launch measurement alone leaves the paths at their priors). */
  public boolean isEmpty() {
    return fits.isEmpty();
  }

  /**
   * The prior replaced by its fit, if there is one. A network fit is taken as what one host's NIC
   * gives a ring and is shared by the {@code podsPerHost} pods on it, like the prior.
   */
  public Link apply(Link prior, int podsPerHost) {
    return apply(prior, podsPerHost, 0, 0);
  }

  /**
   * The prior replaced by its fit, as {@link #apply(Link, int)}; when both the fit's runs and this
   * ring know their network hops on one host ({@code hostNetHops} > 0), each hop is one flow
   * through the host's network stack, and the host's aggregate socket rate grows with its flows as
   * flows^{@code flowExponent} ({@link SocketFlows}): the fit's rate x (its hops / this ring's
   * hops)^(1 - flowExponent) (issue 12; docs/model.md "Pods sharing a host").
   */
  public Link apply(Link prior, int podsPerHost, int hostNetHops, double flowExponent) {
    PathFit f = fits.get(prior.path());
    if (f == null) {
      return prior;
    }
    int share = prior.path().network() ? Math.max(1, podsPerHost) : 1;
    double flows =
        hostNetHops > 0 && f.netHops() > 0
            ? SocketFlows.perFlowScale(f.netHops(), hostNetHops, flowExponent)
            : 1.0;
    String basis =
        "calibrated from "
            + String.join(", ", f.files())
            + ": "
            + LinkPriors.num(f.busBwGBps())
            + " GB/s bus bandwidth, "
            + LinkPriors.num(f.hopLatencyUs())
            + " us per hop ("
            + f.points()
            + " points, rms error "
            + Math.round(f.rmsRelError() * 1000) / 10.0
            + "%)"
            + (share > 1 ? ", / " + share + " pods sharing the NIC" : "")
            + (flows != 1.0
                ? ", x ("
                    + f.netHops()
                    + "/"
                    + hostNetHops
                    + ")^"
                    + LinkPriors.num(1 - flowExponent)
                    + " (its runs' network hops over this ring's: the host's socket rate grows as"
                    + " flows^"
                    + LinkPriors.num(flowExponent)
                    + ")"
                : "");
    return new Link(
        prior.path(),
        f.busBwGBps() / share * flows,
        prior.channels(),
        f.hopLatencyUs(),
        basis,
        f.files(),
        true);
  }
}
