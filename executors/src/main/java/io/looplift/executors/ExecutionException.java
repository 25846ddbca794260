package io.looplift.executors;

/** A launch could not run on an executor; nothing was written, so the work can run elsewhere. */
public class ExecutionException extends Exception {
  public ExecutionException(String message, Throwable cause) { super(message, cause); }
  public ExecutionException(String message) { super(message); }
}
