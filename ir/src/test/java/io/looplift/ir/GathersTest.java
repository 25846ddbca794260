package io.looplift.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Which indices are gathers, and their decomposition as {@code offset + scale · indices[k]}. */
class GathersTest {
  private static final Node I = Index.I;
  private static final Node BASE = new Param(0, Type.INT);
  private static final Load IDX = new Load(1, Type.INT, I);

  private static Node c(int v) {
    return Const.ofInt(v);
  }

  private static long value(Node invariant, int base) {
    return new Interpreter(new Object[0], new long[] {base}, new long[0]).evaluate(invariant, 0);
  }

  @Test
  void aLoadedIndexOrAnAffineFunctionOfOneIsAGather() {
    Gathers plain = Gathers.of(IDX);
    assertEquals(IDX, plain.indices());
    assertEquals(1, value(plain.scale(), 0));
    assertEquals(0, value(plain.offset(), 0));

    Gathers oneBased = Gathers.of(Binary.of(BinaryOp.SUB, IDX, c(1)));
    assertEquals(1, value(oneBased.scale(), 0));
    assertEquals(-1, value(oneBased.offset(), 0));

    // base - 2 * idx[i + 3]
    Load shifted = new Load(1, Type.INT, Binary.of(BinaryOp.ADD, I, c(3)));
    Gathers scaled = Gathers.of(Binary.of(BinaryOp.SUB, BASE, Binary.of(BinaryOp.MUL, c(2), shifted)));
    assertEquals(shifted, scaled.indices());
    assertEquals(-2, value(scaled.scale(), 10));
    assertEquals(10, value(scaled.offset(), 10));
  }

  @Test
  void otherIndicesAreNot() {
    assertNull(Gathers.of(I), "affine: no load");
    assertNull(Gathers.of(Binary.of(BinaryOp.MUL, IDX, IDX)), "a product of the loaded value");
    assertNull(Gathers.of(Binary.of(BinaryOp.ADD, IDX, I)), "the loop variable besides the loaded value");
    assertNull(Gathers.of(Binary.of(BinaryOp.ADD, IDX, new Load(2, Type.INT, I))), "two index arrays");
    assertNull(Gathers.of(new Load(1, Type.INT, new Load(2, Type.INT, I))), "indices of indices");
    assertNull(Gathers.of(new Load(1, Type.INT, I, c(0), 0)), "a row's element");
    assertNull(Gathers.of(new Convert(new Load(1, Type.DOUBLE, I), Type.INT)), "a converted double");
  }
}
