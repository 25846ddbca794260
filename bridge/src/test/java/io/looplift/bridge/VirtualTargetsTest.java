package io.looplift.bridge;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which declaration a virtual call runs, as the JVM's resolution in the receiver's class finds it. */
class VirtualTargetsTest {
  private static final String MATRIX = Matrix.class.getName();
  private static final String DENSE = Dense.class.getName();

  abstract static class Matrix {
    double[] data = new double[4];

    double get(int i) {
      return data[i];
    }

    double times(int i, Matrix other) {
      return data[i] * other.get(i);
    }

    abstract int rows();
  }

  static class Dense extends Matrix {
    @Override
    int rows() {
      return 2;
    }
  }

  /** Inherits {@code get} through {@link Dense}. */
  static final class Row extends Dense {}

  static final class Negated extends Dense {
    @Override
    double get(int i) {
      return -data[i];
    }
  }

  /** Declares a {@code get} of another descriptor: an overload, not an override. */
  static final class Overloaded extends Dense {
    double get(long i) {
      return data[(int) i];
    }
  }

  @Test
  void anInheritedDeclarationRunsAndAnOverrideDoesNot() {
    assertTrue(VirtualTargets.runs(Dense.class, MATRIX, "get(I)D"));
    assertTrue(VirtualTargets.runs(Row.class, MATRIX, "get(I)D"));
    assertTrue(VirtualTargets.runs(Overloaded.class, MATRIX, "get(I)D"));
    assertFalse(VirtualTargets.runs(Negated.class, MATRIX, "get(I)D"));
    assertTrue(VirtualTargets.runs(Negated.class, MATRIX, "times(ILio/looplift/bridge/VirtualTargetsTest$Matrix;)D"));
    // Asked again: the remembered answers.
    assertTrue(VirtualTargets.runs(Row.class, MATRIX, "get(I)D"));
    assertFalse(VirtualTargets.runs(Negated.class, MATRIX, "get(I)D"));
  }

  @Test
  void aClassOutsideTheHolderOrAnUnknownMethodNeverRunsIt() {
    assertFalse(VirtualTargets.runs(String.class, MATRIX, "get(I)D"));
    assertFalse(VirtualTargets.runs(Row.class, "no.such.Holder", "get(I)D"));
    assertFalse(VirtualTargets.runs(Matrix.class, DENSE, "get(I)D"), "a superclass of the holder");
    assertFalse(VirtualTargets.runs(Dense.class, MATRIX, "rows()I"), "declared by the subclass");
    assertFalse(VirtualTargets.runs(Dense.class, MATRIX, "missing(I)D"));
    assertFalse(VirtualTargets.runs(Dense.class, MATRIX, "get(Lno/such/Type;)D"));
    assertFalse(VirtualTargets.runs(Dense.class, MATRIX, "get"), "no descriptor");
  }
}
