/**
 * The NCCL debug log reader: splits lines, strips launcher and logging prefixes, recognises every
 * NCCL line form from 2.4 to 2.28 and assembles a {@link io.topolens.model.Job}. It reads and
 * records; it never judges.
 */
package io.topolens.nccl;
