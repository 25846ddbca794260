package io.looplift.executors.select;

import io.looplift.tracecache.OwnerOnlyStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The measurements of kernels on disk, one file per kernel in an {@link OwnerOnlyStore} (owner-only,
 * authenticated, as the program cache), named by {@link KernelKey#storeId()}: the kernel's shape and class
 * names. A file whose record does not match (another LoopLift version, core count or class file, or one that
 * cannot be read) reads as nothing and is replaced by the next write. Thread-safe.
 *
 * <p>A record, after the store's envelope, in {@link DataOutputStream} encoding: the format number; the
 * LoopLift version; the core count; the launches that overlapped at most; the shape; the classes (count, then name
 * and hash of each); the candidates
 * (count, then of each: name, device, whether it failed and why, its points: count, then size class,
 * iterations, work, nanoseconds and transfer nanoseconds of each; its samples, as its points; and whether it
 * was measured beside other launches).
 */
final class SelectionStore {
  /** "LLSL": the store's envelope for selection records. */
  private static final int MAGIC = 0x4c4c534c;
  /**
   * Bumped whenever the record, or what its points mean, changes, so that old files are ignored and replaced.
   * 2: the original loop's points are timed once the JIT can have compiled it (see Measurements#WARM_ITERATIONS).
   * 3: samples towards points not complete yet. 4: an offload's point is the median of its last runs, not the fastest.
   * 5: the launches that overlapped. 6: whether a candidate was measured beside other launches.
   */
  private static final int FORMAT = 6;

  private final OwnerOnlyStore files;

  /** @param warnings receives the one line saying why the directory is refused, if it is */
  SelectionStore(Path directory, Consumer<String> warnings) {
    this.files = new OwnerOnlyStore(directory, MAGIC, ".sel", "executor choices are not kept on disk", warnings);
  }

  /** Opens the directory now (see {@link OwnerOnlyStore#prepare}). */
  void prepare() {
    files.prepare();
  }

  /**
   * What the store holds for {@code key}, valid for {@code version} and {@code cores}; empty when it holds
   * nothing, or nothing valid.
   */
  Optional<StoredKernel> load(KernelKey key, String version, int cores) {
    return files.read(key.storeId()).flatMap(SelectionStore::decode)
        .filter(k -> k.key().equals(key) && k.version().equals(version) && k.cores() == cores);
  }

  /** Replaces the record of {@code kernel}'s key; false when that failed or the directory is refused. */
  boolean save(StoredKernel kernel) {
    return files.write(kernel.key().storeId(), encode(kernel));
  }

  static byte[] encode(StoredKernel k) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(FORMAT);
      out.writeUTF(k.version());
      out.writeInt(k.cores());
      out.writeInt(k.overlap());
      out.writeUTF(k.key().shape());
      out.writeInt(k.key().classes().size());
      for (var e : k.key().classes().entrySet()) {
        out.writeUTF(e.getKey());
        out.writeUTF(e.getValue());
      }
      out.writeInt(k.candidates().size());
      for (StoredKernel.Candidate c : k.candidates()) {
        out.writeUTF(c.name());
        out.writeUTF(c.device());
        out.writeBoolean(c.dropped() != null);
        if (c.dropped() != null) out.writeUTF(c.dropped());
        writePoints(out, c.points());
        writePoints(out, c.samples());
        out.writeBoolean(c.beside());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory does not fail", e);
    }
    return bytes.toByteArray();
  }

  /** The record in {@code bytes}, or empty when they are not one of this format. */
  static Optional<StoredKernel> decode(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      if (in.readInt() != FORMAT) return Optional.empty();
      String version = in.readUTF();
      int cores = in.readInt();
      int overlap = in.readInt();
      if (overlap < 1) return Optional.empty();
      String shape = in.readUTF();
      TreeMap<String, String> classes = new TreeMap<>();
      for (int n = count(in); n > 0; n--) classes.put(in.readUTF(), in.readUTF());
      List<StoredKernel.Candidate> candidates = new ArrayList<>();
      for (int n = count(in); n > 0; n--) {
        String name = in.readUTF();
        String device = in.readUTF();
        String dropped = in.readBoolean() ? in.readUTF() : null;
        Optional<List<Point>> points = readPoints(in, false);
        Optional<List<Point>> samples = readPoints(in, true);
        if (points.isEmpty() || samples.isEmpty()) return Optional.empty();
        candidates.add(new StoredKernel.Candidate(name, device, dropped, points.get(), samples.get(),
            in.readBoolean()));
      }
      if (in.read() != -1) return Optional.empty();
      return Optional.of(new StoredKernel(new KernelKey(shape, classes), version, cores, overlap, candidates));
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static void writePoints(DataOutputStream out, List<Point> points) throws IOException {
    out.writeInt(points.size());
    for (Point p : points) {
      out.writeInt(p.sizeClass());
      out.writeLong(p.iterations());
      out.writeLong(p.work());
      out.writeLong(p.nanos());
      out.writeLong(p.transferNanos());
    }
  }

  /**
   * Points ordered by size class, several to a class when {@code samples}; empty when one is out of order or not
   * a point.
   */
  private static Optional<List<Point>> readPoints(DataInputStream in, boolean samples) throws IOException {
    List<Point> points = new ArrayList<>();
    int previous = -1;
    for (int m = count(in); m > 0; m--) {
      Point p = new Point(in.readInt(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), true);
      boolean ordered = samples ? p.sizeClass() >= previous : p.sizeClass() > previous;
      if (!ordered || p.sizeClass() != Size.classOf(p.work()) || p.iterations() < 1 || p.nanos() < 0
          || p.transferNanos() < 0) {
        return Optional.empty();
      }
      previous = p.sizeClass();
      points.add(p);
    }
    return Optional.of(points);
  }

  private static int count(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > 4096) throw new IOException("count " + n);
    return n;
  }
}
