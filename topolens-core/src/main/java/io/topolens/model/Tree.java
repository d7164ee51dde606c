package io.topolens.model;

import java.util.List;

/** A rank's place in one tree channel: its parent (-1 for the root) and children. */
public record Tree(int channel, int rank, int parent, List<Integer> children) {}
