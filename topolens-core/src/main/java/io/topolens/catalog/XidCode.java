package io.topolens.catalog;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An NVIDIA Xid code as NVIDIA's documentation explains it ({@code xid-errors.json}), each entry
 * citing the page it comes from.
 *
 * @param xid the code
 * @param name the name NVIDIA's Xid listing gives
 * @param role what it is beside a failed job
 * @param meaning what it means, in plain words
 * @param action what NVIDIA says to do; empty where the source read gives none
 * @param source the page it comes from
 */
public record XidCode(
    int xid, String name, Role role, String meaning, String action, String source) {

  /** What an Xid is beside a failed job. */
  public enum Role {
    /** A GPU fault: the job's failure on that GPU follows from it. */
    CAUSE,
    /** An application error (NVIDIA's device plugin keeps the GPU healthy). */
    APPLICATION,
    /** The driver cleaning up after another error or a killed process (Xid 45). */
    CONSEQUENCE
  }

  private static final Map<Integer, XidCode> BUNDLED = load();

  /** The bundled entry of a code, if the catalog explains it. */
  public static Optional<XidCode> of(int xid) {
    return Optional.ofNullable(BUNDLED.get(xid));
  }

  private static Map<Integer, XidCode> load() {
    Map<Integer, XidCode> map = new LinkedHashMap<>();
    for (Map<String, String> v :
        BundledList.read(
            XidCode.class,
            "xid-errors.json",
            "xids",
            Set.of("xid", "name", "role", "meaning", "action", "source"))) {
      int xid = Integer.parseInt(v.get("xid"));
      map.put(
          xid,
          new XidCode(
              xid,
              v.get("name"),
              Role.valueOf(v.get("role").toUpperCase(java.util.Locale.ROOT)),
              v.get("meaning"),
              v.get("action"),
              v.get("source")));
    }
    return Map.copyOf(map);
  }
}
