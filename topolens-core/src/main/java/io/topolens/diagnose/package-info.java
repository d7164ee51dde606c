/**
 * Judging: each {@link io.topolens.diagnose.Rule} reads the model and reports {@link
 * io.topolens.diagnose.Finding}s. Rules never parse text; ids are stable and documented in
 * docs/findings.md.
 */
package io.topolens.diagnose;
