package io.topolens.nccl;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A frame of NCCL's code in a stack dump, in the forms users paste from a hung process:
 *
 * <ul>
 *   <li>py-spy ({@code py-spy dump --native}): {@code ncclLaunchKernelBefore_NoUncapturedCuda
 *       (enqueue.cc:968)}, {@code ncclGroupEnd (libnccl.so.2)};
 *   <li>gdb ({@code thread apply all bt}): {@code #4 0x00007f00ad95cd2a in ncclCommInitRankSync
 *       (newcomm=0x5294aa0, ...) at init.cc:840}, {@code #12 0x00007fecdf7a56c8 in
 *       ncclLaunchKernel(ncclComm*, ncclKernelPlan*) ()}, {@code ... in bootstrapNetAccept () from
 *       /usr/lib/libnccl.so.2};
 *   <li>PyTorch's C++ traces and lldb: {@code frame #5: ncclCommInitRank + 0x8a (0x7f... in
 *       /usr/lib/libnccl.so.2)}, {@code frame #3: 0x7f... libnccl.so.2`ncclCommAbort + 29}.
 * </ul>
 *
 * A frame is NCCL's where its function is one of NCCL's ({@code ncclXxx}, or an internal one of
 * {@link NcclSources#FUNCTIONS}: {@code doLaunches}, {@code bootstrapNetAccept}), its library is
 * libnccl, or its source file is one of NCCL's ({@code group.cc:161}, {@code
 * transport/net_ib.cc:70}, {@link NcclSources#FILES}); a framework's frames that merely name NCCL
 * ({@code c10d::ProcessGroupNCCL::...}, {@code torch::cuda::nccl::...}) are not. Reads; never
 * judges where the process waits.
 */
final class StackFrameLine {
  private StackFrameLine() {}

  private static final String FUNCTION = "([A-Za-z_][\\w:~]*)";

  private static final Pattern PY_SPY =
      Pattern.compile("^\\s*" + FUNCTION + " \\(([^()\\s]+)\\)\\s*$");
  private static final Pattern GDB =
      Pattern.compile(
          "^\\s*#(\\d+)\\s+(?:0x[0-9a-fA-F]+\\s+in\\s+)?"
              + FUNCTION
              + "\\s*(?:\\(.*\\))?\\s*(?:(?:at|from)(?:\\s+(\\S+))?)?\\s*$");
  private static final Pattern FRAME =
      Pattern.compile(
          "^\\s*frame #(\\d+):\\s+(?:0x[0-9a-fA-F]+\\s+)?(?:(\\S+?)`)?"
              + FUNCTION
              + "(?:\\(.*?\\))?\\s*\\+\\s*(?:0x)?[0-9a-fA-F]+"
              + "(?:\\s+\\((?:0x[0-9a-fA-F]+ in )?([^()\\s]+)\\))?.*$");

  /** The frame a line prints, or null when it is no frame of NCCL's code. */
  static NcclEvent.Frame parse(String text) {
    if (text.indexOf('(') < 0 && text.indexOf('#') < 0) {
      return null;
    }
    Matcher m;
    if (text.indexOf('#') >= 0) {
      if ((m = GDB.matcher(text)).matches()) {
        return frame(m.group(2), m.group(3), Integer.parseInt(m.group(1)));
      }
      if ((m = FRAME.matcher(text)).matches()) {
        String library = m.group(2) != null ? m.group(2) : m.group(4);
        return frame(m.group(3), library, Integer.parseInt(m.group(1)));
      }
      return null;
    }
    if ((m = PY_SPY.matcher(text)).matches()) {
      return frame(m.group(1), m.group(2), -1);
    }
    return null;
  }

  private static NcclEvent.Frame frame(String function, String source, int depth) {
    if (ncclFunction(function)
        || (!function.contains("::")
            && (NcclSources.function(function)
                || (source != null && (source.contains("libnccl") || NcclSources.file(source)))))) {
      return new NcclEvent.Frame(function, source, depth);
    }
    return null;
  }

  /** {@code ncclGroupEnd}, {@code ncclProxyProgress}: NCCL's own prefix, a capital after it. */
  private static boolean ncclFunction(String function) {
    return function.length() > 4
        && function.startsWith("nccl")
        && Character.isUpperCase(function.charAt(4));
  }
}
