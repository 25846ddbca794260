package io.looplift.ir;

import java.util.Objects;

/**
 * A value an inner {@link Loop} carries from one iteration to the next (a local such as the sum of a dot
 * product): {@code init} is computed where the loop is reached, {@link CarriedVar} reads the value at the
 * start of an iteration, {@code update} is its value at the end of the iteration, and {@link LoopOut} reads
 * the value after the loop.
 */
public record Carried(Type type, Node init, Node update) {
  public Carried {
    if (type != type.stackType() || init.type() != type || update.type() != type) {
      throw new IllegalArgumentException("carried " + type + " from " + init.type() + " to " + update.type());
    }
  }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) {
    return o instanceof Carried c && type == c.type && Objects.equals(init, c.init) && Objects.equals(update, c.update);
  }

  @Override
  public int hashCode() { return Objects.hash(type, init, update); }
}
