package io.looplift.analyzer;

import io.looplift.bridge.LoopBridge;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;

/**
 * A pass over the raw bytes of a class file that tells which of its methods hold a loop the analyzer must
 * look at, so that every other class is passed over without building anything, and which of those loops
 * may be offloaded at all.
 *
 * <p>A method is a <em>candidate</em> when an element of a primitive array, or a row of an array of arrays,
 * is read or written inside a loop: between the target and the source of a backward branch (a jump, or a
 * switch case whose target comes first), by the method itself or by a method of the same class it
 * calls there, directly or through other such calls (the analyzer inlines those helpers). Every instruction
 * on a cycle of the control-flow graph lies in such a span, so every natural loop with an array access is
 * covered; a loop without one cannot be offloaded and is not looked at. A method of another class that the
 * analyzer may inline (see {@link #inlinesMethodsOf}) may touch arrays too ({@code m.get(i)} of a matrix class):
 * a loop calling one is a candidate when nothing else in it is rejected. A class that already calls
 * {@code LoopBridge} was rewritten before and has no candidates.
 *
 * <p>A candidate is <em>offloadable</em> when such a span also holds none of the instructions the analyzer
 * rejects wherever they are in a loop (a call it cannot inline, an allocation, a field write, a monitor, a
 * switch...; a return or {@code athrow} in the span, or a branch out of it besides the loop's exit test, is an
 * early exit; a field read of an element of an array of references, which only an object has), whose exit test
 * compares ints (not references, nor the result of comparing longs or floating-point values: that loop is not
 * counted), and when it touches a primitive element or calls a method that may touch arrays — other than
 * on objects read from an array of references (see {@link #backwardBranch}). Compilers lay a loop out as one
 * span that holds its body and whatever leaves it, so the loops of the other candidates are all rejected:
 * they are analyzed only to give the report their reasons, which can wait (see {@link ClassRewriter}).
 *
 * <p>This reads the class file format (JVMS §4) directly rather than through ASM's {@code ClassReader}: it
 * decodes no string and allocates only a few small arrays per class, several times cheaper than even a
 * visitor that ignores everything, and it runs for every class the program loads. Not thread-safe; one
 * instance per class file.
 */
final class LoopPrescan {
  private static final byte[] BRIDGE = LoopBridge.INTERNAL_NAME.getBytes(StandardCharsets.US_ASCII);

  // What scanCode does with an instruction, by opcode.
  private static final int GOTO = 0xa7;
  private static final int GOTO_W = 0xc8;
  private static final int GETFIELD = 0xb4;
  private static final int IFEQ = 0x99;
  private static final int IFLE = 0x9e;
  private static final int IF_ICMPEQ = 0x9f;
  private static final int IF_ICMPLE = 0xa4;
  private static final int LCMP = 0x94;
  private static final int DCMPG = 0x98;
  private static final byte OTHER = 0;
  private static final byte ARRAY = 1; // a primitive element is read or written
  private static final byte ROW = 9; // an element of an array of references is read (a row, or an object)
  private static final byte LENGTH_OF = 10; // arraylength
  private static final byte BRANCH = 2; // a 16-bit branch offset follows
  private static final byte BRANCH_WIDE = 3; // a 32-bit branch offset follows
  private static final byte INVOKESTATIC = 4;
  private static final byte TABLESWITCH = 5;
  private static final byte LOOKUPSWITCH = 6;
  private static final byte WIDE = 7;
  private static final byte INVOKE_ON_OBJECT = 8; // invokevirtual, invokespecial, invokeinterface: see inlinesMethodsOf
  private static final byte[][] LIBRARIES = Libraries.NO_INSTANCE_INLINING.stream()
      .map(p -> p.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
  private static final byte[] KIND = new byte[256];

  /** The length of each instruction with a fixed length, by opcode; 0 otherwise, -1 for no instruction. */
  private static final byte[] LENGTH = new byte[256];

  /**
   * The instructions the analyzer rejects wherever they are in a loop: {@code aconst_null},
   * {@code aastore}, the switches, the returns, {@code putstatic}, {@code putfield}, every
   * invoke but {@code invokestatic} (and {@code invokevirtual}, {@code invokespecial} and
   * {@code invokeinterface} of a method that
   * returns a number or nothing, of this class or of one outside the JDK, Scala and Kotlin: the analyzer may
   * inline those), {@code new}, {@code newarray}, {@code anewarray}, {@code athrow},
   * {@code checkcast}, {@code instanceof}, the monitors and {@code multianewarray}. Besides these, any call of
   * a method that returns a reference is rejected (see {@link #returnsReference}).
   */
  private static final boolean[] REJECTED = new boolean[256];

  static {
    Arrays.fill(LENGTH, (byte) -1);
    Arrays.fill(LENGTH, 0x00, 0xc4, (byte) 1); // most opcodes up to monitorexit have no operand
    for (int op : new int[] {0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0xa9, 0xbc}) LENGTH[op] = 2;
    for (int op : new int[] {0x11, 0x13, 0x14, 0x84, 0xbb, 0xbd, 0xc0, 0xc1}) LENGTH[op] = 3;
    Arrays.fill(LENGTH, 0x36, 0x3b, (byte) 2); // istore..astore
    Arrays.fill(LENGTH, 0x99, 0xa9, (byte) 3); // ifeq..jsr
    Arrays.fill(LENGTH, 0xb2, 0xb9, (byte) 3); // getstatic..invokestatic
    LENGTH[0xb9] = 5; // invokeinterface
    LENGTH[0xba] = 5; // invokedynamic
    LENGTH[0xaa] = 0; // tableswitch
    LENGTH[0xab] = 0; // lookupswitch
    LENGTH[0xc4] = 0; // wide
    LENGTH[0xc5] = 4; // multianewarray
    LENGTH[0xc6] = 3; // ifnull
    LENGTH[0xc7] = 3; // ifnonnull
    LENGTH[0xc8] = 5; // goto_w
    LENGTH[0xc9] = 5; // jsr_w

    Arrays.fill(KIND, 0x2e, 0x36, ARRAY); // iaload..saload
    KIND[0x32] = ROW; // aaload
    KIND[0xbe] = LENGTH_OF; // arraylength
    Arrays.fill(KIND, 0x4f, 0x57, ARRAY); // iastore..sastore
    KIND[0x53] = OTHER; // aastore: an object array, never offloaded
    Arrays.fill(KIND, 0x99, 0xa9, BRANCH); // if*, goto, jsr
    KIND[0xc6] = BRANCH;
    KIND[0xc7] = BRANCH;
    KIND[0xc8] = BRANCH_WIDE;
    KIND[0xc9] = BRANCH_WIDE;
    KIND[0xb8] = INVOKESTATIC;
    KIND[0xb6] = INVOKE_ON_OBJECT;
    KIND[0xb7] = INVOKE_ON_OBJECT;
    KIND[0xb9] = INVOKE_ON_OBJECT;
    KIND[0xaa] = TABLESWITCH;
    KIND[0xab] = LOOKUPSWITCH;
    KIND[0xc4] = WIDE;

    for (int op : new int[] {0x01, 0x53, 0xaa, 0xab, 0xb3, 0xb5, 0xba, 0xbb, 0xbc, 0xbd,
        0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc5}) {
      REJECTED[op] = true;
    }
    Arrays.fill(REJECTED, 0xac, 0xb2, true); // ireturn..return
  }

  private final byte[] b;
  /** Offset of each constant pool entry's tag byte, by index (see {@link ClassFileBytes#constantPool}). */
  private int[] cp;
  private int thisName;

  // Per method, by position in the class file.
  private int[] nameIndex;
  private int[] descIndex;
  private final BitSet candidates = new BitSet();
  private final BitSet offloadable = new BitSet();
  private final BitSet touchesArrays = new BitSet();

  // Calls of methods of this class, in order: the calling method, the NameAndType entry, the
  // offset of the call, and whether a backward branch of the caller spans it (with no rejected instruction).
  private int calls;
  private int[] callMethod = new int[0];
  private int[] callNat = new int[0];
  private int[] callPc = new int[0];
  private final BitSet callInLoop = new BitSet();
  private final BitSet callInCleanLoop = new BitSet();
  private int[] callee;
  private boolean callsBridge;
  // The method being scanned: the offset of the last primitive element access so far, of the last aaload, of
  // the last arraylength, of the last call of another class's method that the analyzer may inline (static, and
  // on an object), of the last instruction in REJECTED, and the first of its calls.
  private int lastElement;
  private int lastRow;
  private int lastLength;
  private int lastForeignStatic;
  private int lastForeignOnObject;
  private int lastRejected;
  private int firstCall;
  // The forward branches of the method being scanned so far, by offset and target, and whether each compares
  // ints (see countedTest): those leaving a loop's span.
  private int forward;
  private int[] forwardPc = new int[16];
  private int[] forwardTarget = new int[16];
  private boolean[] forwardCounted = new boolean[16];

  private LoopPrescan(byte[] classfile) {
    this.b = classfile;
  }

  /**
   * Scans {@code classfile}.
   *
   * @throws IllegalArgumentException or {@link IndexOutOfBoundsException} when the bytes are not a class
   *     file this scan can read (the class is then left as it is)
   */
  static LoopPrescan of(byte[] classfile) {
    LoopPrescan scan = new LoopPrescan(classfile);
    scan.scan();
    return scan;
  }

  /**
   * The candidate methods, by their position in the class file's method table (the order in which
   * {@code ClassReader} visits them); empty when the class has none.
   */
  BitSet candidates() {
    return candidates;
  }

  /** The internal name of the class. */
  String className() {
    return ClassFileBytes.utf8(b, cp[thisName]);
  }

  /** The candidates with a loop that may be offloaded, by position. */
  BitSet offloadable() {
    return offloadable;
  }

  /**
   * What the analysis of {@code methods} reads: those methods and the methods of this class they
   * call, directly or through each other (helpers the analyzer may inline), by position.
   */
  BitSet methodsToRead(BitSet methods) {
    BitSet read = (BitSet) methods.clone();
    if (read.isEmpty() || calls == 0) return read;
    int[] targets = callees();
    for (boolean grew = true; grew; ) {
      grew = false;
      for (int k = 0; k < calls; k++) {
        if (targets[k] >= 0 && read.get(callMethod[k]) && !read.get(targets[k])) {
          read.set(targets[k]);
          grew = true;
        }
      }
    }
    return read;
  }

  private void scan() {
    cp = ClassFileBytes.constantPool(b);
    int p = cp[cp.length - 1];
    thisName = u2(cp[u2(p + 2)] + 1);
    p = ClassFileBytes.methodsAt(b, ClassFileBytes.fieldsAt(b, p));
    int methods = u2(p);
    p += 2;
    nameIndex = new int[methods];
    descIndex = new int[methods];
    for (int m = 0; m < methods; m++) {
      nameIndex[m] = u2(p + 2);
      descIndex[m] = u2(p + 4);
      int code = ClassFileBytes.codeAt(b, cp, p);
      if (code >= 0) scanCode(m, code + 14, u4(code + 10));
      p = ClassFileBytes.skipAttributes(b, p + 6);
      if (callsBridge) {
        candidates.clear();
        offloadable.clear();
        return;
      }
    }
    resolveHelpers();
  }

  /** Scans the bytecode of method {@code m}, {@code length} bytes from offset {@code start}. */
  private void scanCode(int m, int start, int length) {
    firstCall = calls;
    lastElement = lastRow = lastLength = lastForeignStatic = lastForeignOnObject = lastRejected = -1;
    forward = 0;
    int previous = -1;
    for (int pc = 0; pc < length; ) {
      int at = start + pc;
      int op = b[at] & 0xFF;
      int size = LENGTH[op];
      if (REJECTED[op]) lastRejected = pc;
      switch (KIND[op]) {
        case ARRAY -> lastElement = pc;
        case ROW -> {
          lastRow = pc;
          // A field of the element: an object's, never a row's.
          if (pc + 1 < length && (b[at + 1] & 0xFF) == GETFIELD) lastRejected = pc;
        }
        case LENGTH_OF -> lastLength = pc;
        case BRANCH -> branch(m, op, previous, pc, pc + s2(at + 1));
        case BRANCH_WIDE -> branch(m, op, previous, pc, pc + u4(at + 1));
        case INVOKESTATIC -> {
          int ref = u2(at + 1);
          boolean own = call(m, pc, ref);
          if (returnsReference(ref)) lastRejected = pc;
          else if (!own && inlinesMethodsOf(ref)) lastForeignStatic = pc;
        }
        case INVOKE_ON_OBJECT -> {
          int ref = u2(at + 1);
          boolean own = call(m, pc, ref);
          if (returnsReference(ref) || !own && !inlinesMethodsOf(ref)) lastRejected = pc;
          else if (!own) lastForeignOnObject = pc;
        }
        case TABLESWITCH, LOOKUPSWITCH -> {
          int table = start + ((pc + 4) & ~3); // operands are aligned to 4 bytes from the start of the code
          backwardBranch(m, pc, pc + u4(table), false);
          boolean range = op == 0xaa;
          int cases = range ? u4(table + 8) - u4(table + 4) + 1 : u4(table + 4);
          int stride = range ? 4 : 8; // a tableswitch lists offsets, a lookupswitch (key, offset) pairs
          for (int k = 0; k < cases; k++) {
            backwardBranch(m, pc, pc + u4(table + 12 + stride * k), false);
          }
          size = table + (range ? 12 : 8) + stride * cases - at;
        }
        case WIDE -> size = (b[at + 1] & 0xFF) == 0x84 ? 6 : 4; // iinc has two wide operands, the others one
        default -> { }
      }
      if (size <= 0) throw new IllegalArgumentException("unknown opcode " + op);
      previous = op;
      pc += size;
    }
    if (lastElement >= 0 || lastRow >= 0) touchesArrays.set(m);
  }

  /**
   * A jump or conditional branch ({@code op}, after an instruction {@code previous}) of method {@code m} at
   * offset {@code pc} to {@code target}: a forward one is noted, for the loops whose span it leaves; a backward
   * one closes a loop's span, which is not clean when it holds more exits than its loop test's, or a test that
   * does not compare ints (see {@link #exitsOnlyByItsCountedTest}).
   */
  private void branch(int m, int op, int previous, int pc, int target) {
    if (target > pc) {
      if (forward == forwardPc.length) {
        forwardPc = Arrays.copyOf(forwardPc, 2 * forward);
        forwardTarget = Arrays.copyOf(forwardTarget, 2 * forward);
        forwardCounted = Arrays.copyOf(forwardCounted, 2 * forward);
      }
      forwardPc[forward] = pc;
      forwardCounted[forward] = countedTest(op, previous);
      forwardTarget[forward++] = target;
      return;
    }
    boolean unconditional = op == GOTO || op == GOTO_W;
    backwardBranch(m, pc, target, !exitsOnlyByItsCountedTest(target, pc, unconditional ? -1 : op, previous));
  }

  /**
   * True when the only branch leaving the span from {@code start} to the backward branch at {@code end} is
   * its loop's exit test, and that test compares ints: the backward branch itself ({@code op}, after
   * {@code previous}) when it is conditional, with no branch leaving the span; or, when it is an unconditional
   * jump back to a test at the top ({@code op} -1), the one branch that leaves. A {@code break}, or a second exit
   * test ({@code i < n && a[i] != 0}), is an early exit, which the analyzer rejects, as it rejects a loop whose
   * test compares anything but ints.
   */
  private boolean exitsOnlyByItsCountedTest(int start, int end, int op, int previous) {
    int leaving = 0;
    boolean counted = op < 0 || countedTest(op, previous);
    for (int k = forward - 1; k >= 0 && forwardPc[k] >= start; k--) {
      if (forwardTarget[k] > end) {
        leaving++;
        counted = forwardCounted[k];
      }
    }
    return leaving <= (op < 0 ? 1 : 0) && counted;
  }

  /**
   * True when conditional branch {@code op}, after an instruction {@code previous}, compares ints: two
   * ({@code if_icmp<cond>}), or one with zero ({@code if<cond>}) unless that int is what {@code lcmp},
   * {@code fcmp<op>} or {@code dcmp<op>} made of two longs or floating-point values. Not references.
   */
  private static boolean countedTest(int op, int previous) {
    if (op >= IF_ICMPEQ && op <= IF_ICMPLE) return true;
    return op >= IFEQ && op <= IFLE && !(previous >= LCMP && previous <= DCMPG);
  }

  /**
   * A branch of method {@code m} at offset {@code pc} to {@code target}: when it goes backward, the code
   * in between is a loop (or part of one), which is not clean when it holds a rejected instruction or an
   * {@code earlyExit}; the calls made there since {@link #firstCall} are calls from a loop.
   *
   * <p>The loop is a candidate when it accesses an array or calls another class's method that may touch
   * arrays. It is offloadable when clean and it accesses a primitive element, calls a static method of another
   * class that may touch arrays, or, reading no element of an array of references, calls such a method on an
   * object ({@code m.get(i)}); reading rows, it may also be a reduction over their lengths. Not when its only
   * array accesses are {@code aaload}s with calls on objects: a row is offloaded through its elements, its
   * length or a helper it is passed to, and an object read from an array ({@code for (Feature f : features)
   * mask |= f.mask()}) is rejected wherever it is.
   */
  private void backwardBranch(int m, int pc, int target, boolean earlyExit) {
    if (target > pc) return;
    boolean clean = !earlyExit && lastRejected < target;
    boolean foreign = lastForeignStatic >= target || lastForeignOnObject >= target;
    if (lastElement >= target || lastRow >= target || clean && foreign) {
      candidates.set(m);
      boolean onObject = lastForeignOnObject >= target;
      boolean elements = lastElement >= target || lastForeignStatic >= target
          || (lastRow >= target ? lastLength >= target && !onObject : onObject);
      if (clean && elements) offloadable.set(m);
    }
    for (int k = calls - 1; k >= firstCall && callPc[k] >= target; k--) {
      callInLoop.set(k);
      if (clean) callInCleanLoop.set(k);
    }
  }

  /**
   * Notes a call of a method of this class; a call of the bridge marks the class as rewritten. Returns
   * whether the method called is this class's.
   */
  private boolean call(int m, int pc, int ref) {
    int owner = u2(cp[u2(cp[ref] + 1)] + 1);
    if (utf8Equals(owner, BRIDGE)) callsBridge = true;
    if (!sameUtf8(owner, thisName)) return false;
    if (calls == callPc.length) {
      int n = Math.max(8, 2 * calls);
      callMethod = Arrays.copyOf(callMethod, n);
      callNat = Arrays.copyOf(callNat, n);
      callPc = Arrays.copyOf(callPc, n);
    }
    callMethod[calls] = m;
    callNat[calls] = u2(cp[ref] + 3);
    callPc[calls] = pc;
    calls++;
    return true;
  }

  /**
   * Adds the methods that call, from a loop, a helper of this class that touches arrays itself or through
   * the helpers it calls.
   */
  private void resolveHelpers() {
    if (callInLoop.isEmpty()) return;
    int[] targets = callees();
    for (boolean grew = true; grew; ) {
      grew = false;
      for (int k = 0; k < calls; k++) {
        if (targets[k] >= 0 && touchesArrays.get(targets[k]) && !touchesArrays.get(callMethod[k])) {
          touchesArrays.set(callMethod[k]);
          grew = true;
        }
      }
    }
    for (int k = callInLoop.nextSetBit(0); k >= 0; k = callInLoop.nextSetBit(k + 1)) {
      if (targets[k] < 0 || !touchesArrays.get(targets[k])) continue;
      candidates.set(callMethod[k]);
      if (callInCleanLoop.get(k)) offloadable.set(callMethod[k]);
    }
  }

  /** For each call of a method of this class, the position of the method it calls, or -1. */
  private int[] callees() {
    if (callee == null) {
      callee = new int[calls];
      for (int k = 0; k < calls; k++) callee[k] = method(callNat[k]);
    }
    return callee;
  }

  /**
   * Whether the analyzer may inline methods of the class that Methodref entry {@code ref} names (one that
   * returns a number or nothing, see {@link #returnsReference}): a class whose methods on objects it inlines
   * ({@link Libraries#inlinesInstanceMethodsOf}; never the JDK's).
   */
  private boolean inlinesMethodsOf(int ref) {
    int owner = u2(cp[u2(cp[ref] + 1)] + 1);
    for (byte[] prefix : LIBRARIES) {
      if (startsWith(owner, prefix)) return false;
    }
    return true;
  }

  /**
   * Whether the method that Methodref entry {@code ref} names returns a reference (an object or an array):
   * the analyzer inlines only helpers that return a number or nothing, and turns into IR only JDK methods from
   * numbers to a number, so a loop that makes such a call, of whatever class, is always rejected.
   */
  private boolean returnsReference(int ref) {
    int desc = u2(cp[u2(cp[ref] + 3)] + 3);
    int length = u2(cp[desc] + 1);
    byte last = b[cp[desc] + 3 + length - 1]; // V, a primitive, or the ';' ending a type (an array's too)
    return last == ';' || b[cp[desc] + 3 + length - 2] == '[';
  }

  private boolean startsWith(int utf8, byte[] ascii) {
    int length = u2(cp[utf8] + 1);
    return length >= ascii.length && Arrays.equals(b, cp[utf8] + 3, cp[utf8] + 3 + ascii.length, ascii, 0, ascii.length);
  }

  /** The method of this class with the name and descriptor of NameAndType entry {@code nat}, or -1. */
  private int method(int nat) {
    int name = u2(cp[nat] + 1);
    int desc = u2(cp[nat] + 3);
    // Compilers share one Utf8 entry per string, so the method is usually found by its indices alone (a
    // class declares one method per name and descriptor); strings are compared only when that fails.
    for (int m = 0; m < nameIndex.length; m++) {
      if (name == nameIndex[m] && desc == descIndex[m]) return m;
    }
    for (int m = 0; m < nameIndex.length; m++) {
      if (sameUtf8(name, nameIndex[m]) && sameUtf8(desc, descIndex[m])) return m;
    }
    return -1;
  }

  private boolean sameUtf8(int i, int j) {
    if (i == j) return true;
    int li = u2(cp[i] + 1);
    return li == u2(cp[j] + 1) && Arrays.equals(b, cp[i] + 3, cp[i] + 3 + li, b, cp[j] + 3, cp[j] + 3 + li);
  }

  private boolean utf8Equals(int i, byte[] ascii) {
    return ClassFileBytes.utf8Equals(b, cp[i], ascii);
  }

  private int u2(int p) {
    return ClassFileBytes.u2(b, p);
  }

  private int s2(int p) {
    return (short) u2(p);
  }

  private int u4(int p) {
    return ClassFileBytes.u4(b, p);
  }
}
