/**
 * Where pods ran: the pod-to-node map that tells pods sharing a physical host apart from pods that
 * do not.
 */
package io.topolens.placement;
