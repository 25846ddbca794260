package io.looplift.executors;

/** A launch could not run on an executor; nothing was written, so the work can run elsewhere. */
public class ExecutionException extends Exception {
  private static final long serialVersionUID = 1L;

  public ExecutionException(String message, Throwable cause) { super(message, cause); }
  public ExecutionException(String message) { super(message); }
}
