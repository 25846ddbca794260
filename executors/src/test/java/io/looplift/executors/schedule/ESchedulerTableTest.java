package io.looplift.executors.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pending-operation table on its own: which earlier works a new work depends on. */
class ESchedulerTableTest {
  private static final Object[] NONE = {};

  private final PendingOperationTable table = new PendingOperationTable();
  private final long[] a = new long[1];
  private final long[] b = new long[1];
  private long seq;

  @Test
  void aWriteDependsOnTheLastWriterAndAReadOnTheLastWriterOnly() {
    PendingWork write1 = work(NONE, new Object[] {a});
    PendingWork write2 = work(NONE, new Object[] {a});
    PendingWork read = work(new Object[] {a}, NONE);

    assertEquals(Set.of(), table.register(write1));
    assertEquals(Set.of(write1), table.register(write2));
    assertEquals(Set.of(write2), table.register(read));
  }

  @Test
  void aWriteDependsOnEveryReaderSinceTheLastWrite() {
    PendingWork write1 = work(NONE, new Object[] {a});
    PendingWork read1 = work(new Object[] {a}, NONE);
    PendingWork read2 = work(new Object[] {a}, NONE);
    PendingWork write2 = work(NONE, new Object[] {a});
    PendingWork read3 = work(new Object[] {a}, NONE);

    table.register(write1);
    assertEquals(Set.of(write1), table.register(read1));
    assertEquals(Set.of(write1), table.register(read2));
    assertEquals(Set.of(write1, read1, read2), table.register(write2));
    assertEquals(Set.of(write2), table.register(read3));
  }

  @Test
  void arraysAreComparedByIdentity() {
    long[] equalToA = new long[1];
    PendingWork writeA = work(NONE, new Object[] {a});
    PendingWork writeEqual = work(NONE, new Object[] {equalToA, b});

    table.register(writeA);
    assertEquals(Set.of(), table.register(writeEqual));
  }

  @Test
  void aWorkDoesNotDependOnItselfThroughRepeatedOrNullArrays() {
    PendingWork readWrite = work(new Object[] {a, a, null}, new Object[] {a, null, a});
    PendingWork read = work(new Object[] {a}, NONE);

    assertEquals(Set.of(), table.register(readWrite));
    assertEquals(Set.of(readWrite), table.register(read));
  }

  @Test
  void completedWorksLeaveTheTable() {
    PendingWork write = work(NONE, new Object[] {a, b});
    PendingWork read = work(new Object[] {a}, NONE);
    PendingWork readWrite = work(new Object[] {b}, new Object[] {b});
    table.register(write);
    table.register(read);
    table.register(readWrite);

    table.remove(write);
    PendingWork readA = work(new Object[] {a}, NONE);
    PendingWork readB = work(new Object[] {b}, NONE);
    assertEquals(Set.of(), table.register(readA));
    assertEquals(Set.of(readWrite), table.register(readB));
    for (PendingWork w : new PendingWork[] {read, readWrite, readA, readB}) table.remove(w);
    assertEquals(0, table.size());
  }

  private PendingWork work(Object[] reads, Object[] writes) {
    PendingWork w = new PendingWork(new TestWork(reads, writes, 0, () -> {}));
    w.registered(seq++, false);
    return w;
  }
}
