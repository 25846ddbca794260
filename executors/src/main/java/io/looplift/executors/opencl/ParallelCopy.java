package io.looplift.executors.opencl;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Splits a large copy between the caller and a few daemon threads ({@code looplift-staging-N}), each copying
 * consecutive elements. One thread's copy moves a fraction of what the memory system can: staging the 192 MB
 * of a 16M-float convolution took longer than moving it to an H100 and back. Copies under
 * {@link #PARALLEL_BYTES} run on the caller alone. Used for the program's arrays in its JVM and for pinned memory in
 * the OpenCL host.
 */
public final class ParallelCopy {
  /** The smallest copy that is split. */
  public static final long PARALLEL_BYTES = 4L << 20;
  /** The least each thread copies. */
  private static final long PART_BYTES = 1L << 20;
  private static final int THREADS = Math.min(8, Runtime.getRuntime().availableProcessors());
  private static final ExecutorService POOL = Executors.newCachedThreadPool(new ThreadFactory());

  private ParallelCopy() {}

  /** Copies elements {@code [from, to)} of a range; ranges given to different threads never overlap. */
  @FunctionalInterface
  public interface Range {
    void copy(int from, int to);
  }

  /**
   * Runs {@code copy} over {@code [0, elements)}, split in parts when they hold {@link #PARALLEL_BYTES} or more,
   * and returns when every part is copied. Waiting ignores interrupts (the thread's flag stays set): a launch's
   * copy is never left half done.
   */
  public static void run(int elements, int elementSize, Range copy) {
    long bytes = (long) elements * elementSize;
    int parts = bytes < PARALLEL_BYTES ? 1 : (int) Math.min(THREADS, bytes / PART_BYTES);
    if (parts < 2) {
      copy.copy(0, elements);
      return;
    }
    CompletableFuture<?>[] others = new CompletableFuture<?>[parts - 1];
    for (int p = 1; p < parts; p++) {
      int from = split(elements, parts, p);
      int to = split(elements, parts, p + 1);
      others[p - 1] = CompletableFuture.runAsync(() -> copy.copy(from, to), POOL);
    }
    try {
      copy.copy(0, split(elements, parts, 1));
    } finally {
      CompletableFuture.allOf(others).exceptionally(t -> null).join(); // no part may still be writing
    }
    for (CompletableFuture<?> other : others) {
      try {
        other.join();
      } catch (CompletionException e) { // a part's failure, as if the caller had copied it
        if (e.getCause() instanceof RuntimeException r) throw r;
        if (e.getCause() instanceof Error r) throw r;
        throw e;
      }
    }
  }

  private static int split(int elements, int parts, int p) {
    return (int) ((long) elements * p / parts);
  }

  /** Daemon threads that end after a minute without work. */
  private static final class ThreadFactory implements java.util.concurrent.ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable body) {
      Thread t = new Thread(body, "looplift-staging-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    }
  }
}
