package io.topolens.nccl;

import io.topolens.model.NcclWarning.Detail.LoaderFailure;
import io.topolens.model.NcclWarning.Kind;
import io.topolens.model.NcclWarning.LoaderReason;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dynamic loader's (glibc ld.so's) refusal of a library NCCL's job needs, printed before NCCL
 * prints anything: {@code error while loading shared libraries: LIB: REASON} for a program linked
 * to it, {@code LIB: REASON} in Python's ImportError or a dlopen's message. Read for NCCL
 * (libnccl.so), the CUDA driver (libcuda.so) and NVML (libnvidia-ml.so); NCCL's network and tuner
 * plugins are not, as NCCL reports those itself ({@code NET/Plugin: Plugin load returned ...}) and
 * goes on without them.
 */
final class LoaderLine {
  private LoaderLine() {}

  private static final Pattern REFUSED =
      Pattern.compile(
          "(lib(?:nccl|cuda|nvidia-ml)\\.so[0-9.]*): (cannot open shared object file|wrong ELF"
              + " class|undefined symbol: (\\S+)|failed to map segment from shared object)");

  private static final Pattern VERSION =
      Pattern.compile(
          "version `([^']+)' not found \\(required by \\S*?(lib(?:nccl|cuda|nvidia-ml)\\.so[0-9.]*)\\)");

  /** What the loader refused, or null where the line names none of these libraries' refusal. */
  static LoaderFailure read(String text) {
    Matcher v = VERSION.matcher(text);
    if (v.find()) {
      return new LoaderFailure(v.group(2), LoaderReason.VERSION_NOT_FOUND, v.group(1));
    }
    Matcher m = REFUSED.matcher(text);
    if (!m.find()) {
      return null;
    }
    String why = m.group(2);
    LoaderReason reason =
        why.startsWith("cannot open")
            ? LoaderReason.MISSING
            : why.startsWith("wrong ELF")
                ? LoaderReason.WRONG_CLASS
                : why.startsWith("undefined symbol")
                    ? LoaderReason.UNDEFINED_SYMBOL
                    : LoaderReason.NOT_MAPPABLE;
    return new LoaderFailure(m.group(1), reason, m.group(3));
  }

  /**
   * The kind a refusal is: a library found and refused, or one not found (NCCL's own, or the
   * driver's).
   */
  static Kind kind(LoaderFailure f) {
    if (f.reason() != LoaderReason.MISSING) {
      return Kind.LOADER_REFUSED;
    }
    return f.library().startsWith("libnccl") ? Kind.NCCL_NOT_BUILT : Kind.DRIVER_LIBRARY;
  }
}
