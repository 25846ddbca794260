package io.looplift.analyzer;

/**
 * What the analyzer may assume about calls of abstract methods: which loaded class implements one. A loop that
 * calls an abstract method on an object that does not change inside it is offloaded only with such a class
 * known: the analyzer inlines that class's method under the guard every inlined virtual call has (checked
 * before each launch, the object's class must run that method; otherwise the original loop runs). Thread-safe.
 */
public interface Implementations {
  /** Knows of no implementation, and forgets what is asked for. */
  Implementations NONE = new Implementations() {
    @Override
    public String of(String owner, String method) {
      return null;
    }

    @Override
    public void wanted(String owner, String method, String caller, ClassLoader loader) {}
  };

  /**
   * The internal name of a loaded class that implements the abstract method {@code method} (name and
   * descriptor, e.g. {@code getQuick(II)D}) declared in class {@code owner}, or null when none is known.
   */
  String of(String owner, String method);

  /**
   * Notes that a loop of class {@code caller}, defined by {@code loader}, calls {@code owner}'s abstract
   * {@code method} and was rejected for want of an implementation: it is worth analyzing again once one loads.
   */
  void wanted(String owner, String method, String caller, ClassLoader loader);
}
