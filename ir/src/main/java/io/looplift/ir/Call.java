package io.looplift.ir;

import java.util.List;

/**
 * A call to a pure static JDK method on primitives, such as {@code java/lang/Math.exp(D)D}. Executors
 * that run JVM code call the very same method, so results are exact; others must map it to an
 * implementation with a documented bound, or decline the kernel.
 */
public record Call(String owner, String name, String desc, List<Node> args) implements Node {
  public Call {
    args = List.copyOf(args);
  }

  @Override
  public Type type() { return Type.ofDescriptor(desc.charAt(desc.length() - 1)).stackType(); }

  @Override
  public String toString() { return owner.substring(owner.lastIndexOf('/') + 1) + "." + name + args; }
}
