package io.looplift.tracecache;

/** A device program could not be compiled or loaded; its cause is the device's error. */
public class ProgramBuildException extends Exception {
  private static final long serialVersionUID = 1L;

  public ProgramBuildException(String message, Throwable cause) { super(message, cause); }
}
