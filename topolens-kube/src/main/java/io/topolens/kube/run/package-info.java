/**
 * Run: applies a job with the fabric8 client, follows its pods and their nodes, streams their logs
 * to files, and records what it saw for diagnose.
 */
package io.topolens.kube.run;
