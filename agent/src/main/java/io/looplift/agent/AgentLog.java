package io.looplift.agent;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The agent's stderr lines, each prefixed {@code looplift: }, filtered by {@code log=quiet|info|debug}.
 * Thread-safe. {@link #debugOnce} and {@link #warnOnce} print a given key at most once, so a loop that
 * falls back a million times logs one line.
 */
final class AgentLog {
  private final LoopLiftConfig.LogLevel level;
  private final Consumer<String> sink;
  private final Set<String> once = ConcurrentHashMap.newKeySet();

  /** @param sink receives complete lines, including the prefix */
  AgentLog(LoopLiftConfig.LogLevel level, Consumer<String> sink) {
    this.level = level;
    this.sink = sink;
  }

  /** A log to stderr. */
  static AgentLog stderr(LoopLiftConfig.LogLevel level) {
    return new AgentLog(level, System.err::println);
  }

  boolean info() { return level != LoopLiftConfig.LogLevel.QUIET; }

  boolean debug() { return level == LoopLiftConfig.LogLevel.DEBUG; }

  /** Printed whatever the level: something the user asked for did not happen. */
  void warn(String msg) { sink.accept("looplift: " + msg); }

  void warnOnce(String key, String msg) {
    if (once.add(key)) warn(msg);
  }

  void info(String msg) {
    if (info()) warn(msg);
  }

  void debug(String msg) {
    if (debug()) warn(msg);
  }

  void debugOnce(String key, String msg) {
    if (debug() && once.add(key)) warn(msg);
  }
}
