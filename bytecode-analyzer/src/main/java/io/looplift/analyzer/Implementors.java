package io.looplift.analyzer;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
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

  private static String key(String owner, String method) {
    return owner + '.' + method;
  }

  @Override
  public String of(String owner, String method) {
    return known.get(key(owner, method));
  }

  @Override
  public void wanted(String owner, String method, String caller, ClassLoader loader) {
    wanted.computeIfAbsent(key(owner, method), k -> new ConcurrentHashMap<>())
        .putIfAbsent(caller + '@' + System.identityHashCode(loader), new Caller(caller, new WeakReference<>(loader)));
  }

  /**
   * Learns from a class being loaded by {@code loader}: returns the classes whose loops wanted an
   * implementation that it is, to be rewritten again (each once); empty when it is none. Costs a pass over its
   * constant pool's strings for the waited-for methods' names, and nothing while no loop waits.
   */
  public List<Caller> classLoaded(byte[] classfile, ClassLoader loader) {
    if (wanted.isEmpty()) return List.of();
    ClassNode cn = new ClassNode();
    try {
      ClassReader cr = new ClassReader(classfile);
      if (!mentionsWantedName(cr, classfile)) return List.of();
      cr.accept(cn, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    } catch (RuntimeException e) {
      return List.of();
    }
    ClassHierarchy hierarchy = new ClassHierarchy(loader, cn);
    List<String> keys = List.copyOf(wanted.keySet());
    Map<String, Caller> again = new LinkedHashMap<>(); // a class waiting for several of its methods, once
    for (MethodNode m : cn.methods) {
      if ((m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) != 0) continue;
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
    return List.copyOf(again.values());
  }

  /**
   * Whether the class file's constant pool holds the name of a method some loop waits for (a class declaring
   * it must): one pass over the pool's strings, comparing only those of a waited-for name's length.
   */
  private boolean mentionsWantedName(ClassReader cr, byte[] classfile) {
    Set<String> names = new HashSet<>();
    for (String k : wanted.keySet()) names.add(k.substring(k.lastIndexOf('.', k.indexOf('(')) + 1, k.indexOf('(')));
    BitSet lengths = new BitSet();
    for (String n : names) lengths.set(n.length());
    for (int i = 1; i < cr.getItemCount(); i++) {
      int at = cr.getItem(i);
      // A Utf8 entry: tag 1 just before its offset, then its length in bytes.
      if (at == 0 || classfile[at - 1] != 1) continue;
      int length = cr.readUnsignedShort(at);
      if (lengths.get(length) && names.contains(new String(classfile, at + 2, length, StandardCharsets.UTF_8))) {
        return true;
      }
    }
    return false;
  }
}
