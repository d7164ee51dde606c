package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import io.topolens.nccl.InputProblem;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Parses a whole NCCL XML file with the JDK's StAX reader into {@link XmlNode}s (DTDs and external
 * entities off), and gives the text of any line for evidence.
 */
final class XmlTree {
  private final String file;
  private final List<String> lines;
  private final XmlNode root;

  private XmlTree(String file, List<String> lines, XmlNode root) {
    this.file = file;
    this.lines = lines;
    this.root = root;
  }

  XmlNode root() {
    return root;
  }

  Evidence evidence(XmlNode node) {
    long n = node.line();
    String text = n >= 1 && n <= lines.size() ? lines.get((int) n - 1).stripTrailing() : "";
    return new Evidence(file, n, text);
  }

  static XmlTree parse(String file, String text) throws InputProblem {
    List<String> lines = text.lines().toList();
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_COALESCING, true);
    XMLStreamReader r = null;
    try {
      r = f.createXMLStreamReader(new StringReader(text));
      Deque<Building> open = new ArrayDeque<>();
      XmlNode root = null;
      while (r.hasNext()) {
        int event = r.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
          Map<String, String> attrs = new LinkedHashMap<>();
          for (int i = 0; i < r.getAttributeCount(); i++) {
            attrs.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
          }
          open.push(new Building(r.getLocalName(), attrs, r.getLocation().getLineNumber()));
        } else if (event == XMLStreamConstants.END_ELEMENT) {
          Building b = open.pop();
          XmlNode node =
              new XmlNode(
                  b.name, Collections.unmodifiableMap(b.attrs), List.copyOf(b.children), b.line);
          if (open.isEmpty()) {
            root = node;
          } else {
            open.peek().children.add(node);
          }
        }
      }
      if (root == null) {
        throw new InputProblem(file + ": no XML element in the file");
      }
      return new XmlTree(file, lines, root);
    } catch (XMLStreamException e) {
      long line = e.getLocation() == null ? 0 : e.getLocation().getLineNumber();
      throw new InputProblem(file + ":" + line + ": malformed XML: " + reason(e));
    } finally {
      if (r != null) {
        try {
          r.close();
        } catch (XMLStreamException ignored) {
          // nothing left to release
        }
      }
    }
  }

  /** The parser's message without its "ParseError at [row,col]" prefix, on one line. */
  private static String reason(XMLStreamException e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int i = m.indexOf("Message:");
    if (i >= 0) {
      m = m.substring(i + "Message:".length());
    }
    return m.replaceAll("\\s+", " ").trim();
  }

  private static final class Building {
    final String name;
    final Map<String, String> attrs;
    final long line;
    final List<XmlNode> children = new ArrayList<>();

    Building(String name, Map<String, String> attrs, long line) {
      this.name = name;
      this.attrs = attrs;
      this.line = line;
    }
  }
}
