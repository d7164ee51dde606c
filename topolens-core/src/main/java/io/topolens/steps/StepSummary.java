package io.topolens.steps;

import io.topolens.model.Evidence;

/**
 * A job's step time: the median, fastest and slowest step, in seconds, over the steps of one
 * framework and one derivation (the most direct the logs offer), warm-up steps left out.
 *
 * @param count the steps summarised
 * @param warmupDropped first steps of runs left out
 * @param malformed lines of a recognised form whose numbers could not be read
 * @param example the line of the median step
 */
public record StepSummary(
    double median,
    double min,
    double max,
    int count,
    Framework framework,
    Derivation derivation,
    int warmupDropped,
    long malformed,
    Evidence example) {}
