package io.topolens.lab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.kube.manifest.ManifestReader;
import io.topolens.kube.manifest.YamlDocument;
import io.topolens.kube.plan.PlanSpec;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.Layout;
import io.topolens.perf.ModelPresets;
import io.topolens.perf.Offload;
import io.topolens.perf.PathKind;
import io.topolens.perf.RunConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads an experiment spec (YAML). Every problem is one {@link InputProblem} line {@code file:line:
 * problem}: an unknown key, a value of the wrong kind, a layout that is not {@code PODSxGPUS}, a
 * collective the probe does not know. docs/experiment.md lists the keys.
 */
public final class SpecReader {

  static final Set<String> TOP =
      Set.of(
          "name",
          "about",
          "run",
          "where",
          "device",
          "timeout",
          "env",
          "probe",
          "train",
          "variants",
          "predict",
          "catalog");

  /** predict: keys each variant sets itself. */
  static final Set<String> PREDICT_BY_VARIANT =
      Set.of("layout", "nodes", "network", "name", "measured");

  static final Set<String> PROBE =
      Set.of(
          "collectives", "minBytes", "maxBytes", "stepFactor", "warmup", "iters", "pairs", "args");
  static final Set<String> VARIANTS =
      Set.of("layout", "nodes", "network", "env", "offload", "repeats");
  static final Set<String> KUBERNETES =
      Set.of("instance", "namespace", "image", "kind", "runtime", "manifest", "context");
  static final Set<String> LOCAL = Set.of("device");
  static final List<String> COLLECTIVES =
      List.of("all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast");

  private static final Pattern SIZE = Pattern.compile("\\d+(\\.\\d+)?[KMGkmg]?");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(s|m|h)?");

  private final YamlDocument doc;
  private final Path file;

  private SpecReader(YamlDocument doc, Path file) {
    this.doc = doc;
    this.file = file;
  }

  /** Reads and checks {@code file}. */
  public static ExperimentSpec read(Path file) throws InputProblem {
    List<YamlDocument> docs = new ManifestReader().read(file.toString());
    if (docs.size() != 1) {
      throw new InputProblem(
          file + ": an experiment spec is one YAML document, not " + docs.size());
    }
    return new SpecReader(docs.getFirst(), file).spec();
  }

  private ExperimentSpec spec() throws InputProblem {
    JsonNode root = doc.root();
    keys("", root, TOP);
    String name = text("/name", file.getFileName().toString().replaceFirst("\\.ya?ml$", ""));
    ExperimentSpec.Run run;
    try {
      run = ExperimentSpec.Run.parse(text("/run", "probe"));
    } catch (IllegalArgumentException e) {
      throw problem("/run", e.getMessage());
    }
    ExperimentSpec.Placement where = placement();
    List<String> train = train(run);
    Map<String, String> env = env("/env", root.path("env"));
    ProbeOptions probe = probe();
    List<Matrix> matrices = new ArrayList<>();
    JsonNode v = root.path("variants");
    if (v.isArray() && !v.isEmpty()) {
      for (int i = 0; i < v.size(); i++) {
        matrices.add(matrix("/variants/" + i));
      }
    } else {
      matrices.add(matrix("/variants"));
    }
    Duration timeout = duration("/timeout", Duration.ofMinutes(30));
    Map<String, Object> predict = predict();
    List<Path> catalogs = new ArrayList<>();
    if (root.has("catalog")) {
      List<String> cs = strings("/catalog");
      for (int i = 0; i < cs.size(); i++) {
        Path c = relative(cs.get(i));
        if (!Files.isRegularFile(c)) {
          throw problem(item("/catalog", i), "no such file: " + c);
        }
        catalogs.add(c);
      }
    }
    ExperimentSpec spec =
        new ExperimentSpec(
            file, name, run, where, probe, train, env, matrices, timeout, predict, catalogs);
    if (!predict.isEmpty()) {
      try {
        Predictions.config(spec, spec.variants().getFirst(), List.of())
            .toScenario(HardwareCatalog.load(catalogs), ModelPresets.bundled(), "predict");
      } catch (InputProblem e) {
        throw problem("/predict", e.getMessage());
      }
    }
    return spec;
  }

  /** The predict: mapping, each key checked as predict's YAML takes it. */
  private Map<String, Object> predict() throws InputProblem {
    JsonNode p = doc.root().path("predict");
    Map<String, Object> out = new LinkedHashMap<>();
    if (p.isMissingNode() || p.isNull()) {
      return out;
    }
    if (!p.isObject()) {
      throw problem(
          "/predict", "predict: must be a mapping of predict's keys (model, instance...)");
    }
    for (Map.Entry<String, JsonNode> f : p.properties()) {
      String pointer = YamlDocument.child("/predict", f.getKey());
      if (PREDICT_BY_VARIANT.contains(f.getKey())) {
        throw problem(pointer, f.getKey() + " comes from each variant, not from predict:");
      }
      List<String> known =
          java.util.Arrays.stream(RunConfig.class.getRecordComponents())
              .map(java.lang.reflect.RecordComponent::getName)
              .filter(k -> !PREDICT_BY_VARIANT.contains(k))
              .sorted()
              .toList();
      if (!known.contains(f.getKey())) {
        throw problem(
            pointer,
            "unknown key \""
                + f.getKey()
                + "\" under predict: (known: "
                + String.join(", ", known)
                + ")");
      }
      if (!f.getValue().isValueNode() || f.getValue().isNull()) {
        throw problem(pointer, f.getKey() + " needs a value");
      }
      Object v =
          f.getValue().isNumber()
              ? f.getValue().numberValue()
              : f.getValue().isBoolean() ? f.getValue().asBoolean() : f.getValue().asText();
      try {
        RunConfig.fromMap(Map.of(f.getKey(), v), "predict");
      } catch (InputProblem e) {
        throw problem(pointer, f.getKey() + ": not a value predict takes (" + v + ")");
      }
      out.put(f.getKey(), v);
    }
    return out;
  }

  private ExperimentSpec.Placement placement() throws InputProblem {
    JsonNode w = doc.root().path("where");
    String device = text("/device", "auto").toLowerCase(Locale.ROOT);
    if (w.isMissingNode() || w.isNull()) {
      return local("/device", device);
    }
    if (w.isTextual()) {
      return switch (w.asText().strip()) {
        case "local" -> local("/device", device);
        case "kubernetes" ->
            throw problem(
                "/where",
                "where: kubernetes needs its settings (kubernetes: instance:, namespace:...)");
        default ->
            throw problem("/where", "where is local or kubernetes:, not \"" + w.asText() + "\"");
      };
    }
    if (!w.isObject() || w.size() != 1) {
      throw problem("/where", "where is local, local: {device:} or kubernetes: {instance:...}");
    }
    String key = w.fieldNames().next();
    JsonNode body = w.get(key);
    switch (key) {
      case "local" -> {
        keys("/where/local", body, LOCAL);
        return local("/where/local/device", text("/where/local/device", device));
      }
      case "kubernetes" -> {
        keys("/where/kubernetes", body, KUBERNETES);
        return kubernetes();
      }
      default ->
          throw problem("/where/" + key, "where is local or kubernetes, not \"" + key + "\"");
    }
  }

  private ExperimentSpec.Local local(String pointer, String device) throws InputProblem {
    if (!List.of("auto", "cpu", "gpu").contains(device.toLowerCase(Locale.ROOT))) {
      throw problem(pointer, "device is auto, cpu or gpu, not \"" + device + "\"");
    }
    return new ExperimentSpec.Local(device.toLowerCase(Locale.ROOT));
  }

  private ExperimentSpec.Kubernetes kubernetes() throws InputProblem {
    String p = "/where/kubernetes";
    String kind = text(p + "/kind", null);
    if (kind != null) {
      try {
        PlanSpec.JobKind.parse(kind);
      } catch (IllegalArgumentException e) {
        throw problem(p + "/kind", "kind is trainjob, pytorchjob or mpijob, not \"" + kind + "\"");
      }
    }
    String manifest = text(p + "/manifest", null);
    Path m = null;
    if (manifest != null) {
      m = relative(manifest);
      if (!Files.isRegularFile(m)) {
        throw problem(p + "/manifest", "no such file: " + m);
      }
    }
    String instance = text(p + "/instance", null);
    if (instance == null && m == null) {
      throw problem(p, "kubernetes: needs instance: (to plan each variant) or manifest:");
    }
    return new ExperimentSpec.Kubernetes(
        instance,
        text(p + "/namespace", null),
        text(p + "/image", null),
        kind,
        text(p + "/runtime", null),
        m,
        text(p + "/context", null));
  }

  private List<String> train(ExperimentSpec.Run run) throws InputProblem {
    JsonNode t = doc.root().path("train");
    if (t.isMissingNode() || t.isNull()) {
      if (run.trains()) {
        throw problem("/run", "run: " + run.label() + " needs train: (the training command)");
      }
      return List.of();
    }
    List<String> cmd = new ArrayList<>();
    if (t.isTextual()) {
      for (String s : t.asText().strip().split("\\s+")) {
        if (!s.isEmpty()) {
          cmd.add(s);
        }
      }
    } else if (t.isArray()) {
      int i = 0;
      for (JsonNode a : t) {
        if (!a.isValueNode() || a.isNull()) {
          throw problem("/train/" + i, "train: items are words of the command");
        }
        cmd.add(a.asText());
        i++;
      }
    } else {
      throw problem("/train", "train: is the command, a string or a list of words");
    }
    if (cmd.isEmpty()) {
      throw problem("/train", "train: is empty");
    }
    return cmd;
  }

  private ProbeOptions probe() throws InputProblem {
    JsonNode p = doc.root().path("probe");
    ProbeOptions d = ProbeOptions.DEFAULT;
    if (p.isMissingNode() || p.isNull()) {
      return d;
    }
    keys("/probe", p, PROBE);
    List<String> collectives = d.collectives();
    if (p.has("collectives")) {
      collectives = new ArrayList<>();
      int i = 0;
      for (String c : strings("/probe/collectives")) {
        String pointer =
            p.get("collectives").isArray() ? "/probe/collectives/" + i : "/probe/collectives";
        if (!COLLECTIVES.contains(c)) {
          throw problem(
              pointer, "unknown collective \"" + c + "\" (" + String.join(", ", COLLECTIVES) + ")");
        }
        collectives.add(c);
        i++;
      }
    }
    List<String> args = p.has("args") ? strings("/probe/args") : List.of();
    return new ProbeOptions(
        collectives,
        size("/probe/minBytes", d.minBytes()),
        size("/probe/maxBytes", d.maxBytes()),
        integer("/probe/stepFactor", d.stepFactor(), 2),
        integer("/probe/warmup", d.warmup(), 0),
        integer("/probe/iters", d.iters(), 1),
        bool("/probe/pairs", d.pairs()),
        args);
  }

  private Matrix matrix(String at) throws InputProblem {
    JsonNode v = doc.get(at);
    if (v.isMissingNode() || v.isNull()) {
      throw problem(
          at.equals("/variants") ? "" : at,
          "no variants: (layout, nodes, network, env, offload, repeats)");
    }
    keys(at, v, VARIANTS);
    List<Layout> layouts = new ArrayList<>();
    List<String> ls = v.has("layout") ? strings(at + "/layout") : List.of("1x1");
    for (int i = 0; i < ls.size(); i++) {
      try {
        layouts.add(Layout.parse(ls.get(i)));
      } catch (IllegalArgumentException e) {
        throw problem(item(at + "/layout", i), e.getMessage());
      }
    }
    List<Integer> nodes = new ArrayList<>();
    List<String> ns = v.has("nodes") ? strings(at + "/nodes") : List.of("1");
    for (int i = 0; i < ns.size(); i++) {
      nodes.add(positive(item(at + "/nodes", i), ns.get(i), "nodes"));
    }
    List<String> networks = new ArrayList<>();
    if (v.has("network")) {
      List<String> ws = strings(at + "/network");
      for (int i = 0; i < ws.size(); i++) {
        networks.add(network(item(at + "/network", i), ws.get(i)));
      }
    } else {
      networks.add(null);
    }
    List<Map<String, String>> envs = new ArrayList<>();
    JsonNode e = v.path("env");
    if (e.isArray()) {
      for (int i = 0; i < e.size(); i++) {
        envs.add(env(at + "/env/" + i, e.get(i)));
      }
      if (envs.isEmpty()) {
        envs.add(Map.of());
      }
    } else {
      envs.add(env(at + "/env", e));
    }
    List<String> offloads = new ArrayList<>();
    if (v.has("offload")) {
      List<String> os = strings(at + "/offload");
      for (int i = 0; i < os.size(); i++) {
        try {
          offloads.add(Offload.parse(os.get(i)).label());
        } catch (IllegalArgumentException ex) {
          throw problem(item(at + "/offload", i), ex.getMessage());
        }
      }
    } else {
      offloads.add(null);
    }
    int repeats = integer(at + "/repeats", 1, 1);
    return new Matrix(layouts, nodes, networks, envs, offloads, repeats);
  }

  private String item(String list, int i) {
    return doc.get(list).isArray() ? list + "/" + i : list;
  }

  private String network(String pointer, String text) throws InputProblem {
    try {
      PathKind k = PathKind.parse(text);
      if (k != PathKind.EFA && k != PathKind.IB && k != PathKind.TCP) {
        throw new IllegalArgumentException("");
      }
      return text.strip().toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw problem(pointer, "network is efa, eni or ib, not \"" + text + "\"");
    }
  }

  /** A mapping of variables, or a string of {@code K=V} words; null or missing is none. */
  private Map<String, String> env(String pointer, JsonNode n) throws InputProblem {
    Map<String, String> out = new LinkedHashMap<>();
    if (n.isMissingNode() || n.isNull()) {
      return out;
    }
    if (n.isObject()) {
      for (Map.Entry<String, JsonNode> f : n.properties()) {
        String child = YamlDocument.child(pointer, f.getKey());
        if (!ENV_NAME.matcher(f.getKey()).matches()) {
          throw problem(child, "\"" + f.getKey() + "\" is not an environment variable name");
        }
        if (!f.getValue().isValueNode() || f.getValue().isNull()) {
          throw problem(child, f.getKey() + " needs a value (a string or a number)");
        }
        out.put(f.getKey(), f.getValue().asText());
      }
      return out;
    }
    if (n.isTextual()) {
      for (String word : n.asText().strip().split("[\\s,]+")) {
        if (word.isEmpty()) {
          continue;
        }
        int eq = word.indexOf('=');
        if (eq <= 0 || !ENV_NAME.matcher(word.substring(0, eq)).matches()) {
          throw problem(pointer, "\"" + word + "\" is not NAME=VALUE");
        }
        out.put(word.substring(0, eq), word.substring(eq + 1));
      }
      return out;
    }
    throw problem(pointer, "env is a mapping (NAME: value) or NAME=VALUE words");
  }

  private void keys(String pointer, JsonNode n, Set<String> known) throws InputProblem {
    if (n.isMissingNode() || n.isNull()) {
      return;
    }
    if (!n.isObject()) {
      throw problem(
          pointer, (pointer.isEmpty() ? "the spec" : key(pointer)) + " must be a mapping");
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!known.contains(k)) {
        throw problem(
            YamlDocument.child(pointer, k),
            "unknown key \""
                + k
                + "\""
                + (pointer.isEmpty() ? "" : " under " + key(pointer))
                + " (known: "
                + String.join(", ", known.stream().sorted().toList())
                + ")");
      }
    }
  }

  private static String key(String pointer) {
    return pointer.substring(pointer.lastIndexOf('/') + 1) + ":";
  }

  private String text(String pointer, String dflt) throws InputProblem {
    JsonNode n = doc.get(pointer);
    if (n.isMissingNode() || n.isNull()) {
      return dflt;
    }
    if (!n.isValueNode()) {
      throw problem(pointer, key(pointer) + " must be a single value");
    }
    return n.asText();
  }

  /** A list of scalars, or one scalar as a list of one. */
  private List<String> strings(String pointer) throws InputProblem {
    JsonNode n = doc.get(pointer);
    if (n.isValueNode() && !n.isNull()) {
      return List.of(n.asText());
    }
    if (!n.isArray() || n.isEmpty()) {
      throw problem(pointer, key(pointer) + " must be a value or a non-empty list");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n.size(); i++) {
      if (!n.get(i).isValueNode() || n.get(i).isNull()) {
        throw problem(pointer + "/" + i, "a list item of " + key(pointer) + " must be a value");
      }
      out.add(n.get(i).asText());
    }
    return out;
  }

  private int integer(String pointer, int dflt, int min) throws InputProblem {
    String t = text(pointer, null);
    if (t == null) {
      return dflt;
    }
    try {
      int v = Integer.parseInt(t.strip());
      if (v < min) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw problem(
          pointer,
          key(pointer) + " must be a whole number of at least " + min + ", not \"" + t + "\"");
    }
  }

  private int positive(String pointer, String t, String what) throws InputProblem {
    try {
      int v = Integer.parseInt(t.strip());
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw problem(pointer, what + " must be a whole number of at least 1, not \"" + t + "\"");
  }

  private boolean bool(String pointer, boolean dflt) throws InputProblem {
    JsonNode n = doc.get(pointer);
    if (n.isMissingNode() || n.isNull()) {
      return dflt;
    }
    if (!n.isBoolean()) {
      throw problem(pointer, key(pointer) + " must be true or false, not \"" + n.asText() + "\"");
    }
    return n.asBoolean();
  }

  private String size(String pointer, String dflt) throws InputProblem {
    String t = text(pointer, null);
    if (t == null) {
      return dflt;
    }
    if (!SIZE.matcher(t.strip()).matches()) {
      throw problem(
          pointer, key(pointer) + " must be a size such as 8, 1K, 64M or 1G, not \"" + t + "\"");
    }
    return t.strip();
  }

  private Duration duration(String pointer, Duration dflt) throws InputProblem {
    String t = text(pointer, null);
    if (t == null) {
      return dflt;
    }
    var m = DURATION.matcher(t.strip());
    if (!m.matches() || Double.parseDouble(m.group(1)) <= 0) {
      throw problem(
          pointer,
          key(pointer)
              + " must be seconds, or a number with s, m or h (90, 10m), not \""
              + t
              + "\"");
    }
    double v = Double.parseDouble(m.group(1));
    double unit =
        switch (m.group(2) == null ? "s" : m.group(2)) {
          case "m" -> 60;
          case "h" -> 3600;
          default -> 1;
        };
    return Duration.ofMillis(Math.round(v * unit * 1000));
  }

  private Path relative(String path) {
    Path p = Path.of(path);
    Path dir = file.toAbsolutePath().getParent();
    return p.isAbsolute() || dir == null ? p : dir.resolve(p).normalize();
  }

  private InputProblem problem(String pointer, String what) {
    return new InputProblem(file + ":" + doc.line(pointer) + ": " + what);
  }
}
