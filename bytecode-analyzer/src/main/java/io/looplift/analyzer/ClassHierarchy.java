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

/**
 * Facts about other classes read from their class files through a class loader's resources — never by
 * loading them, which could run static initializers or change class-loading order.
 */
final class ClassHierarchy {
  private final ClassLoader loader;
  private final ClassNode self;
  private final Map<String, ClassNode> cache = new ConcurrentHashMap<>();

  ClassHierarchy(ClassLoader loader, ClassNode self) {
    this.loader = loader;
    this.self = self;
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
