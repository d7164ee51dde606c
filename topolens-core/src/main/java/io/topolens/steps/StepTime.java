package io.topolens.steps;

import io.topolens.model.Evidence;

/**
 * One step's time as a log line gave it.
 *
 * @param step the step (iteration) number the line names, or -1 when it names none
 * @param seconds the step's wall time in seconds
 * @param warmup whether it is the first step of its run, left out of summaries
 * @param evidence the line it was read from
 */
public record StepTime(
    long step,
    double seconds,
    Framework framework,
    Derivation derivation,
    boolean warmup,
    Evidence evidence) {}
