package io.looplift.executors.opencl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whether this machine has what OpenCL needs, found by reading files only: nothing is loaded, linked or
 * started. Two things must be there: the ICD loader under a name JOCL loads, where the dynamic linker looks
 * (the directories of {@code LD_LIBRARY_PATH}, every library {@code /etc/ld.so.cache} lists, and the default
 * directories), as an ELF library for this JVM's architecture; and at least one ICD vendor file naming a
 * driver ({@code /etc/OpenCL/vendors/*.icd}, or what {@code OCL_ICD_VENDORS} or {@code OCL_ICD_FILENAMES}
 * name instead).
 *
 * <p>Passing this check does not promise a device: the host process finds out. Failing it means OpenCL
 * cannot work here, and the reason says what to install.
 */
public final class OpenClLibraries {
  /** The names JOCL tries for the ICD loader, in its order (a test holds this to JOCL's own list). */
  static final List<String> LOADER_NAMES = List.of("libOpenCL.so.1", "libOpenCL.so");
  private static final byte[] ELF = {0x7f, 'E', 'L', 'F'};
  private static final int MAX_LD_CACHE = 64 << 20;

  /**
   * What the check found.
   *
   * @param found the loader and a vendor file are both there
   * @param description the loader and vendor files found, or what is missing and what to install
   */
  public record Probe(boolean found, String description) {}

  /**
   * Where the check looks.
   *
   * @param env the environment ({@code LD_LIBRARY_PATH}, {@code OCL_ICD_VENDORS}, {@code OCL_ICD_FILENAMES})
   * @param ldCache the dynamic linker's cache
   * @param defaultDirectories the directories the linker searches without being told
   * @param vendors the ICD loader's default vendor directory
   * @param elfClass {@code 2} for a 64-bit JVM, {@code 1} for a 32-bit one
   * @param elfMachine the ELF machine of this JVM's architecture, or -1 where unknown (not checked then)
   */
  record Places(Map<String, String> env, Path ldCache, List<Path> defaultDirectories, Path vendors, int elfClass,
      int elfMachine) {
    /** This machine's places. */
    static Places here() {
      String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
      String triplet = switch (arch) {
        case "amd64", "x86_64" -> "x86_64-linux-gnu";
        case "aarch64" -> "aarch64-linux-gnu";
        default -> arch + "-linux-gnu";
      };
      int machine = switch (arch) {
        case "amd64", "x86_64" -> 62;
        case "aarch64" -> 183;
        case "ppc64le", "ppc64" -> 21;
        case "s390x" -> 22;
        case "riscv64" -> 243;
        default -> -1;
      };
      List<Path> dirs = new ArrayList<>();
      for (String d : List.of("/lib/" + triplet, "/usr/lib/" + triplet, "/lib64", "/usr/lib64", "/lib", "/usr/lib")) dirs.add(Path.of(d));
      return new Places(System.getenv(), Path.of("/etc/ld.so.cache"), dirs, Path.of("/etc/OpenCL/vendors"),
          "32".equals(System.getProperty("sun.arch.data.model")) ? 1 : 2, machine);
    }
  }

  private OpenClLibraries() {}

  /** Checks this machine. Never throws. */
  public static Probe probe() {
    return probe(Places.here());
  }

  static Probe probe(Places places) {
    Path loader = loader(places);
    if (loader == null) {
      return new Probe(false, "no OpenCL ICD loader: no loadable " + String.join(" or ", LOADER_NAMES)
          + " where the dynamic linker looks (install ocl-icd-libopencl1 or your vendor's OpenCL runtime)");
    }
    Probe vendors = vendors(places);
    return vendors.found() ? new Probe(true, "OpenCL ICD loader " + loader + ", " + vendors.description()) : vendors;
  }

  /** The first loader library found, trying JOCL's names in JOCL's order; null when there is none. */
  private static Path loader(Places places) {
    List<Path> cached = cachedPaths(places.ldCache());
    String ldPath = places.env().get("LD_LIBRARY_PATH");
    for (String name : LOADER_NAMES) {
      Set<Path> candidates = new LinkedHashSet<>();
      if (ldPath != null) {
        for (String dir : ldPath.split(":")) {
          if (!dir.isEmpty()) candidates.add(Path.of(dir, name));
        }
      }
      for (Path p : cached) {
        if (p.getFileName().toString().equals(name)) candidates.add(p);
      }
      for (Path dir : places.defaultDirectories()) candidates.add(dir.resolve(name));
      for (Path p : candidates) {
        if (isLibrary(p, places)) return p;
      }
    }
    return null;
  }

  /**
   * The loader paths {@code ld.so.cache} lists. Every format of the cache stores each library's full path as
   * a NUL-terminated string, so a scan for them needs no knowledge of the format.
   */
  static List<Path> cachedPaths(Path ldCache) {
    List<Path> paths = new ArrayList<>();
    try {
      if (!Files.isRegularFile(ldCache) || Files.size(ldCache) > MAX_LD_CACHE) return paths;
      byte[] bytes = Files.readAllBytes(ldCache);
      int start = 0;
      for (int k = 0; k <= bytes.length; k++) {
        if (k < bytes.length && bytes[k] != 0) continue;
        if (k > start && bytes[start] == '/') {
          String s = new String(bytes, start, k - start, StandardCharsets.ISO_8859_1);
          String name = s.substring(s.lastIndexOf('/') + 1);
          if (LOADER_NAMES.contains(name)) paths.add(Path.of(s));
        }
        start = k + 1;
      }
    } catch (IOException | RuntimeException e) {
      // No cache to go by: the other places still count.
    }
    return paths;
  }

  /**
   * True when {@code p} is a readable regular file (a device node bound over a library is not) holding an
   * ELF object of this JVM's class and machine.
   */
  static boolean isLibrary(Path p, Places places) {
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) return false;
    byte[] head;
    try (InputStream in = Files.newInputStream(p)) {
      head = in.readNBytes(20);
    } catch (IOException | RuntimeException e) {
      return false;
    }
    if (head.length < 20) return false;
    for (int k = 0; k < ELF.length; k++) {
      if (head[k] != ELF[k]) return false;
    }
    if (head[4] != places.elfClass()) return false;
    if (places.elfMachine() < 0) return true;
    boolean little = head[5] == 1;
    int machine = little ? (head[18] & 0xff) | (head[19] & 0xff) << 8 : (head[18] & 0xff) << 8 | (head[19] & 0xff);
    return machine == places.elfMachine();
  }

  /** What names the drivers: {@code OCL_ICD_FILENAMES}, {@code OCL_ICD_VENDORS}, or the vendor directory. */
  private static Probe vendors(Places places) {
    String filenames = places.env().get("OCL_ICD_FILENAMES");
    if (filenames != null && !filenames.isBlank()) return new Probe(true, "drivers from OCL_ICD_FILENAMES " + filenames);
    String override = places.env().get("OCL_ICD_VENDORS");
    if (override != null && !override.isBlank()) {
      Path p = Path.of(override);
      if (Files.isDirectory(p)) return icdFiles(p, "no OpenCL driver: no *.icd file in " + p + " (OCL_ICD_VENDORS)");
      // ocl-icd also takes one .icd file, or a library name for the dynamic linker, here.
      if (Files.isRegularFile(p) || !override.contains("/")) return new Probe(true, "driver " + override + " (OCL_ICD_VENDORS)");
      return new Probe(false, "no OpenCL driver: OCL_ICD_VENDORS names " + override + ", which does not exist");
    }
    return icdFiles(places.vendors(), "no OpenCL driver: no *.icd file in " + places.vendors()
        + " (install one, such as pocl-opencl-icd for CPUs or your GPU vendor's OpenCL driver)");
  }

  private static Probe icdFiles(Path dir, String none) {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.icd")) {
      for (Path f : files) {
        if (Files.isRegularFile(f) && Files.isReadable(f)) names.add(f.getFileName().toString());
      }
    } catch (IOException | RuntimeException e) {
      return new Probe(false, none);
    }
    return names.isEmpty() ? new Probe(false, none)
        : new Probe(true, "vendor files " + String.join(", ", names.stream().sorted().toList()) + " in " + dir);
  }
}
