package io.looplift.tracecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkQueueTest {
  @Test
  void flushRunsEntriesInOrderAndEmptiesTheQueue() {
    List<Integer> ran = new ArrayList<>();
    WorkQueue<Integer> q = new WorkQueue<>(64, ran::add);
    q.add(1);
    q.add(2);
    q.add(3);
    assertEquals(3, q.size());
    assertEquals(List.of(), ran);
    q.flush();
    assertEquals(List.of(1, 2, 3), ran);
    assertTrue(q.isEmpty());
  }

  @Test
  void addFlushesAtTheLimit() {
    List<Integer> ran = new ArrayList<>();
    WorkQueue<Integer> q = new WorkQueue<>(3, ran::add);
    q.add(1);
    q.add(2);
    assertEquals(List.of(), ran);
    q.add(3);
    assertEquals(List.of(1, 2, 3), ran);
    assertEquals(0, q.size());
  }

  @Test
  void aThrowingRunnerKeepsTheLaterEntries() {
    List<Integer> ran = new ArrayList<>();
    WorkQueue<Integer> q = new WorkQueue<>(64, e -> {
      if (e == 2) throw new IllegalStateException("boom");
      ran.add(e);
    });
    q.add(1);
    q.add(2);
    q.add(3);
    assertThrows(IllegalStateException.class, q::flush);
    assertEquals(List.of(1), ran);
    assertEquals(1, q.size());
    q.flush();
    assertEquals(List.of(1, 3), ran);
  }

  @Test
  void entriesAddedWhileFlushingRunInTheSameFlush() {
    List<Integer> ran = new ArrayList<>();
    WorkQueue<Integer>[] self = new WorkQueue[1];
    self[0] = new WorkQueue<>(64, e -> {
      ran.add(e);
      if (e == 1) self[0].add(10);
    });
    self[0].add(1);
    self[0].add(2);
    self[0].flush();
    assertEquals(List.of(1, 2, 10), ran);
  }

  @Test
  void rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> new WorkQueue<Integer>(0, e -> {}));
    assertThrows(NullPointerException.class, () -> new WorkQueue<Integer>(1, null));
  }
}
