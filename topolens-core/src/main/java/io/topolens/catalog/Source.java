package io.topolens.catalog;

/** Where a catalog number comes from: a short key, what it says, and its address. */
public record Source(String key, String title, String url) {

  /** {@code KEY (url)} for a line of output. */
  public String cite() {
    return key + " (" + url + ")";
  }
}
