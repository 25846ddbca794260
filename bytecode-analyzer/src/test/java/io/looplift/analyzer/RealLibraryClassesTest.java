package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cern.colt.matrix.impl.DenseDoubleMatrix1D;
import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.commons.math3.util.FastMath;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every class of a real library from Maven Central (Commons Math 3.6.1, Colt 1.2.0, EJML 0.46.1's two jars),
 * rewritten with every loop analyzed, as the agent would at load time: no loop's analysis fails with an
 * internal error, and the JVM's verifier accepts every class the rewriter changed. (One loop over the rows
 * of a {@code String[][]} once made the analysis of Smile's {@code MathEx} throw, and all 152 loops of that
 * class stayed as they were, unreported.)
 */
class RealLibraryClassesTest {
  /** Defines the library's classes from their rewritten bytes, and leaves every other class to its parent. */
  private static final class RewritingLoader extends ClassLoader {
    private final Map<String, byte[]> classes;
    private final ClassRewriter rewriter;
    int rewritten;

    RewritingLoader(Map<String, byte[]> classes, ClassRewriter rewriter) {
      super(RealLibraryClassesTest.class.getClassLoader());
      this.classes = classes;
      this.rewriter = rewriter;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c != null) return c;
        byte[] original = classes.get(name);
        if (original == null) return super.loadClass(name, resolve);
        byte[] out = rewriter.rewrite(original, this);
        if (out != null) rewritten++;
        byte[] b = out != null ? out : original;
        return defineClass(name, b, 0, b.length);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(classes = {FastMath.class, DenseDoubleMatrix1D.class, DMatrixRMaj.class, CommonOps_DDRM.class})
  void everyLoopOfTheLibraryIsAnalyzedAndEveryRewrittenClassVerifies(Class<?> member) throws Exception {
    Map<String, byte[]> classes = classesOfJar(Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI()));
    List<LoopSite> sites = new ArrayList<>();
    SiteRegistry registry = new SiteRegistry() {
      @Override
      public synchronized int register(LoopSite site) {
        sites.add(site);
        return sites.size() - 1;
      }

      @Override
      public void discard(int siteId, String reason) {}

      @Override
      public int registerRegion(RegionSite region) {
        return 0;
      }
    };
    RewritingLoader loader = new RewritingLoader(classes, new ClassRewriter(new RewriteOptions(65536), registry));
    List<String> rejectedByTheVerifier = new ArrayList<>();
    int linked = 0;
    for (String name : classes.keySet()) {
      try {
        // Reflection on its methods links the class, which verifies it, without initializing it.
        Class.forName(name, false, loader).getDeclaredMethods();
        linked++;
      } catch (VerifyError | ClassFormatError e) {
        rejectedByTheVerifier.add(name + ": " + e.getMessage());
      } catch (LinkageError e) {
        // A class needing an optional dependency that is not on the class path: not the rewrite's doing.
      }
    }
    assertEquals(List.of(), rejectedByTheVerifier);
    assertTrue(linked >= 0.9 * classes.size(), linked + " of " + classes.size() + " classes linked");
    List<String> internal = sites.stream().filter(s -> !s.accepted() && s.reason().contains("internal error"))
        .map(s -> s.className() + "." + s.method() + ":" + s.line() + " " + s.reason()).toList();
    assertEquals(List.of(), internal);
    long accepted = sites.stream().filter(LoopSite::accepted).count();
    assertTrue(loader.rewritten >= 10 && accepted >= 20, loader.rewritten + " classes rewritten, " + accepted
        + " of " + sites.size() + " loops accepted");
  }

  private static Map<String, byte[]> classesOfJar(Path jar) throws Exception {
    Map<String, byte[]> classes = new LinkedHashMap<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (JarEntry e : Collections.list(file.entries())) {
        String n = e.getName();
        if (!n.endsWith(".class") || n.endsWith("module-info.class") || n.endsWith("package-info.class")) continue;
        try (var in = file.getInputStream(e)) {
          classes.put(n.substring(0, n.length() - ".class".length()).replace('/', '.'), in.readAllBytes());
        }
      }
    }
    return classes;
  }
}
