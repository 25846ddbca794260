package io.looplift.runtime;

import io.looplift.executors.ExecutorLog;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * LoopLift's stderr lines, each prefixed {@code looplift: }, filtered by {@code log=quiet|info|debug}.
 * Thread-safe. {@link #debugOnce} and {@link #warnOnce} print a given key at most once, so a loop that
 * falls back a million times logs one line.
 */
public final class Log implements ExecutorLog {
  /** How much is printed: {@code quiet} only warnings, {@code info} also a line per loop, {@code debug} all. */
  public enum Level { QUIET, INFO, DEBUG }

  private final Level level;
  private final Consumer<String> sink;
  private final Set<String> once = ConcurrentHashMap.newKeySet();

  /** @param sink receives complete lines, including the prefix */
  public Log(Level level, Consumer<String> sink) {
    this.level = level;
    this.sink = sink;
  }

  /** A log to stderr (never stdout: the program's output is its own). */
  public static Log stderr(Level level) {
    return new Log(level, System.err::println);
  }

  public boolean info() { return level != Level.QUIET; }

  public boolean debug() { return level == Level.DEBUG; }

  /** Printed whatever the level: something the user asked for did not happen. */
  @Override
  public void warn(String msg) { sink.accept("looplift: " + msg); }

  public void warnOnce(String key, String msg) {
    if (once.add(key)) warn(msg);
  }

  public void info(String msg) {
    if (info()) warn(msg);
  }

  @Override
  public void debug(String msg) {
    if (debug()) warn(msg);
  }

  public void debugOnce(String key, String msg) {
    if (debug() && once.add(key)) warn(msg);
  }
}
