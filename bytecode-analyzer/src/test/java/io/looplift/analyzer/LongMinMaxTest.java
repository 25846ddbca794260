package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.InsnList;

/** The compare-and-branch forms of {@code Math.max} and {@code Math.min} on longs give the same results. */
class LongMinMaxTest {
  private static final long[] VALUES = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -65_537, -1, 0, 1, 2, 131_072,
      Long.MAX_VALUE - 1, Long.MAX_VALUE};

  private static MethodBuilder ofTwo(boolean max) {
    InsnList il = new InsnList();
    LongMinMax.of(il, max, 4);
    return MethodBuilder.method("(JJ)J").var(Opcodes.LLOAD, 0).var(Opcodes.LLOAD, 2).insns(il).insn(Opcodes.LRETURN);
  }

  private static MethodBuilder withBound(boolean atLeast, long bound) {
    InsnList il = new InsnList();
    if (atLeast) LongMinMax.atLeast(il, bound);
    else LongMinMax.atMost(il, bound);
    return MethodBuilder.method("(J)J").var(Opcodes.LLOAD, 0).insns(il).insn(Opcodes.LRETURN);
  }

  @Test
  void theLargerAndTheSmallerOfTwo() throws Throwable {
    MethodBuilder max = ofTwo(true);
    MethodBuilder min = ofTwo(false);
    for (long a : VALUES) {
      for (long b : VALUES) {
        assertEquals(Math.max(a, b), max.run(a, b), a + " max " + b);
        assertEquals(Math.min(a, b), min.run(a, b), a + " min " + b);
      }
    }
  }

  @Test
  void aValueHeldToABound() throws Throwable {
    for (long bound : new long[] {0, 1, 131_072}) {
      MethodBuilder atLeast = withBound(true, bound);
      MethodBuilder atMost = withBound(false, bound);
      for (long v : VALUES) {
        assertEquals(Math.max(v, bound), atLeast.run(v), v + " at least " + bound);
        assertEquals(Math.min(v, bound), atMost.run(v), v + " at most " + bound);
      }
    }
  }
}
