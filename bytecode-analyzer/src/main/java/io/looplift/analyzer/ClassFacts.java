package io.looplift.analyzer;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * What the analyzer needs to know of a class it does not analyze: its access flags, supertypes, fields and
 * whether it has a static initializer. Immutable.
 *
 * @param interfaces internal names of the interfaces it implements (or extends)
 * @param superName internal name of its superclass; null for {@code java/lang/Object}
 */
record ClassFacts(String name, int access, String superName, List<String> interfaces, List<Field> fields,
    boolean hasStaticInitializer) {

  /** A field's access flags, name and descriptor. */
  record Field(int access, String name, String desc) {}

  boolean isInterface() {
    return (access & Opcodes.ACC_INTERFACE) != 0;
  }

  boolean isPublic() {
    return (access & Opcodes.ACC_PUBLIC) != 0;
  }

  /** The facts of a class already parsed. */
  static ClassFacts of(ClassNode cn) {
    List<Field> fields = new ArrayList<>(cn.fields.size());
    for (FieldNode f : cn.fields) fields.add(new Field(f.access, f.name, f.desc));
    boolean clinit = false;
    for (MethodNode m : cn.methods) clinit |= m.name.equals("<clinit>");
    return new ClassFacts(cn.name, cn.access, cn.superName, List.copyOf(cn.interfaces), List.copyOf(fields), clinit);
  }

  /**
   * Reads the facts of a class file, decoding nothing of its methods but their names.
   *
   * @throws IllegalArgumentException (or another runtime exception of ASM's) for bytes that are not a class file
   */
  static ClassFacts parse(byte[] classfile) {
    Builder b = new Builder();
    new ClassReader(classfile).accept(b, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return new ClassFacts(b.name, b.access, b.superName, b.interfaces, List.copyOf(b.fields), b.clinit);
  }

  private static final class Builder extends ClassVisitor {
    String name;
    int access;
    String superName;
    List<String> interfaces = List.of();
    final List<Field> fields = new ArrayList<>();
    boolean clinit;

    Builder() {
      super(Opcodes.ASM9);
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
      this.name = name;
      this.access = access;
      this.superName = superName;
      this.interfaces = interfaces == null ? List.of() : List.of(interfaces);
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
      fields.add(new Field(access, name, descriptor));
      return null;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
      clinit |= name.equals("<clinit>");
      return null;
    }
  }
}
