/** The diagnosis rules, one finding id per class. Each has a table test beside it. */
package io.topolens.diagnose.rules;
