package io.looplift.executors.opencl;

/** Throwables as the one-line reasons LoopLift logs and reports. */
public final class OneLine {
  private OneLine() {}

  /** The class and message of {@code t}, with every run of whitespace made one space. */
  public static String of(Throwable t) {
    String message = t.getMessage() == null ? "" : ": " + t.getMessage();
    return (t.getClass().getSimpleName() + message).replaceAll("\\s+", " ").trim();
  }
}
