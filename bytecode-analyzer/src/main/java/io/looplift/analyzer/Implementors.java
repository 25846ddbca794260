package io.looplift.analyzer;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The {@link Implementations} of a running program, learnt as its classes load. A loop rejected for calling
 * an abstract method no loaded class implements leaves a wish ({@link #wanted}); the first class to load that
 * declares that method, not abstract, and is a subtype of the class or interface declaring it abstract becomes
 * its implementation, and {@link #classLoaded} names the classes whose loops are worth rewriting again.
 * (Objects of the classes that load later fail the inlined call's guard and run the original loop.) Classes
 * are read as bytes, never loaded. Thread-safe.
 */
public final class Implementors implements Implementations {
  /**
   * A class whose loops wanted an implementation: its internal name and defining loader (held weakly, so that
   * a wish never keeps a loader alive; null for the bootstrap loader).
   */
  public record Caller(String className, WeakReference<ClassLoader> loader) {}

  /** By owner and method ({@link #key}): the implementing class. */
  private final Map<String, String> known = new ConcurrentHashMap<>();
  /** By owner and method: the callers waiting for an implementation, by name and loader. */
  private final Map<String, Map<String, Caller>> wanted = new ConcurrentHashMap<>();
  /**
   * The methods {@link #wanted} waits for, as name and descriptor in turn, in modified UTF-8: what
   * {@link #classLoaded} looks for in the bytes of every class, read without a lock.
   */
  private volatile byte[][] wantedMethods = new byte[0][];
  /** Access flags of a method that implements nothing another class declares abstract. */
  private static final int NOT_AN_IMPLEMENTATION = Opcodes.ACC_ABSTRACT | Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE;

  private static String key(String owner, String method) {
    return owner + '.' + method;
  }

  @Override
  public String of(String owner, String method) {
    return known.get(key(owner, method));
  }

  @Override
  public void wanted(String owner, String method, String caller, ClassLoader loader) {
    boolean[] added = {false};
    wanted.computeIfAbsent(key(owner, method), k -> {
      added[0] = true;
      return new ConcurrentHashMap<>();
    }).putIfAbsent(caller + '@' + System.identityHashCode(loader), new Caller(caller, new WeakReference<>(loader)));
    if (added[0]) wantedChanged();
  }

  /**
   * Learns from a class being loaded by {@code loader}: returns the classes whose loops wanted an
   * implementation that it is, to be rewritten again (each once); empty when it is none. Costs nothing while
   * no loop waits, and then a pass over the raw bytes of its constant pool and method table: it is parsed only
   * when it declares a waited-for method by name and descriptor.
   */
  public List<Caller> classLoaded(byte[] classfile, ClassLoader loader) {
    byte[][] methods = wantedMethods;
    if (methods.length == 0) return List.of();
    ClassNode cn;
    try {
      if (!declaresOneOf(classfile, methods)) return List.of();
      cn = new ClassNode();
      new ClassReader(classfile).accept(cn, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    } catch (RuntimeException e) {
      return List.of();
    }
    ClassHierarchy hierarchy = new ClassHierarchy(loader, cn);
    List<String> keys = List.copyOf(wanted.keySet());
    Map<String, Caller> again = new LinkedHashMap<>(); // a class waiting for several of its methods, once
    for (MethodNode m : cn.methods) {
      if ((m.access & NOT_AN_IMPLEMENTATION) != 0) continue;
      String method = m.name + m.desc;
      for (String k : keys) {
        if (!k.endsWith('.' + method)) continue;
        String owner = k.substring(0, k.length() - method.length() - 1);
        if (owner.equals(cn.name) || !hierarchy.isSubtype(cn.name, owner)) continue;
        known.putIfAbsent(k, cn.name);
        Map<String, Caller> callers = wanted.remove(k);
        if (callers != null) again.putAll(callers);
      }
    }
    if (!again.isEmpty()) wantedChanged();
    return List.copyOf(again.values());
  }

  /** Recomputes {@link #wantedMethods} from {@link #wanted}, after it changed. */
  private synchronized void wantedChanged() {
    Set<String> methods = new LinkedHashSet<>();
    for (String k : wanted.keySet()) methods.add(k.substring(k.lastIndexOf('.', k.indexOf('(')) + 1));
    byte[][] pairs = new byte[2 * methods.size()][];
    int i = 0;
    for (String m : methods) {
      int paren = m.indexOf('(');
      pairs[i++] = modifiedUtf8(m.substring(0, paren));
      pairs[i++] = modifiedUtf8(m.substring(paren));
    }
    wantedMethods = pairs;
  }

  /** A string's bytes as a class file's Utf8 entry holds them (JVMS §4.4.7). */
  private static byte[] modifiedUtf8(String s) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length() + 2);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeUTF(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // not from a byte array
    }
    return Arrays.copyOfRange(bytes.toByteArray(), 2, bytes.size());
  }

  /**
   * Whether the class file declares a method that may implement one of {@code methods} (name and descriptor
   * pairs, as modified UTF-8): one with that name and descriptor that is not abstract, static or private.
   */
  private static boolean declaresOneOf(byte[] b, byte[][] methods) {
    int[] cp = ClassFileBytes.constantPool(b);
    int p = ClassFileBytes.methodsAt(b, ClassFileBytes.fieldsAt(b, cp[cp.length - 1]));
    int count = ClassFileBytes.u2(b, p);
    p += 2;
    for (int m = 0; m < count; m++) {
      if ((ClassFileBytes.u2(b, p) & NOT_AN_IMPLEMENTATION) == 0) {
        int name = cp[ClassFileBytes.u2(b, p + 2)];
        int desc = cp[ClassFileBytes.u2(b, p + 4)];
        for (int i = 0; i < methods.length; i += 2) {
          if (ClassFileBytes.utf8Equals(b, name, methods[i]) && ClassFileBytes.utf8Equals(b, desc, methods[i + 1])) {
            return true;
          }
        }
      }
      p = ClassFileBytes.skipAttributes(b, p + 6);
    }
    return false;
  }
}
