/**
 * The collective probe: {@code probe.py}, a single-file Python program shipped as a resource of
 * this package, and {@link io.topolens.lab.probe.ProbeScript}, which hands it out. The program runs
 * under any env:// launcher; docs/probe.md is its contract.
 */
package io.topolens.lab.probe;
