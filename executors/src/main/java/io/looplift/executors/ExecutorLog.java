package io.looplift.executors;

/**
 * Where an executor reports what happens after it was opened, one line at a time and without a prefix. The
 * agent prints {@link #warn} lines to stderr whatever {@code log=} says and {@link #debug} lines only at
 * {@code log=debug}. Implementations are thread-safe and never throw.
 */
public interface ExecutorLog {
  /** A log that drops every line. */
  ExecutorLog NONE = new ExecutorLog() {
    @Override
    public void warn(String line) {}

    @Override
    public void debug(String line) {}
  };

  /** Something the user asked for stopped happening, such as an executor giving up on its device. */
  void warn(String line);

  /** Detail that only {@code log=debug} shows. */
  void debug(String line);
}
