package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * When the pipeline asks to time a loop's original run, the rewritten code runs the original loop and
 * reports its completion for that site; a run that throws reports nothing.
 */
class TimedRunTest {
  private static Rewritten shapes;

  @BeforeAll
  static void rewrite() throws Exception {
    shapes = new Rewritten(Shapes.class);
  }

  @AfterEach
  void stopTiming() {
    InterpretingDispatcher.timeOriginals = false;
  }

  private static List<Integer> sitesOf(String method) {
    return shapes.sites(method).stream().filter(LoopSite::accepted).map(shapes::id).toList();
  }

  @Test
  void aTimedOriginalRunReportsItsSiteOnceItCompletes() throws Exception {
    double[] a = new double[100];
    for (int i = 0; i < a.length; i++) a[i] = i * 0.5;
    Object[] plain = {a.clone(), new double[100]};
    Object[] lifted = {a.clone(), new double[100]};
    Object expected = Rewritten.invoke(shapes.original, "map", plain);
    InterpretingDispatcher.timeOriginals = true;
    int before = InterpretingDispatcher.RAN.size();
    Object actual = Rewritten.invoke(shapes.lifted, "map", lifted);
    assertEquals(expected, actual);
    assertTrue(Arrays.deepEquals(plain, lifted));
    List<Integer> ran = InterpretingDispatcher.RAN.subList(before, InterpretingDispatcher.RAN.size());
    assertEquals(2, sitesOf("map").size(), "the map loop and its checksum");
    assertEquals(sitesOf("map"), ran);
  }

  @Test
  void aTimedRunThatThrowsReportsNothing() throws Exception {
    // The loop runs out of out[] part-way; the method catches the exception.
    Object[] plain = {new int[10], new int[5]};
    Object[] lifted = {new int[10], new int[5]};
    Object expected = Rewritten.invoke(shapes.original, "throwsPartWay", plain);
    InterpretingDispatcher.timeOriginals = true;
    int before = InterpretingDispatcher.RAN.size();
    Object actual = Rewritten.invoke(shapes.lifted, "throwsPartWay", lifted);
    assertEquals(expected, actual);
    assertTrue(Arrays.deepEquals(plain, lifted), "the same partial writes");
    assertEquals(before, InterpretingDispatcher.RAN.size());
  }
}
