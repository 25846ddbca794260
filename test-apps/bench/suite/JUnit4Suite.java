import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;

/**
 * Runs every concrete JUnit 4 test class ({@code *Test}) of a test jar, in name order, and prints one line
 * per failed test (its name and the first line of its message), then the counts; per class, its test count
 * and seconds go to stderr. Exits when done, whatever threads the tests left behind. A single-file program:
 * {@code java -cp JARS JUnit4Suite.java TESTJAR [NAME-FILTER]}.
 */
public final class JUnit4Suite {
  public static void main(String[] args) throws Exception {
    List<String> names = new ArrayList<>();
    try (JarFile jar = new JarFile(args[0])) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String n = e.nextElement().getName();
        if (n.endsWith("Test.class") && !n.contains("$")) names.add(n.replace('/', '.').substring(0, n.length() - 6));
      }
    }
    Collections.sort(names);
    String filter = args.length > 1 ? args[1] : "";
    int runs = 0;
    int failures = 0;
    for (String name : names) {
      if (!name.contains(filter)) continue;
      Class<?> c;
      try {
        c = Class.forName(name);
      } catch (Throwable t) {
        continue;
      }
      if (Modifier.isAbstract(c.getModifiers())) continue;
      long start = System.nanoTime();
      Result r = new JUnitCore().run(Request.aClass(c));
      runs += r.getRunCount();
      for (Failure f : r.getFailures()) {
        failures++;
        System.out.println("FAIL " + f.getDescription().getDisplayName() + " : " + String.valueOf(f.getMessage()).split("\n")[0]);
      }
      System.err.printf("%s %d %.1fs%n", name, r.getRunCount(), (System.nanoTime() - start) / 1e9);
    }
    System.out.println("runs " + runs + " failures " + failures);
    System.exit(0);
  }
}
