package io.looplift.executors.opencl;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding an ICD loader and a driver by reading files, as the dynamic linker and the ICD loader would. */
class OpenClLibrariesTest {
  private static final int X86_64 = 62;

  @TempDir Path dir;

  private OpenClLibraries.Places places(Map<String, String> env, Path cache, Path vendors) {
    return new OpenClLibraries.Places(env, cache, List.of(dir.resolve("default")), vendors, 2, X86_64);
  }

  /** An ELF header of {@code elfClass} and {@code machine}, little-endian, padded to a plausible size. */
  private static Path elf(Path p, int elfClass, int machine) throws IOException {
    byte[] b = new byte[64];
    b[0] = 0x7f;
    b[1] = 'E';
    b[2] = 'L';
    b[3] = 'F';
    b[4] = (byte) elfClass;
    b[5] = 1;
    b[18] = (byte) machine;
    b[19] = (byte) (machine >> 8);
    Files.createDirectories(p.getParent());
    return Files.write(p, b);
  }

  /** A linker cache holding {@code paths} among other strings, as every cache format stores them. */
  private Path cache(String... paths) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes("glibc-ld.so.cache1.1\0\1\2\3libOpenCL.so.1\0libc.so.6\0/lib/libc.so.6\0".getBytes(StandardCharsets.ISO_8859_1));
    for (String p : paths) b.writeBytes((p + "\0").getBytes(StandardCharsets.ISO_8859_1));
    return Files.write(dir.resolve("ld.so.cache"), b.toByteArray());
  }

  private Path vendors(String... icds) throws IOException {
    Path v = Files.createDirectories(dir.resolve("vendors"));
    for (String icd : icds) Files.writeString(v.resolve(icd), "libpocl.so.2\n");
    return v;
  }

  @Test
  void findsTheLoaderTheLinkerCacheListsAndAVendorFile() throws IOException {
    Path lib = elf(dir.resolve("multiarch/libOpenCL.so.1"), 2, X86_64);
    OpenClLibraries.Probe p = OpenClLibraries.probe(places(Map.of(), cache(lib.toString()), vendors("pocl.icd")));
    assertTrue(p.found(), p.description());
    assertTrue(p.description().contains(lib.toString()) && p.description().contains("pocl.icd"), p.description());
  }

  @Test
  void findsTheLoaderOnLdLibraryPathAndInDefaultDirectories() throws IOException {
    Path custom = elf(dir.resolve("custom/libOpenCL.so"), 2, X86_64);
    Map<String, String> env = Map.of("LD_LIBRARY_PATH", "::" + custom.getParent());
    assertTrue(OpenClLibraries.probe(places(env, dir.resolve("none"), vendors("a.icd"))).found());
    Files.delete(custom);
    elf(dir.resolve("default/libOpenCL.so.1"), 2, X86_64);
    assertTrue(OpenClLibraries.probe(places(Map.of(), dir.resolve("none"), vendors("a.icd"))).found());
  }

  /**
   * What {@code no-opencl.sh} leaves behind (the library file replaced by {@code /dev/null}), a library of
   * another architecture or word size, or no ELF object at all: none of them loads, so none of them counts.
   */
  @Test
  void whatCannotBeLoadedIsNoLoader() throws IOException {
    Path hidden = Files.createSymbolicLink(Files.createDirectories(dir.resolve("hidden")).resolve("libOpenCL.so.1"), Path.of("/dev/null"));
    Path arm = elf(dir.resolve("arm/libOpenCL.so.1"), 2, 183);
    Path x86 = elf(dir.resolve("x86/libOpenCL.so.1"), 1, 3);
    Path text = Files.writeString(Files.createDirectories(dir.resolve("text")).resolve("libOpenCL.so"), "INPUT(libOpenCL.so.1)\n");
    OpenClLibraries.Probe p = OpenClLibraries.probe(places(Map.of(), cache(hidden.toString(), arm.toString(), x86.toString(),
        text.toString()), vendors("pocl.icd")));
    assertFalse(p.found());
    assertTrue(p.description().startsWith("no OpenCL ICD loader") && p.description().contains("ocl-icd-libopencl1"), p.description());
  }

  @Test
  void withoutAVendorFileThereIsNoDriver() throws IOException {
    Path lib = elf(dir.resolve("lib/libOpenCL.so.1"), 2, X86_64);
    Path empty = vendors();
    Files.writeString(empty.resolve("notes.txt"), "not an icd");
    OpenClLibraries.Probe p = OpenClLibraries.probe(places(Map.of(), cache(lib.toString()), empty));
    assertFalse(p.found());
    assertTrue(p.description().contains("no *.icd file in " + empty) && p.description().contains("pocl-opencl-icd"), p.description());
    assertFalse(OpenClLibraries.probe(places(Map.of(), cache(lib.toString()), dir.resolve("missing"))).found());
  }

  @Test
  void oclIcdVariablesNameTheDriversInstead() throws IOException {
    Path lib = elf(dir.resolve("lib/libOpenCL.so.1"), 2, X86_64);
    Path cache = cache(lib.toString());
    Path full = vendors("pocl.icd");
    Path empty = Files.createDirectories(dir.resolve("empty-vendors"));
    OpenClLibraries.Probe none = OpenClLibraries.probe(places(Map.of("OCL_ICD_VENDORS", empty.toString()), cache, full));
    assertFalse(none.found());
    assertTrue(none.description().contains("OCL_ICD_VENDORS"), none.description());
    assertFalse(OpenClLibraries.probe(places(Map.of("OCL_ICD_VENDORS", dir + "/no/such/dir"), cache, full)).found());
    assertTrue(OpenClLibraries.probe(places(Map.of("OCL_ICD_VENDORS", full.resolve("pocl.icd").toString()), cache, empty)).found());
    assertTrue(OpenClLibraries.probe(places(Map.of("OCL_ICD_VENDORS", "libpocl.so.2"), cache, empty)).found());
    assertTrue(OpenClLibraries.probe(places(Map.of("OCL_ICD_FILENAMES", "/opt/x/libx.so"), cache, empty)).found());
  }

  /** One fact, one place: the names looked for are the names the pinned JOCL loads, in its order. */
  @Test
  void theLoaderNamesAreJoclsOwn() throws Exception {
    Method candidates = Class.forName("org.jocl.LibInitializer").getDeclaredMethod("createImplementationNameCandidates");
    candidates.setAccessible(true);
    assertEquals(OpenClLibraries.LOADER_NAMES, List.of((String[]) candidates.invoke(null)));
  }

  /** On this machine: wherever the device code finds a device, the check finds OpenCL too. */
  @Test
  void thisMachine() {
    OpenClLibraries.Probe p = OpenClLibraries.probe();
    System.out.println("this machine: " + p.description());
    if (!OpenClTestSupport.inventory().isEmpty()) assertTrue(p.found(), p.description());
    DeviceRequirement.require(p.found(), p.description());
  }
}
