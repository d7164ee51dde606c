/**
 * What a job's logs say, as plain records: ranks, communicators, edges and the evidence behind each
 * fact. Readers build these; rules and renderers only read them.
 */
package io.topolens.model;
