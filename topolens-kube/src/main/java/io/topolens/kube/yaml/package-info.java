/** A YAML tree with comments, and its printer: how plans explain each choice in the manifest. */
package io.topolens.kube.yaml;
