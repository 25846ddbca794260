package io.looplift.bridge;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which declaration a virtual call runs, as the JVM's resolution in the receiver's class finds it. */
class VirtualTargetsTest {
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
    assertTrue(VirtualTargets.runs(Dense.class, Matrix.class, "get(I)D"));
    assertTrue(VirtualTargets.runs(Row.class, Matrix.class, "get(I)D"));
    assertTrue(VirtualTargets.runs(Overloaded.class, Matrix.class, "get(I)D"));
    assertFalse(VirtualTargets.runs(Negated.class, Matrix.class, "get(I)D"));
    assertTrue(VirtualTargets.runs(Negated.class, Matrix.class, "times(ILio/looplift/bridge/VirtualTargetsTest$Matrix;)D"));
    // Asked again: the remembered answers.
    assertTrue(VirtualTargets.runs(Row.class, Matrix.class, "get(I)D"));
    assertFalse(VirtualTargets.runs(Negated.class, Matrix.class, "get(I)D"));
  }

  @Test
  void aClassOutsideTheHolderOrAnUnknownMethodNeverRunsIt() {
    assertFalse(VirtualTargets.runs(String.class, Matrix.class, "get(I)D"));
    assertFalse(VirtualTargets.runs(Matrix.class, Dense.class, "get(I)D"), "a superclass of the holder");
    assertFalse(VirtualTargets.runs(Dense.class, Matrix.class, "rows()I"), "declared by the subclass");
    assertFalse(VirtualTargets.runs(Dense.class, Matrix.class, "missing(I)D"));
    assertFalse(VirtualTargets.runs(Dense.class, Matrix.class, "get(Lno/such/Type;)D"));
    assertFalse(VirtualTargets.runs(Dense.class, Matrix.class, "get"), "no descriptor");
  }
}
