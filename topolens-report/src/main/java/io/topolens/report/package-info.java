/**
 * The HTML report: one self-contained file (inline CSS, no script, a Content-Security-Policy that
 * forbids every request) drawn from the models the text and JSON outputs use. Classes here turn
 * those models into chart geometry ({@link io.topolens.report.TransportGrid}, {@link
 * io.topolens.report.BandwidthChart}, {@link io.topolens.report.StepChart}); the jte templates
 * under {@code src/main/jte} write the HTML and SVG with every text escaped. May use core (models,
 * verdicts, present) and Jackson; never the CLI, kube or lab.
 */
package io.topolens.report;
