package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URL;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link ClassFiles}: a class file is read through its loader once, however many analyses ask for its facts,
 * and each loader has its own; what cannot be read is null; whether a loader gives its classes' files back
 * is asked once per package.
 */
class ClassFilesTest {
  /** A loader that serves this test's class path and counts what it is asked. */
  private static final class CountingLoader extends ClassLoader {
    final AtomicInteger streams = new AtomicInteger();
    final AtomicInteger resources = new AtomicInteger();

    CountingLoader() {
      super(ClassFilesTest.class.getClassLoader());
    }

    @Override
    public InputStream getResourceAsStream(String name) {
      streams.incrementAndGet();
      return super.getResourceAsStream(name);
    }

    @Override
    public URL getResource(String name) {
      resources.incrementAndGet();
      return super.getResource(name);
    }
  }

  private static final String CELL = "io/looplift/analyzer/PrescanCell";

  @Test
  void factsAreReadOncePerLoader() {
    CountingLoader one = new CountingLoader();
    ClassFacts first = ClassFiles.facts(one, CELL);
    assertNotNull(first);
    assertEquals("java/lang/Object", first.superName());
    assertEquals(List.of(new ClassFacts.Field(org.objectweb.asm.Opcodes.ACC_FINAL, "data", "[D")), first.fields());
    assertFalse(first.hasStaticInitializer());
    assertEquals(first, ClassFiles.facts(one, CELL));
    assertEquals(1, one.streams.get(), "read once for the two");

    CountingLoader other = new CountingLoader();
    assertEquals(first, ClassFiles.facts(other, CELL));
    assertEquals(1, other.streams.get(), "another loader reads its own");
  }

  @Test
  void aStaticInitializerIsSeen() {
    ClassFacts shapes = ClassFiles.facts(new CountingLoader(), "io/looplift/analyzer/ClassFilesTest$WithInitializer");
    assertNotNull(shapes);
    assertTrue(shapes.hasStaticInitializer());
  }

  @Test
  void whatCannotBeReadIsNull() {
    CountingLoader loader = new CountingLoader();
    assertNull(ClassFiles.facts(loader, "io/looplift/analyzer/NoSuchClass"));
    assertNull(ClassFiles.facts(loader, "io/looplift/analyzer/NoSuchClass"));
    assertEquals(1, loader.streams.get(), "a miss is remembered too");
  }

  @Test
  void whetherALoaderGivesFilesBackIsAskedOncePerPackage() {
    CountingLoader loader = new CountingLoader();
    assertTrue(ClassFiles.givesBack(loader, CELL));
    assertTrue(ClassFiles.givesBack(loader, "io/looplift/analyzer/PrescanShapes"));
    assertEquals(1, loader.resources.get());
    assertFalse(ClassFiles.givesBack(loader, "org/example/generated/Proxy1"));
    assertEquals(2, loader.resources.get());
    assertFalse(ClassFiles.givesBack(null, CELL), "the bootstrap loader's classes are kept, never read back");
  }

  /** A class with a static initializer. */
  static final class WithInitializer {
    static final long STAMP = System.nanoTime();
  }
}
