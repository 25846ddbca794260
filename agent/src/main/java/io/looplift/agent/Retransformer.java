package io.looplift.agent;

import io.looplift.runtime.Log;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Rewrites classes again after they loaded, by retransformation on one daemon thread: the transformer is
 * then handed the class's original bytes. A class is retransformed only at a moment no thread runs a method
 * of it, and looked for again a little later while one does, for {@link #GIVE_UP_MILLIS} at most. A method
 * running while its class is redefined keeps its old code until it returns, and HotSpot never compiles that
 * old code (a {@code main} loop would run interpreted for good); worse, the JVM no longer knows that frame's
 * file and line: a stack trace printed from it, say by a {@code main} that logs an exception, would read
 * {@code main(Unknown Source)}, and the program would print something else than without the agent. That
 * holds even when the method's code does not change. So a class with a method that always runs (a
 * {@code main}, a method called back to back) is not rewritten again, and its loops run as they are. A
 * class is looked for among those its loader has defined, never loaded by name: loading it could define it
 * a second time where its first definition is still under way on another thread, and such a class is looked
 * for again later instead. Thread-safe; never throws.
 */
final class Retransformer {
  /** The first wait for a class still being defined; each further wait is twice as long. */
  private static final long FIRST_WAIT_MILLIS = 5;
  /** How long a class not defined yet, or always running, is waited for before its retransformation is given up. */
  private static final long GIVE_UP_MILLIS = 10_000;

  private final Instrumentation inst;
  private final Log log;
  private final RunningClasses running = new RunningClasses(); // used on the retransformation thread only
  private final ScheduledExecutorService thread = new ScheduledThreadPoolExecutor(1, task -> {
    Thread t = new Thread(task, "looplift-retransform");
    t.setDaemon(true);
    return t;
  });

  Retransformer(Instrumentation inst, Log log) {
    this.inst = inst;
    this.log = log;
  }

  /** Runs {@code task} on the retransformation thread; false when it will not (the JVM is shutting down). */
  boolean execute(Runnable task) {
    try {
      thread.execute(task);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /**
   * Retransforms the class {@code internalName} that {@code loader} defines, on the retransformation thread,
   * once it is defined, at a moment no method of it runs. {@code before} runs just before; {@code after} is
   * told null once it is done, or why it was not (never defined, a method of it ran for
   * {@link #GIVE_UP_MILLIS}, not modifiable, refused by the JVM).
   */
  void retransform(String internalName, ClassLoader loader, Runnable before, Consumer<String> after) {
    String name = internalName.replace('/', '.');
    if (!execute(() -> attempt(name, loader, before, after, FIRST_WAIT_MILLIS, 0))) {
      after.accept("the JVM was shutting down");
    }
  }

  /**
   * Retransforms the loaded class {@code c} on the retransformation thread, at a moment no method of it runs.
   * {@code before} runs just before; {@code after} is told null once it is done, or why it was not (a method
   * of it ran for {@link #GIVE_UP_MILLIS}, not modifiable, refused by the JVM).
   */
  void retransform(Class<?> c, Runnable before, Consumer<String> after) {
    if (!execute(() -> retransformNow(c, before, after, FIRST_WAIT_MILLIS, 0))) {
      after.accept("the JVM was shutting down");
    }
  }

  private void attempt(String name, ClassLoader loader, Runnable before, Consumer<String> after, long wait,
      long waited) {
    Class<?> c = defined(name, loader);
    if (c == null) {
      later(() -> attempt(name, loader, before, after, wait * 2, waited + wait), "its class was not defined",
          wait, waited, after);
      return;
    }
    retransformNow(c, before, after, wait, waited);
  }

  private void retransformNow(Class<?> c, Runnable before, Consumer<String> after, long wait, long waited) {
    try {
      if (!inst.isModifiableClass(c)) {
        after.accept("the JVM does not let its class be changed");
        return;
      }
      if (running.contains(c.getName())) {
        later(() -> retransformNow(c, before, after, wait * 2, waited + wait),
            "a method of its class ran at every look", wait, waited, after);
        return;
      }
      before.run();
      inst.retransformClasses(c);
      after.accept(null);
    } catch (Throwable e) {
      log.debugOnce("retransform " + c.getName(), "could not retransform " + c.getName() + ": " + e);
      after.accept("the JVM refused its rewritten class (" + e + ")");
    }
  }

  /** Runs {@code retry} after {@code wait} ms, or, once it has waited long enough, tells {@code after} {@code why} not. */
  private void later(Runnable retry, String why, long wait, long waited, Consumer<String> after) {
    if (waited >= GIVE_UP_MILLIS) {
      after.accept(why + " for " + GIVE_UP_MILLIS / 1000 + " s");
      return;
    }
    try {
      thread.schedule(retry, wait, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      after.accept("the JVM was shutting down");
    }
  }

  /** The class {@code name} defined by {@code loader}, or null while it is not (or never will be). */
  private Class<?> defined(String name, ClassLoader loader) {
    for (Class<?> c : inst.getInitiatedClasses(loader)) {
      if (c.getClassLoader() == loader && c.getName().equals(name)) return c;
    }
    return null;
  }
}
