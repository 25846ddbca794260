package io.looplift.analyzer;

/** Another class for {@link PrescanShapes}: methods that touch arrays where the pre-scan of a caller cannot see. */
final class PrescanCell {
  final double[] data;

  PrescanCell(double[] data) {
    this.data = data;
  }

  double get(int i) {
    return data[i];
  }

  static double twice(double v) {
    return 2 * v;
  }
}
