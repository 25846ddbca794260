package io.looplift.analyzer;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;

/**
 * Facts about other classes read from their class files through a class loader's resources — never by
 * loading them, which could run static initializers or change class-loading order. Their supertypes, fields
 * and access come from {@link ClassFiles}, shared by every analysis; the code of helpers to inline is read
 * for this analysis alone.
 */
final class ClassHierarchy {
  private final ClassLoader loader;
  private final ClassNode self;
  private final Implementations implementations;
  private final ClassFacts selfFacts;
  private final Map<String, ClassNode> withCode = new ConcurrentHashMap<>();

  ClassHierarchy(ClassLoader loader, ClassNode self) {
    this(loader, self, Implementations.NONE);
  }

  /** @param implementations what is known of abstract methods' implementations among the classes loaded */
  ClassHierarchy(ClassLoader loader, ClassNode self, Implementations implementations) {
    this.loader = loader;
    this.self = self;
    this.selfFacts = ClassFacts.of(self);
    this.implementations = implementations;
  }

  /**
   * The internal name of a loaded class implementing {@code owner}'s abstract {@code method}, or null; when
   * null, the class being analyzed is noted as wanting one (see {@link Implementations#wanted}).
   */
  String implementation(String owner, String method) {
    String known = implementations.of(owner, method);
    if (known == null) implementations.wanted(owner, method, self.name, loader);
    return known;
  }

  /**
   * Whether {@code internalName} is {@code ancestor}, a subclass of it or, for an interface, a class
   * implementing it (directly, through a superclass or a superinterface); false when a class file on the way
   * cannot be read.
   */
  boolean isSubtype(String internalName, String ancestor) {
    if (internalName.equals(ancestor)) return true;
    ClassFacts c = find(internalName);
    if (c == null) return false;
    for (String itf : c.interfaces()) {
      if (isSubtype(itf, ancestor)) return true;
    }
    return c.superName() != null && isSubtype(c.superName(), ancestor);
  }

  /** The facts of class {@code internalName}, or null when its class file cannot be read. */
  private ClassFacts find(String internalName) {
    return internalName.equals(self.name) ? selfFacts : ClassFiles.facts(loader, internalName);
  }

  /**
   * The class file of {@code internalName} with its methods' code (for inlining its helpers), or null when
   * not found or when it is a class of the JDK, whose methods the JIT may replace with intrinsics that do
   * not compute what their bytecode does.
   */
  ClassNode findWithCode(String internalName) {
    if (internalName.equals(self.name)) return self;
    if (Libraries.isJdk(internalName)) return null;
    ClassNode cached = withCode.get(internalName);
    if (cached != null) return cached;
    try (InputStream in = ClassFiles.open(loader, internalName)) {
      if (in == null) return null;
      ClassNode cn = new ClassNode();
      new ClassReader(in.readAllBytes()).accept(cn, ClassReader.SKIP_FRAMES);
      withCode.put(internalName, cn);
      return cn;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Whether calling a static method of {@code internalName} may run a static initializer outside the JDK:
   * its own, or a superclass's (Java initializes those first). True when a class file cannot be read.
   */
  boolean hasStaticInitializer(String internalName) {
    for (String c = internalName; c != null && !Libraries.isJdk(c); ) {
      ClassFacts facts = find(c);
      if (facts == null || facts.hasStaticInitializer()) return true;
      c = facts.superName();
    }
    return false;
  }

  /**
   * Whether code of class {@code from} may read field {@code owner.name} (searching superclasses) with
   * {@code getfield} or {@code getstatic}: the field public in a public class, or not private in a class of
   * {@code from}'s package. False when its declaration cannot be read.
   */
  boolean fieldAccessibleFrom(String owner, String name, String desc, String from) {
    for (String c = owner; c != null; ) {
      ClassFacts facts = find(c);
      if (facts == null) return false;
      for (ClassFacts.Field f : facts.fields()) {
        if (!f.name().equals(name) || !f.desc().equals(desc)) continue;
        if (c.equals(from)) return true;
        boolean samePackage = packageOf(c).equals(packageOf(from));
        boolean classVisible = facts.isPublic() || samePackage;
        boolean fieldVisible = (f.access() & Opcodes.ACC_PUBLIC) != 0 || samePackage && (f.access() & Opcodes.ACC_PRIVATE) == 0;
        return classVisible && fieldVisible;
      }
      c = facts.superName();
    }
    return false;
  }

  /** Whether code of class {@code from} may name class {@code c}: public, or of the same package. */
  boolean classAccessibleFrom(String c, String from) {
    ClassFacts facts = find(c);
    return facts != null && (facts.isPublic() || packageOf(c).equals(packageOf(from)));
  }

  private static String packageOf(String internalName) {
    int slash = internalName.lastIndexOf('/');
    return slash < 0 ? "" : internalName.substring(0, slash);
  }

  /** Whether the field is volatile (searching superclasses), or null when its declaration cannot be read. */
  Boolean isVolatile(String owner, String name, String desc) {
    for (String c = owner; c != null; ) {
      ClassFacts facts = find(c);
      if (facts == null) return null;
      for (ClassFacts.Field f : facts.fields()) {
        if (f.name().equals(name) && f.desc().equals(desc)) return (f.access() & Opcodes.ACC_VOLATILE) != 0;
      }
      for (String itf : facts.interfaces()) {
        Boolean v = isVolatile(itf, name, desc);
        if (v != null) return v;
      }
      c = facts.superName();
    }
    return null;
  }

  /**
   * The nearest common superclass of two classes, for stack map frames.
   *
   * @throws IllegalStateException when a class file cannot be read (the class is then left unchanged)
   */
  String commonSuperClass(String a, String b) {
    List<String> chainA = superChain(a);
    List<String> chainB = superChain(b);
    if (chainA.contains(b)) return b;
    if (chainB.contains(a)) return a;
    if (isInterface(a) || isInterface(b)) return "java/lang/Object";
    for (String c : chainA) {
      if (chainB.contains(c)) return c;
    }
    return "java/lang/Object";
  }

  private boolean isInterface(String name) {
    ClassFacts facts = find(name);
    return facts != null && facts.isInterface();
  }

  private List<String> superChain(String name) {
    List<String> chain = new ArrayList<>();
    for (String c = name; c != null; ) {
      chain.add(c);
      ClassFacts facts = find(c);
      if (facts == null) throw new IllegalStateException("cannot read class " + c + " to compute stack map frames");
      c = facts.superName();
    }
    return chain;
  }
}
