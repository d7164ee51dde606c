/**
 * The nvidia-smi reader: {@code topo -m} and {@code topo -p2p} matrices with their legends, GPU
 * names from plain {@code nvidia-smi} and {@code -L}, and {@code nvlink -s} link speeds, as plain
 * records with evidence. It reads and records; it never judges.
 */
package io.topolens.smi;
