/** The model of a Kubernetes training job: pod groups, containers, resources, each fact located. */
package io.topolens.kube.model;
