package io.topolens.fuzz;

import java.nio.file.Path;

/** One real input the mutants start from: its file, what it is, and its bytes. */
record Seed(Path path, SeedKind kind, byte[] bytes) {

  /** The file name a mutant keeps (readers tell kinds by content, a few options by name). */
  String name() {
    String n = path.getFileName().toString();
    return n.endsWith(".gz") ? n.substring(0, n.length() - 3) : n;
  }
}
