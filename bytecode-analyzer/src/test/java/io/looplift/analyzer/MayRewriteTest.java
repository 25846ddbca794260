package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link ClassRewriter#mayRewrite}, which an attach asks of every class loaded before it: a class file with a
 * loop over arrays may need rewriting, one without cannot, and a class whose file its loader does not give
 * back may.
 */
class MayRewriteTest {
  private final ClassLoader loader = MayRewriteTest.class.getClassLoader();

  @Test
  void aClassWithALoopOverArraysMayNeedRewriting() {
    assertTrue(ClassRewriter.mayRewrite(loader, "io/looplift/analyzer/Shapes"));
  }

  @Test
  void aClassWithoutOneIsLeftAlone() {
    assertFalse(ClassRewriter.mayRewrite(loader, "io/looplift/analyzer/PrescanCell"));
  }

  @Test
  void aClassWhoseFileIsNotGivenBackMay() {
    assertTrue(ClassRewriter.mayRewrite(loader, "io/looplift/analyzer/NoSuchClass"));
  }
}
