package io.topolens.model;

/**
 * A frame of NCCL's code in a stack dump of a process (py-spy {@code dump --native}, gdb's {@code
 * thread apply all bt}, PyTorch's C++ {@code frame #N:} lines): where a thread of the process was
 * when the dump was taken.
 *
 * @param function the function as printed, arguments left out ({@code
 *     ncclLaunchKernelBefore_NoUncapturedCuda}, {@code ncclCommInitRankSync})
 * @param source the source place ({@code enqueue.cc:968}) or library ({@code libnccl.so.2}) printed
 *     with it; null when none
 * @param depth the frame's number in its stack where the dump prints one (gdb's {@code #3}), else
 *     -1
 */
public record StackFrame(String function, String source, int depth, Evidence evidence) {}
