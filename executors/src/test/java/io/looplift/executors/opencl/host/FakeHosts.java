package io.looplift.executors.opencl.host;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Stand-ins for the OpenCL host that misbehave, each a main class started the way the real host is. */
final class FakeHosts {
  private FakeHosts() {}

  /** Reads its stdin to the end and never answers. */
  static final class Silent {
    public static void main(String[] args) throws IOException {
      System.in.transferTo(OutputStream.nullOutputStream());
    }
  }

  /** Answers with what a driver might print, instead of a frame. */
  static final class Garbage {
    public static void main(String[] args) throws IOException {
      try (OutputStream replies = new FileOutputStream(args[0])) {
        replies.write("Could not load libOpenCL.so, error libOpenCL.so: cannot open shared object file\n".getBytes());
      }
      System.in.transferTo(OutputStream.nullOutputStream());
    }
  }

  /** Prints a line and exits with code 3 before answering. */
  static final class Exiting {
    public static void main(String[] args) {
      System.out.println("exiting early"); // goes to the log, as a driver's stdout does
      System.exit(3);
    }
  }

  /** Answers the hello with a well-formed frame of another protocol. */
  static final class OtherProtocol {
    public static void main(String[] args) throws IOException {
      Wire.In hello = Wire.read(System.in);
      try (OutputStream replies = new FileOutputStream(args[0])) {
        new Wire.Out(Wire.OK, hello.id).i(0x12345678).i(99).writeTo(replies);
      }
      System.in.transferTo(OutputStream.nullOutputStream());
    }
  }
}
