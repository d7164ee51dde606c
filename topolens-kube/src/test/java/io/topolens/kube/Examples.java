package io.topolens.kube;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Paths to the repository's {@code examples/k8s} manifests (the same files the README runs), and to
 * {@code ../shared/crds} beside the repository (or {@code $TOPOLENS_SHARED/crds}).
 */
public final class Examples {
  private Examples() {}

  /** The repository root: the parent of the module directory tests run in. */
  public static Path root() {
    Path here = Path.of("").toAbsolutePath();
    return Files.isDirectory(here.resolve("examples")) ? here : here.getParent();
  }

  /**
   * {@code examples/k8s/<name>} as a path relative to the working directory, as a user types it.
   */
  public static String lint(String name) {
    return root().resolve("examples/k8s/lint").resolve(name).toString();
  }

  public static Path k8s(String name) {
    return root().resolve("examples/k8s").resolve(name);
  }

  /** Where the upstream CRDs are: {@code $TOPOLENS_SHARED/crds}, else {@code ../shared/crds}. */
  public static Path crds() {
    String env = System.getenv("TOPOLENS_SHARED");
    return env != null ? Path.of(env, "crds") : root().getParent().resolve("shared/crds");
  }
}
