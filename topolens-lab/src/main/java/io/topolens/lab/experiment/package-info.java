/**
 * Experiments: a spec ({@link io.topolens.lab.experiment.SpecReader}) expands to a matrix of
 * variants, a {@link io.topolens.lab.experiment.VariantRunner} runs each (this host with emulated
 * pods; a Kubernetes cluster through {@code io.topolens.lab.kube}), {@link
 * io.topolens.lab.experiment.VariantAnalysis} reads each with the core readers and rules, and
 * {@link io.topolens.lab.experiment.ExperimentRun} keeps results.json ({@link
 * io.topolens.experiment.Experiment}) up to date. Uses core, kube's YAML reader and the lab's
 * launcher; never the CLI.
 */
package io.topolens.lab.experiment;
