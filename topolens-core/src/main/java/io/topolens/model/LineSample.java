package io.topolens.model;

import java.util.List;

/**
 * A count of lines of one sort, with the first few kept as examples.
 *
 * @param count every line of the sort
 * @param samples at most a few of them
 */
public record LineSample(long count, List<Evidence> samples) {}
