package io.topolens.fuzz;

import java.util.List;

/**
 * A mutated input: its bytes, whether it is written gzip-compressed (its name then ends in .gz) and
 * the mutations that made it, as the report prints them.
 */
record Mutant(Seed seed, byte[] bytes, boolean gzip, List<String> steps) {

  String fileName() {
    return seed.name() + (gzip ? ".gz" : "");
  }
}
