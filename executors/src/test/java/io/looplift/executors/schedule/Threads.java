package io.looplift.executors.schedule;

/** Starts test threads that stand for program threads. */
final class Threads {
  private Threads() {}

  static Thread start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
