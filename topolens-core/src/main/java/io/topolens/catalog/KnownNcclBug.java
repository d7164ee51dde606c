package io.topolens.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An NCCL release with a known bug whose symptom a log can show, and the release that fixed it
 * ({@code known-nccl-bugs.json}); each entry cites the maintainer's answer or release note. An
 * entry with {@code gpus} is a GPU generation the releases before {@code fixedIn} do not support:
 * it needs no symptom, only a GPU of that generation named in the log.
 *
 * @param id a short name for the bug
 * @param from the first release known to have it ({@code 2.18.5})
 * @param fixedIn the release that fixed it ({@code 2.18.6})
 * @param symptoms words the log's NCCL failures and warnings must all hold (lower case), each in
 *     some line
 * @param unless words that make a symptom line another cause's (lower case)
 * @param at NCCL's source file and line that every symptom line must name ({@code
 *     enqueue.cc:1500}), where the bug is one call of the releases it names and the place tells it
 *     from the same words elsewhere; null for any line
 * @param platform where the bug shows ({@code wsl}), or null for anywhere
 * @param notPlatform where the symptom is another entry's ({@code wsl}), or null
 * @param versionless whether the symptom alone is specific enough to name the bug when the log
 *     prints no NCCL release (a warning that names the releases that carry it)
 * @param severity {@code warn} where the symptom has other causes too (a hang), else {@code error}
 *     (the default)
 * @param title the finding's title
 * @param explanation what the bug does, in plain words
 * @param fix what to do
 * @param source the maintainer's answer or release note
 * @param gpus for a GPU generation the releases before {@code fixedIn} do not support: regular
 *     expressions (case-insensitive) that find one of its GPUs in the words a log names a GPU model
 *     by ({@code A100-SXM4-80GB}, {@code RTX 4090}); empty for a bug
 * @param capability for a GPU generation: the major compute capability of its GPUs (8, 9, 10, 12),
 *     which a log may name instead of a model ({@code sm_86}, NCCL's {@code Min Comp Cap 8}); null
 *     for a bug
 */
public record KnownNcclBug(
    String id,
    String from,
    String fixedIn,
    List<String> symptoms,
    List<String> unless,
    String at,
    String platform,
    String notPlatform,
    boolean versionless,
    String severity,
    String title,
    String explanation,
    String fix,
    String source,
    List<String> gpus,
    Integer capability) {

  public KnownNcclBug {
    gpus = gpus == null ? List.of() : List.copyOf(gpus);
  }

  /** Whether this entry is a GPU generation older releases do not support, not a bug. */
  public boolean gpuSupport() {
    return !gpus.isEmpty();
  }

  private static final Set<String> FIELDS =
      Set.of(
          "id",
          "from",
          "fixedIn",
          "symptoms",
          "unless",
          "at",
          "platform",
          "notPlatform",
          "versionless",
          "severity",
          "title",
          "explanation",
          "fix",
          "source",
          "gpus",
          "capability");

  private static final List<KnownNcclBug> BUNDLED = load();

  /**
   * The bundled catalog, read token by token (a databind {@code ObjectMapper} took a tenth of a
   * second of every diagnose); a field left out is null (false for {@code versionless}), as
   * databind bound it. {@code BundledListTest} compares the two.
   */
  @SuppressWarnings("unchecked")
  private static List<KnownNcclBug> load() {
    List<KnownNcclBug> bugs = new ArrayList<>();
    for (Map<String, Object> b :
        BundledList.values(KnownNcclBug.class, "known-nccl-bugs.json", "bugs", FIELDS)) {
      bugs.add(
          new KnownNcclBug(
              (String) b.get("id"),
              (String) b.get("from"),
              (String) b.get("fixedIn"),
              (List<String>) b.get("symptoms"),
              (List<String>) b.get("unless"),
              (String) b.get("at"),
              (String) b.get("platform"),
              (String) b.get("notPlatform"),
              b.get("versionless") instanceof Boolean v
                  ? v
                  : b.get("versionless") != null && bad(b),
              (String) b.get("severity"),
              (String) b.get("title"),
              (String) b.get("explanation"),
              (String) b.get("fix"),
              (String) b.get("source"),
              (List<String>) b.get("gpus"),
              b.get("capability") == null ? null : Integer.valueOf((String) b.get("capability"))));
    }
    return List.copyOf(bugs);
  }

  private static boolean bad(Map<String, Object> bug) {
    throw new IllegalStateException(
        "known-nccl-bugs.json: " + bug.get("id") + ": expected versionless as true or false");
  }

  public static List<KnownNcclBug> bundled() {
    return BUNDLED;
  }
}
