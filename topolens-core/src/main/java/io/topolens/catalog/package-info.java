/**
 * Reference data with sources: measured numbers that findings quote, and (later) the hardware
 * catalog.
 */
package io.topolens.catalog;
