package io.topolens.model;

/**
 * Which side of a connection printed the line: NET lines say [send] or [receive]; P2P/SHM say
 * neither.
 */
public enum Direction {
  SEND,
  RECEIVE,
  NONE
}
