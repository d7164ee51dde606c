/**
 * The performance model: NCCL's collective cost model over the paths of a topology ({@link
 * io.topolens.perf.CollectiveModel}), calibration of path bandwidth and latency from nccl-tests
 * ({@link io.topolens.perf.Calibrator}), and the training step model ({@link
 * io.topolens.perf.StepModel}). Constants live in {@code perf-model.json} and model presets in
 * {@code models.json}, each with its sources; hardware facts come from the catalog.
 */
package io.topolens.perf;
