package io.looplift.executors.schedule;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pending-operation table: for each array that registered, not yet completed works touch, the last
 * writer among them and the readers registered since that write. Arrays are compared by identity. Not
 * thread-safe: the scheduler's lock guards it.
 */
final class PendingOperationTable {
  private final Map<Object, ArrayAccess> arrays = new IdentityHashMap<>();

  /** The in-flight accesses to one array; its readers are few, so a list compared by identity. */
  private static final class ArrayAccess {
    PendingWork writer;
    final List<PendingWork> readers = new ArrayList<>(2);

    boolean isEmpty() {
      return writer == null && readers.isEmpty();
    }

    void addReader(PendingWork work) {
      for (PendingWork r : readers) {
        if (r == work) return;
      }
      readers.add(work);
    }

    void removeReader(PendingWork work) {
      for (int i = readers.size() - 1; i >= 0; i--) {
        if (readers.get(i) == work) readers.remove(i);
      }
    }
  }

  /**
   * Enters {@code work}'s accesses and returns the works it must wait for: the last writer of each array it
   * reads (read after write), and the last writer and readers since of each array it writes (write after
   * write, write after read). Empty, and not to be changed, when it waits for none.
   */
  Set<PendingWork> register(PendingWork work) {
    Set<PendingWork> dependencies = null;
    // Writes first: an array the work both reads and writes then already names it as writer.
    for (Object array : work.writes()) {
      if (array == null) continue;
      ArrayAccess access = accessOf(array);
      if (access.writer != null && access.writer != work || !access.readers.isEmpty()) {
        if (dependencies == null) dependencies = Collections.newSetFromMap(new IdentityHashMap<>());
        if (access.writer != null && access.writer != work) dependencies.add(access.writer);
        dependencies.addAll(access.readers);
      }
      access.writer = work;
      access.readers.clear();
    }
    for (Object array : work.reads()) {
      if (array == null) continue;
      ArrayAccess access = accessOf(array);
      if (access.writer == work) continue;
      if (access.writer != null) {
        if (dependencies == null) dependencies = Collections.newSetFromMap(new IdentityHashMap<>());
        dependencies.add(access.writer);
      }
      access.addReader(work);
    }
    return dependencies == null ? Set.of() : dependencies;
  }

  private ArrayAccess accessOf(Object array) {
    ArrayAccess access = arrays.get(array);
    if (access == null) {
      access = new ArrayAccess();
      arrays.put(array, access);
    }
    return access;
  }

  /** Takes a completed work out of the table. */
  void remove(PendingWork work) {
    removeFrom(work.writes(), work);
    removeFrom(work.reads(), work);
  }

  private void removeFrom(Object[] touched, PendingWork work) {
    for (Object array : touched) {
      if (array == null) continue;
      ArrayAccess access = arrays.get(array);
      if (access == null) continue;
      if (access.writer == work) access.writer = null;
      access.removeReader(work);
      if (access.isEmpty()) arrays.remove(array);
    }
  }

  /** How many arrays have in-flight accesses. */
  int size() {
    return arrays.size();
  }
}
