package io.looplift.ir;

import java.util.List;

/**
 * A call to a pure static JDK method on primitives, such as {@code java/lang/Math.exp(D)D}. Executors
 * that run JVM code call the very same method, so results are exact; others must map it to an
 * implementation with a documented bound, or decline the kernel.
 */
public final class Call implements Node {
  private final String owner;
  private final String name;
  private final String desc;
  private final List<Node> args;
  private final int hash;

  public Call(String owner, String name, String desc, List<Node> args) {
    args = List.copyOf(args);
    this.owner = owner;
    this.name = name;
    this.desc = desc;
    this.args = args;
    this.hash = java.util.Objects.hash(owner, name, desc, args);
  }

  public String owner() { return owner; }

  public String name() { return name; }

  public String desc() { return desc; }

  public List<Node> args() { return args; }

  @Override
  public boolean equals(Object other) {
    if (this == other) return true;
    return other instanceof Call o && hash == o.hash && owner.equals(o.owner) && name.equals(o.name) && desc.equals(o.desc) && args.equals(o.args);
  }

  @Override
  public int hashCode() { return hash; }

  @Override
  public Type type() { return Type.ofDescriptor(desc.charAt(desc.length() - 1)).stackType(); }

  @Override
  public String toString() { return owner.substring(owner.lastIndexOf('/') + 1) + "." + name + args; }
}
