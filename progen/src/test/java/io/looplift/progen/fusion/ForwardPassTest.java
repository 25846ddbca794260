package io.looplift.progen.fusion;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ForwardPassTest {
  @Test
  void separatesProgramInputsFromProducedArraysAndFindsRoots() {
    Flush flush = BackwardPassTest.smallFlush();
    List<LoopIo> io = ForwardPass.run(flush, BackwardPass.run(flush));
    assertEquals(List.of(
        new LoopIo(Set.of(0), Set.of(), Set.of(), false),
        new LoopIo(Set.of(0), Set.of(), Set.of(), false),
        new LoopIo(Set.of(0), Set.of(1), Set.of(3), true),
        new LoopIo(Set.of(), Set.of(3), Set.of(), false),
        new LoopIo(Set.of(), Set.of(2), Set.of(), true)), io);
  }
}
