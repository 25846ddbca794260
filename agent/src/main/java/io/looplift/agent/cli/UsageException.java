package io.looplift.agent.cli;

/** Bad command-line arguments; the message says what was wrong and what is accepted. */
final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
