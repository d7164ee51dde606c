/**
 * The nccl-tests output reader: the text tables of every version and the JSON of {@code -J}, read
 * into runs, rows and devices, each with its evidence. It reads and records; it never judges.
 */
package io.topolens.bench;
