package io.looplift.executors.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Kernel keys: the same in every JVM run, different for different kernels and classes. */
class KernelKeyTest {
  /** {@code a[i] = b[i] op p0}, over {@code type}, built afresh on each call. */
  private static LoopTemplate scale(Type type, BinaryOp op) {
    Node value = Binary.of(op, new Load(1, type, Index.I), new Param(0, type));
    return new LoopTemplate(List.of(type, type), List.of(type), List.of(),
        List.of(new Store(0, type, Index.I, value, Const.TRUE)), List.of());
  }

  /**
   * The digest depends on the template's structure only, never on identity hash codes or the JVM run; if this
   * value changes, stored measurements stop matching (then bump ShapeDigest's format on purpose).
   */
  @Test
  void theShapeOfATemplateIsAFixedDigestOfItsStructure() {
    assertEquals("3c6a95ecace0a987e08615a7d1e2c57e4100a970cc2193b90f51da1ad60c6f33",
        ShapeDigest.of(scale(Type.DOUBLE, BinaryOp.MUL)));
    assertEquals(ShapeDigest.of(scale(Type.FLOAT, BinaryOp.ADD)), ShapeDigest.of(scale(Type.FLOAT, BinaryOp.ADD)));
  }

  @Test
  void differentTemplatesHaveDifferentShapes() {
    LoopTemplate shifted = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.DOUBLE), List.of(),
        List.of(new Store(0, Type.DOUBLE, Index.I, Binary.of(BinaryOp.MUL,
            new Load(1, Type.DOUBLE, Binary.of(BinaryOp.ADD, Index.I, Const.ofInt(1))), new Param(0, Type.DOUBLE)),
            Const.TRUE)), List.of());
    Set<String> shapes = new HashSet<>();
    for (LoopTemplate t : List.of(scale(Type.DOUBLE, BinaryOp.MUL), scale(Type.DOUBLE, BinaryOp.ADD),
        scale(Type.FLOAT, BinaryOp.MUL), scale(Type.LONG, BinaryOp.MUL), shifted)) {
      shapes.add(ShapeDigest.of(t));
    }
    assertEquals(5, shapes.size());
  }

  @Test
  void aSharedSubexpressionIsDigestedOnce() {
    Node x = new Load(1, Type.DOUBLE, Index.I);
    for (int k = 0; k < 200; k++) x = Binary.of(BinaryOp.ADD, x, x); // 2^200 paths, 201 nodes
    LoopTemplate deep = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(),
        List.of(new Store(0, Type.DOUBLE, Index.I, x, Const.TRUE)), List.of());
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> ShapeDigest.of(deep));
  }

  @Test
  void classHashesAreInTheKeyButNotInTheNameOfItsRecord() {
    KernelKey a = KernelKey.of(scale(Type.DOUBLE, BinaryOp.MUL), Map.of("app.A", "1", "app.B", "2"));
    KernelKey changed = KernelKey.of(scale(Type.DOUBLE, BinaryOp.MUL), Map.of("app.A", "1", "app.B", "3"));
    KernelKey other = KernelKey.of(scale(Type.DOUBLE, BinaryOp.MUL), Map.of("app.A", "1", "app.C", "2"));
    assertNotEquals(a, changed);
    assertEquals(a.storeId(), changed.storeId(), "a changed class finds, and replaces, its old record");
    assertNotEquals(a.storeId(), other.storeId());
    assertEquals(a, KernelKey.of(scale(Type.DOUBLE, BinaryOp.MUL), Map.of("app.B", "2", "app.A", "1")));
  }
}
