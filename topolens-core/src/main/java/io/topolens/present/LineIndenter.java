package io.topolens.present;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.io.IOException;
import java.util.Arrays;

/**
 * The indentation of Jackson's default pretty printer ({@link DefaultIndenter}: the system's line
 * break, then two spaces a level), written as one string of bytes made once per level. Jackson's
 * own writes the line break and the spaces as two strings of characters converted to bytes every
 * time: a tenth of writing a 4096-rank job's JSON document of tens of megabytes. The same bytes.
 *
 * <p>Thread-safety: one per generator (it keeps the levels it has made).
 */
final class LineIndenter implements DefaultPrettyPrinter.Indenter {
  private static final String EOL = DefaultIndenter.SYS_LF;

  private SerializedString[] levels = new SerializedString[0];

  /**
   * Jackson's default pretty printer with this indentation of objects, and its separators ({@code "
   * : "} after a field's name, the commas) written as bytes made once: the default printer writes
   * them as strings of characters, converted at every field.
   */
  static DefaultPrettyPrinter printer() {
    DefaultPrettyPrinter p = new BytePrinter();
    p.indentObjectsWith(new LineIndenter());
    return p;
  }

  /** {@link DefaultPrettyPrinter} with its separators as bytes; one per generator, as it is. */
  private static final class BytePrinter extends DefaultPrettyPrinter {
    private final SerializedString afterName =
        new SerializedString(_objectFieldValueSeparatorWithSpaces);
    private final SerializedString betweenEntries = new SerializedString(_objectEntrySeparator);
    private final SerializedString betweenValues = new SerializedString(_arrayValueSeparator);

    @Override
    public DefaultPrettyPrinter createInstance() {
      BytePrinter p = new BytePrinter();
      p.indentObjectsWith(new LineIndenter());
      return p;
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
      g.writeRaw(afterName);
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
      g.writeRaw(betweenEntries);
      _objectIndenter.writeIndentation(g, _nesting);
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
      g.writeRaw(betweenValues);
      _arrayIndenter.writeIndentation(g, _nesting);
    }
  }

  @Override
  public void writeIndentation(JsonGenerator g, int level) throws IOException {
    if (level < 0) {
      level = 0; // as DefaultIndenter: no spaces below level 1
    }
    if (level >= levels.length) {
      levels = Arrays.copyOf(levels, Math.max(level + 1, 2 * levels.length));
    }
    SerializedString s = levels[level];
    if (s == null) {
      s = new SerializedString(EOL + "  ".repeat(level));
      levels[level] = s;
    }
    g.writeRaw(s);
  }

  @Override
  public boolean isInline() {
    return false;
  }
}
