package io.topolens.model;

/**
 * A framework's report that an NCCL call failed, as PyTorch, Horovod or nccl-tests print it without
 * NCCL's debug header ({@code DistBackendError: NCCL error in: ..., unhandled system error, NCCL
 * version 2.19.3}, {@code ncclSystemError: ...}, {@code NCCL communicator was aborted}).
 *
 * @param rank the rank the framework named, or -1
 * @param result NCCL's result name ({@code ncclUnhandledCudaError}, {@code ncclSystemError}, {@code
 *     ncclInternalError}, {@code ncclRemoteError}, {@code ncclInvalidUsage}...), {@code aborted},
 *     or the words printed when they name no result
 * @param detail the framework's words after the file and line
 * @param ncclVersion the NCCL version printed with it, or null
 * @param count how many lines said the same result
 */
public record NcclFailure(
    int rank, String result, String detail, String ncclVersion, long count, Evidence evidence) {}
