/** Presenting a diagnosis: readable text and the JSON documented in docs/json.md. */
package io.topolens.present;
