package scala.looplifttest;

/**
 * A class in the Scala runtime's package namespace, as a Scala box or collection class would be: methods
 * called on its objects are never inlined, however small.
 */
public final class Cell {
  private final double value;

  public Cell(double value) {
    this.value = value;
  }

  public double times(double v) {
    return value * v;
  }
}
