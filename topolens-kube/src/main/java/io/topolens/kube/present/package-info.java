/** Presenting plan, lint and run results as text and JSON. */
package io.topolens.kube.present;
