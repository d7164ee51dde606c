package io.topolens.inputs;

import io.topolens.bench.NcclTestsReader;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.LogInput;
import io.topolens.ncclxml.NcclGraphReader;
import io.topolens.ncclxml.NcclTopologyReader;
import io.topolens.smi.NvidiaSmiReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Tells what an input is from its first bytes, never from its name. */
public final class Sniffer {
  /** How much of a file decides its kind. */
  static final int HEAD = 64 * 1024;

  private Sniffer() {}

  /** The kind of a file; standard input is always read as an NCCL log (it can be read once). */
  public static InputKind kind(LogInput input) throws InputProblem {
    if (input.path() == null) {
      return InputKind.NCCL_LOG;
    }
    String head;
    try (InputStream in = input.open()) {
      head = new String(in.readNBytes(HEAD), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new InputProblem(input.name() + ": cannot read: " + e.getMessage());
    }
    return kind(head);
  }

  /** The kind of a text from its beginning. */
  public static InputKind kind(String head) {
    if (NcclGraphReader.looksLike(head)) {
      return InputKind.NCCL_GRAPH_XML;
    }
    if (NcclTopologyReader.looksLike(head)) {
      return InputKind.NCCL_TOPOLOGY_XML;
    }
    if (NcclTestsReader.looksLike(head)) {
      return InputKind.NCCL_TESTS;
    }
    if (NvidiaSmiReader.looksLike(head)) {
      return InputKind.NVIDIA_SMI;
    }
    return InputKind.NCCL_LOG;
  }
}
