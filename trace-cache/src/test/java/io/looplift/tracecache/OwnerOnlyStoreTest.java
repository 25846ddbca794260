package io.looplift.tracecache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the owner-only store adds to {@link DiskProgramStoreTest}'s checks: ids, formats and warnings of its own. */
class OwnerOnlyStoreTest {
  private static final String ID = "0123456789abcdef".repeat(4);
  @TempDir Path tmp;
  private final List<String> warnings = new ArrayList<>();

  private OwnerOnlyStore store(int magic) {
    return new OwnerOnlyStore(tmp.resolve("store"), magic, ".x", "nothing is kept", warnings::add);
  }

  @Test
  void anIdThatIsNotADigestIsRejectedBeforeTheDisk() {
    OwnerOnlyStore s = store(1);
    for (String id : List.of("hmac", "../" + ID.substring(3), ID.toUpperCase(), ID + "0")) {
      assertThrows(IllegalArgumentException.class, () -> s.write(id, new byte[1]), id);
      assertThrows(IllegalArgumentException.class, () -> s.read(id), id);
    }
    assertFalse(Files.exists(tmp.resolve("store")));
  }

  @Test
  void anEntryOfAnotherFormatIsRejectedAndDeleted() {
    byte[] bytes = "entry".getBytes(StandardCharsets.UTF_8);
    assertTrue(store(1).write(ID, bytes));
    assertArrayEquals(bytes, store(1).read(ID).orElseThrow());
    assertTrue(store(2).read(ID).isEmpty());
    assertFalse(Files.exists(tmp.resolve("store").resolve(ID + ".x")));
    assertEquals(List.of(), warnings);
  }

  @Test
  void aRefusalSaysWhatIsLost() throws Exception {
    Path dir = tmp.resolve("store");
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertFalse(store(1).write(ID, new byte[1]));
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).contains("is writable by others (rwxrwxrwx); nothing is kept (cache.dir must be"),
        warnings.get(0));
  }
}
