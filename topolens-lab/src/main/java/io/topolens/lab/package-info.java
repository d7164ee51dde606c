/**
 * Lab: the collective probe ({@code probe/}, a Python program shipped as a resource that runs under
 * any env:// launcher) and experiments ({@code experiment/}: variants run locally with emulated
 * pods ({@code local/}) or on Kubernetes ({@code kube/}), collected into one folder with a
 * results.json).
 */
package io.topolens.lab;
