package io.looplift.analyzer;

/** Thrown inside the analysis when a loop cannot be offloaded; the message is the user-readable reason. */
final class Rejection extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Rejection(String reason) {
    super(reason, null, false, false);
  }
}
