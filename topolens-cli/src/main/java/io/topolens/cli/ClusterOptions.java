package io.topolens.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.kube.collect.CollectRequest;
import io.topolens.kube.collect.Collection;
import io.topolens.kube.collect.CollectionFile;
import io.topolens.kube.collect.JobCollector;
import io.topolens.kube.collect.JobRef;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * diagnose's options that read a job from the cluster (or a folder saved from it) instead of log
 * files; kubectl's names for the cluster options. See docs/kubernetes.md.
 */
final class ClusterOptions {

  @Option(
      names = "--job",
      paramLabel = "KIND/NAME",
      description =
          "Read a job from the cluster: trainjob/NAME, pytorchjob/NAME, mpijob/NAME, jobset/NAME or"
              + " job/NAME (all its pods' logs, current and previous, and their nodes).")
  String job;

  @Option(
      names = {"-l", "--selector"},
      paramLabel = "LABELS",
      description = "Read the pods with these labels instead of a job's (app=llama,role=worker).")
  String selector;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description = "Namespace of --job (default: the kubeconfig context's).")
  String namespace;

  @Mixin KubeconfigOptions kube = new KubeconfigOptions();

  @Option(names = "--parallel", paramLabel = "N", description = "Logs fetched at once (default 8).")
  int parallel = CollectRequest.DEFAULT_PARALLEL;

  @Option(
      names = "--save",
      paramLabel = "DIR",
      description =
          "Keep what --job fetched in DIR (logs, nodes.txt, manifest.yaml, collect.json);"
              + " topolens diagnose DIR repeats the diagnosis offline.")
  Path save;

  /**
   * What diagnose reads: the given paths, or a job collected now or saved before.
   *
   * @param paths the log files, directories or a saved folder
   * @param nodeMap a --node-map file, or null; it wins over the collection's
   * @param temp a folder to delete when diagnose is done, or null
   */
  record Source(List<String> paths, Path nodeMap, String instance, Collection collection, Path temp)
      implements AutoCloseable {
    @Override
    public void close() {
      if (temp != null) {
        try (Stream<Path> all = Files.walk(temp)) {
          all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
          // a temporary folder left behind is harmless
        }
      }
    }
  }

  /**
   * The inputs for these options: collects the job when --job or --selector is given, reads a saved
   * folder when it is the only path, else passes the paths on. Progress and unreadable logs go to
   * {@code err}.
   */
  Source open(List<String> paths, Path nodeMap, HardwareCatalog catalog, PrintWriter err)
      throws InputProblem, IOException {
    boolean cluster = job != null || selector != null;
    if (!cluster) {
      if (save != null) {
        throw new InputProblem("--save goes with --job or --selector");
      }
      if (paths == null || paths.isEmpty()) {
        throw new InputProblem("diagnose needs PATH... (log files or folders) or --job KIND/NAME");
      }
      Optional<Collection> saved =
          paths.size() == 1 && !paths.get(0).equals("-")
              ? CollectionFile.read(Path.of(paths.get(0)))
              : Optional.empty();
      if (saved.isEmpty()) {
        return new Source(paths, nodeMap, null, null, null);
      }
      Collection c = saved.get();
      err.println(
          "topolens: saved "
              + c.label()
              + ": "
              + c.pods().size()
              + " pod(s), "
              + c.logs()
              + " log(s)"
              + (c.nodes().isEmpty() ? "" : "; nodes: " + String.join(", ", c.hardware())));
      gone(c, err);
      return source(c, nodeMap, catalog, err, null);
    }
    if (job != null && selector != null) {
      throw new InputProblem("give --job or --selector, not both");
    }
    if (paths != null && !paths.isEmpty()) {
      throw new InputProblem(
          "--job and --selector read logs from the cluster; give no PATH with them ("
              + String.join(" ", paths)
              + ")");
    }
    if (parallel < 1) {
      throw new InputProblem("--parallel must be at least 1, not " + parallel);
    }
    JobRef ref = job == null ? null : JobRef.parse(job);
    Path dir = save;
    Path temp = null;
    if (dir == null) {
      dir = temp = Files.createTempDirectory("topolens-diagnose-");
    } else if (Files.isDirectory(dir)) {
      try (Stream<Path> s = Files.list(dir)) {
        if (s.findAny().isPresent()) {
          throw new InputProblem("--save " + dir + ": the folder exists and is not empty");
        }
      }
    }
    try (KubernetesClient client = kube.connect()) {
      Collection c =
          new JobCollector(
                  client,
                  line -> {
                    err.println("topolens: " + line);
                    err.flush();
                  })
              .collect(new CollectRequest(namespace, ref, selector, parallel, dir));
      if (save != null) {
        err.println(
            "topolens: saved in " + save + " (topolens diagnose " + save + " repeats this)");
      }
      return source(c, nodeMap, catalog, err, temp);
    } catch (InputProblem | IOException | RuntimeException e) {
      new Source(List.of(), null, null, null, temp).close();
      throw e;
    }
  }

  private static Source source(
      Collection c, Path nodeMap, HardwareCatalog catalog, PrintWriter err, Path temp) {
    String type = c.instanceType();
    if (type != null && catalog.instance(type).isEmpty()) {
      err.println(
          "topolens: the nodes' instance type "
              + type
              + " is not in the catalog; judged without it (add it with --catalog FILE)");
      type = null;
    }
    return new Source(
        List.of(c.logDir().toString()), nodeMap != null ? nodeMap : c.nodeMap(), type, c, temp);
  }

  private static void gone(Collection c, PrintWriter err) {
    if (!c.gone().isEmpty()) {
      err.println(
          "topolens: "
              + c.gone().size()
              + " log(s) could not be read: "
              + String.join(", ", c.gone().stream().map(Object::toString).toList()));
    }
  }
}
