package io.looplift.ir;

import java.util.Objects;

/** The value of {@link Carried} {@code slot} of {@link Loop} {@code loop} at the start of the current iteration. */
public record CarriedVar(int loop, int slot, Type type) implements Node {
  public CarriedVar {
    if (type != type.stackType()) throw new IllegalArgumentException("carried " + type);
  }

  @Override
  public String toString() { return "c" + loop + "_" + slot; }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) {
    return o instanceof CarriedVar v && loop == v.loop && slot == v.slot && type == v.type;
  }

  @Override
  public int hashCode() { return (47 * loop + slot) * 31 + Objects.hashCode(type); }
}
