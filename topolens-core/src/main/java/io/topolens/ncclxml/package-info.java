/**
 * Readers for NCCL's own XML files: the topology it detects ({@code NCCL_TOPO_DUMP_FILE}) and the
 * graphs its search finds ({@code NCCL_GRAPH_DUMP_FILE}), as plain records with evidence. They read
 * and record; they never judge.
 */
package io.topolens.ncclxml;
