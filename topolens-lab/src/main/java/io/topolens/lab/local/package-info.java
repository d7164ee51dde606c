/**
 * Launching ranks on this host: env:// processes joined by one rendezvous on loopback, without
 * torchrun or MPI. Uses the JDK's process API only.
 */
package io.topolens.lab.local;
