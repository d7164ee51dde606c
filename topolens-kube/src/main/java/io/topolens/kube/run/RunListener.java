package io.topolens.kube.run;

/** Hears a run's progress, one line per change: created, scheduled, running, ended. */
@FunctionalInterface
public interface RunListener {
  void progress(String line);
}
