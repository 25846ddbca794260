package io.looplift.tracecache;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Compiled device programs: a bounded in-memory cache of live programs in front of an optional
 * {@link DiskProgramStore} of their binaries. A miss in memory loads the binary from disk, and only when
 * that is missing or rejected compiles the source (then stores the new binary).
 *
 * <p>Programs belong to one device context, so each context has its own cache; the disk store may be shared.
 * The type {@code P} is opaque here (this module knows no device API): the {@link Compiler} makes programs
 * and the {@code release} function given at construction frees one once it is evicted and every
 * {@link ProgramLease} on it is closed.
 *
 * <p>Thread-safe. Concurrent {@link #acquire} calls for the same key compile once.
 *
 * @param <P> the program type
 */
public final class ProgramCache<P> implements AutoCloseable {

  /**
   * Makes programs for one device. Methods may block; they are called at most once per key at a time.
   *
   * @param <P> the program type
   */
  public interface Compiler<P> {
    /** Builds the program from source. */
    P compile(ProgramKey key) throws Exception;

    /** Builds the program from a binary that {@link #binary} returned, possibly in an earlier JVM. */
    P load(ProgramKey key, byte[] binary) throws Exception;

    /** The device binary of {@code program}, for the disk store. */
    byte[] binary(P program) throws Exception;
  }

  /**
   * Counters since construction.
   *
   * @param memoryHits acquisitions served from memory
   * @param diskHits programs loaded from a disk binary instead of compiled
   * @param compiles programs compiled from source
   * @param evictions programs dropped from memory for size
   */
  public record Stats(long memoryHits, long diskHits, long compiles, long evictions) {}

  private final LruMap<ProgramKey, Entry<P>> programs;
  private final DiskProgramStore disk;
  private final Consumer<P> release;
  private final LongAdder diskHits = new LongAdder();
  private final LongAdder compiles = new LongAdder();

  /**
   * A cache holding at most {@code maxPrograms} live programs.
   *
   * @param disk where binaries persist, or null to keep them in memory only
   * @param release frees a program; called once per program, on the thread that evicted it or closed its
   *     last lease
   */
  public ProgramCache(long maxPrograms, DiskProgramStore disk, Consumer<P> release) {
    if (maxPrograms < 1) throw new IllegalArgumentException("maxPrograms " + maxPrograms);
    this.disk = disk;
    this.release = release;
    this.programs = new LruMap<>(maxPrograms, (key, entry, evicted) -> entry.release());
  }

  /**
   * The program for {@code key}, from memory, disk or {@code compiler}, leased to the caller.
   *
   * @throws ProgramBuildException when the program is not cached and {@code compiler} failed to build it
   */
  public ProgramLease<P> acquire(ProgramKey key, Compiler<P> compiler) throws ProgramBuildException {
    for (;;) {
      Entry<P> entry;
      try {
        entry = programs.get(key, k -> load(k, compiler));
      } catch (BuildFailure e) {
        throw new ProgramBuildException("cannot build program " + key.digest().substring(0, 12), e.getCause());
      }
      if (entry.retain()) return new ProgramLease<>(entry);
      // Evicted and released between the lookup and the retain: look again.
    }
  }

  private Entry<P> load(ProgramKey key, Compiler<P> compiler) {
    if (disk != null) {
      byte[] binary = disk.read(key).orElse(null);
      if (binary != null) {
        try {
          Entry<P> e = new Entry<>(compiler.load(key, binary), release);
          diskHits.increment();
          return e;
        } catch (Exception e) {
          disk.delete(key); // a binary this driver no longer accepts: compile and replace it
        }
      }
    }
    P program;
    try {
      program = compiler.compile(key);
    } catch (Exception e) {
      throw new BuildFailure(e);
    }
    compiles.increment();
    if (disk != null) {
      try {
        disk.write(key, compiler.binary(program));
      } catch (Exception e) {
        // Not persisted: the next JVM compiles it again, nothing worse.
      }
    }
    return new Entry<>(program, release);
  }

  /** Counters for the report. */
  public Stats stats() {
    LruMap.Counts c = programs.counts();
    return new Stats(c.hits(), diskHits.sum(), compiles.sum(), c.evictions());
  }

  /** The number of programs held in memory. */
  public long size() {
    return programs.size();
  }

  /** Drops every program from memory (each is released once its leases close); the disk store stays. */
  @Override
  public void close() {
    programs.clear();
  }

  /** A live program with a reference count: one for the cache, one per open lease. */
  static final class Entry<P> {
    final P program;
    private final Consumer<P> release;
    private final AtomicInteger refs = new AtomicInteger(1);

    Entry(P program, Consumer<P> release) {
      this.program = program;
      this.release = release;
    }

    boolean retain() {
      for (;;) {
        int r = refs.get();
        if (r == 0) return false;
        if (refs.compareAndSet(r, r + 1)) return true;
      }
    }

    void release() {
      if (refs.decrementAndGet() == 0) release.accept(program);
    }
  }

  /** Carries a compiler's exception out of the map's computation. */
  private static final class BuildFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BuildFailure(Exception cause) { super(cause); }
  }
}
