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
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Facts about other classes read from their class files through a class loader's resources — never by
 * loading them, which could run static initializers or change class-loading order.
 */
final class ClassHierarchy {
  private final ClassLoader loader;
  private final ClassNode self;
  private final Implementations implementations;
  private final Map<String, ClassNode> cache = new ConcurrentHashMap<>();
  private final Map<String, ClassNode> withCode = new ConcurrentHashMap<>();

  ClassHierarchy(ClassLoader loader, ClassNode self) {
    this(loader, self, Implementations.NONE);
  }

  /** @param implementations what is known of abstract methods' implementations among the classes loaded */
  ClassHierarchy(ClassLoader loader, ClassNode self, Implementations implementations) {
    this.loader = loader;
    this.self = self;
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
    ClassNode cn = find(internalName);
    if (cn == null) return false;
    for (String itf : cn.interfaces) {
      if (isSubtype(itf, ancestor)) return true;
    }
    return cn.superName != null && isSubtype(cn.superName, ancestor);
  }

  /** The class file of {@code internalName} (fields and supertypes only), or null when not found. */
  ClassNode find(String internalName) {
    if (internalName.equals(self.name)) return self;
    ClassNode cached = cache.get(internalName);
    if (cached != null) return cached;
    String resource = internalName + ".class";
    try (InputStream in = open(resource)) {
      if (in == null) return null;
      ClassNode cn = new ClassNode();
      new ClassReader(in.readAllBytes()).accept(cn, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      cache.put(internalName, cn);
      return cn;
    } catch (IOException | RuntimeException e) {
      return null;
    }
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
    try (InputStream in = open(internalName + ".class")) {
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
      ClassNode cn = findWithCode(c);
      if (cn == null) return true;
      for (MethodNode m : cn.methods) {
        if (m.name.equals("<clinit>")) return true;
      }
      c = cn.superName;
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
      ClassNode cn = find(c);
      if (cn == null) return false;
      for (FieldNode f : cn.fields) {
        if (!f.name.equals(name) || !f.desc.equals(desc)) continue;
        if (c.equals(from)) return true;
        boolean samePackage = packageOf(c).equals(packageOf(from));
        boolean classVisible = (cn.access & Opcodes.ACC_PUBLIC) != 0 || samePackage;
        boolean fieldVisible = (f.access & Opcodes.ACC_PUBLIC) != 0 || samePackage && (f.access & Opcodes.ACC_PRIVATE) == 0;
        return classVisible && fieldVisible;
      }
      c = cn.superName;
    }
    return false;
  }

  /** Whether code of class {@code from} may name class {@code c}: public, or of the same package. */
  boolean classAccessibleFrom(String c, String from) {
    ClassNode cn = find(c);
    return cn != null && ((cn.access & Opcodes.ACC_PUBLIC) != 0 || packageOf(c).equals(packageOf(from)));
  }

  private static String packageOf(String internalName) {
    int slash = internalName.lastIndexOf('/');
    return slash < 0 ? "" : internalName.substring(0, slash);
  }

  private InputStream open(String resource) {
    InputStream in = loader != null ? loader.getResourceAsStream(resource) : null;
    return in != null ? in : ClassLoader.getSystemResourceAsStream(resource);
  }

  /** Whether the field is volatile (searching superclasses), or null when its declaration cannot be read. */
  Boolean isVolatile(String owner, String name, String desc) {
    for (String c = owner; c != null; ) {
      ClassNode cn = find(c);
      if (cn == null) return null;
      for (FieldNode f : cn.fields) {
        if (f.name.equals(name) && f.desc.equals(desc)) return (f.access & Opcodes.ACC_VOLATILE) != 0;
      }
      for (String itf : cn.interfaces) {
        Boolean v = isVolatile(itf, name, desc);
        if (v != null) return v;
      }
      c = cn.superName;
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
    ClassNode cn = find(name);
    return cn != null && (cn.access & Opcodes.ACC_INTERFACE) != 0;
  }

  private List<String> superChain(String name) {
    List<String> chain = new ArrayList<>();
    for (String c = name; c != null; ) {
      chain.add(c);
      ClassNode cn = find(c);
      if (cn == null) throw new IllegalStateException("cannot read class " + c + " to compute stack map frames");
      c = cn.superName;
    }
    return chain;
  }
}
