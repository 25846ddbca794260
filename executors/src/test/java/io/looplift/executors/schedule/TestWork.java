package io.looplift.executors.schedule;

/** A {@link ScheduledWork} for tests: fixed arrays and size, and a body to run. */
record TestWork(Object[] reads, Object[] writes, long bytes, Body body) implements ScheduledWork {
  private static final Object[] NONE = {};

  /** What a test work does. */
  interface Body {
    void run() throws Exception;
  }

  static TestWork reading(Object array, Body body) {
    return new TestWork(new Object[] {array}, NONE, 0, body);
  }

  static TestWork writing(Object array, Body body) {
    return new TestWork(NONE, new Object[] {array}, 0, body);
  }

  static TestWork writing(Object array, long bytes, Body body) {
    return new TestWork(NONE, new Object[] {array}, bytes, body);
  }

  static TestWork touching(Object[] reads, Object[] writes, Body body) {
    return new TestWork(reads, writes, 0, body);
  }

  @Override
  public void run() throws Exception {
    body.run();
  }
}
