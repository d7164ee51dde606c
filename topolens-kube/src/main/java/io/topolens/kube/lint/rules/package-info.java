/** The lint rules, one class per finding id (docs/lint.md). */
package io.topolens.kube.lint.rules;
