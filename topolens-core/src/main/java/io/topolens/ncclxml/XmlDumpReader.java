package io.topolens.ncclxml;

import io.topolens.nccl.InputProblem;
import io.topolens.nccl.LogInput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Reads one kind of NCCL XML dump, known by its root element, from a file, an input or text in
 * memory; a file whose root is another element is an {@link InputProblem}.
 *
 * @param <T> what the dump is read into
 */
public abstract sealed class XmlDumpReader<T> permits NcclGraphReader, NcclTopologyReader {
  private final String root;
  private final String what;

  /** {@code what} names the kind in problems: "not an NCCL {what} file". */
  XmlDumpReader(String root, String what) {
    this.root = root;
    this.what = what;
  }

  /** Reads a file (plain or gzip). */
  public T read(Path file) throws InputProblem {
    return read(new LogInput(file.toString(), file));
  }

  /** Reads one input (a file, plain or gzip, or standard input). */
  public T read(LogInput input) throws InputProblem {
    String text;
    try (InputStream in = input.open()) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InputProblem(input.name() + ": cannot read: " + e.getMessage());
    }
    return read(input.name(), text);
  }

  /** Reads text already in memory; {@code name} is the file name evidence carries. */
  public abstract T read(String name, String text) throws InputProblem;

  /** The parsed text, whose root must be this kind's element. */
  XmlTree tree(String name, String text) throws InputProblem {
    XmlTree tree = XmlTree.parse(name, text);
    String found = tree.root().name();
    if (!found.equals(root)) {
      throw new InputProblem(
          name
              + ": not an NCCL "
              + what
              + " file (root element <"
              + found
              + ">, not <"
              + root
              + ">)");
    }
    return tree;
  }

  /** The start of a file whose root is {@code <root>}, after an XML declaration and comments. */
  static Pattern head(String root) {
    return Pattern.compile(
        "\\A\\s*(?:<\\?xml[^>]*>\\s*)?(?:<!--.*?-->\\s*)*<" + root + "[\\s>/]", Pattern.DOTALL);
  }
}
