/**
 * An experiment's results ({@code results.json}): the record {@code topolens experiment} writes and
 * {@code topolens report} draws. Model and file format only; running variants is the lab's.
 */
package io.topolens.experiment;
