package io.looplift.analyzer;

import java.util.List;
import java.util.stream.Stream;

/**
 * Which classes' methods the analyzer does not inline, by package prefix of their internal names. The one
 * place for these lists: the pre-scan, which decides at class loading which loops to analyze at once, must
 * expect rejected exactly the calls the analyzer rejects, or a loop it defers could have been offloaded.
 */
final class Libraries {
  /**
   * The JDK: its methods may be intrinsics, which the JIT replaces with code that does not compute what their
   * bytecode does; LoopLift never reads their code.
   */
  static final List<String> JDK = List.of("java/", "javax/", "jdk/", "sun/", "com/sun/");

  /**
   * The JDK and the Scala and Kotlin runtimes, whose methods on objects (collections, boxes, iterators) are
   * never inlined: loops calling them are rejected without an analysis at class loading, where a large Scala
   * application has thousands of them.
   */
  static final List<String> NO_INSTANCE_INLINING = Stream.concat(JDK.stream(), Stream.of("scala/", "kotlin/")).toList();

  private Libraries() {}

  /** Whether {@code internalName} is a class of the JDK. */
  static boolean isJdk(String internalName) {
    return startsWithAny(internalName, JDK);
  }

  /** Whether methods called on objects of class {@code internalName} may be inlined. */
  static boolean inlinesInstanceMethodsOf(String internalName) {
    return !startsWithAny(internalName, NO_INSTANCE_INLINING);
  }

  private static boolean startsWithAny(String internalName, List<String> prefixes) {
    for (String p : prefixes) {
      if (internalName.startsWith(p)) return true;
    }
    return false;
  }
}
