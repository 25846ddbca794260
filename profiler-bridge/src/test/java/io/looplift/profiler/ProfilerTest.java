package io.looplift.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ProfilerTest {
  private static SiteInfo offloadedSite(String cls, String method, int line, String kind) {
    return new SiteInfo(cls, method, "([F[F)V", line, kind, "offloaded", null);
  }

  @Test
  void emptyReport() {
    assertEquals("{\"loops\":[],\"traceCache\":{\"hits\":0,\"misses\":0,\"evictions\":0,\"regionHits\":0,\"regionMisses\":0},\"kernels\":[],\"devices\":[],"
        + "\"transform\":{\"classes\":0,\"nanos\":0,\"deferred\":{\"classes\":0,\"nanos\":0},"
        + "\"remembered\":{\"classes\":0}},"
        + "\"verify\":{\"mode\":\"off\",\"checked\":0,\"mismatches\":0,\"kernels\":[]}}",
        new Profiler().reportJson());
  }

  @Test
  void workSetToRunBeforeReportsCompletesEachReport() {
    Profiler p = new Profiler();
    List<String> late = new ArrayList<>(List.of("a", "b"));
    p.beforeReport(() -> {
      while (!late.isEmpty()) p.siteAdded(new SiteInfo("demo.Late", late.remove(0), "()V", 1, "loop", "rejected", "why"));
    });
    assertTrue(p.reportJson().contains("\"method\":\"b\""));
    late.add("c");
    assertTrue(p.summary().contains("Late.c:1"));
    late.add("d");
    assertEquals(4, p.loopCount());
  }

  @Test
  void siteIdsAreDenseInCallOrder() {
    Profiler p = new Profiler();
    for (int i = 0; i < 40; i++) {
      assertEquals(i, p.siteAdded(offloadedSite("a.B", "m" + i, i, "map")));
    }
    assertEquals(40, p.loopCount());
  }

  @Test
  void fullReportExactly() {
    Profiler p = new Profiler();
    int scale = p.siteAdded(offloadedSite("demo.Demo", "scale", 12, "map"));
    int copy = p.siteAdded(new SiteInfo("demo.Demo", "copy", "([I)V", -1, "loop", "rejected", "unknown call"));
    int sum = p.siteAdded(offloadedSite("demo.Demo", "sum", 30, "reduce"));
    p.offloaded(scale, "jvm", 100);
    p.offloaded(scale, "opencl", 50);
    p.offloaded(scale, "opencl", 25);
    p.fallback(scale, "array too short");
    p.fallback(scale, "null array");
    p.internalError(sum, new IllegalStateException("first"));
    p.internalError(sum, new IllegalStateException("second")); // the first is kept
    p.fallback(sum, "guard failed");
    p.kernelLaunch("k0", "opencl", 40, scale);
    p.kernelLaunch("k0", "opencl", 30, sum);
    p.kernelLaunch("k0", "opencl", 20, scale);
    p.kernelLaunch("k1", "jvm", 7, scale);
    p.kernelLaunch("fused", "jvm", 11, sum, scale);
    p.kernelDevice("k0", 12, 4096, 50);
    p.kernelDevice("k0", 8, 4096, 30);
    Map<String, Double> times = new LinkedHashMap<>();
    times.put("bytecode", 1.25);
    times.put("jvm", 0.5);
    times.put("opencl:0", Double.NaN);
    SelectionInfo chosen = new SelectionInfo("jvm", "measured", times, Map.of("opencl:0", 0.125), 6, 9000,
        "jvm (measured: fastest)");
    p.siteSelection(scale, () -> chosen);
    p.kernelSelection("fused", () -> chosen);
    p.kernelSelection("k1", () -> {
      throw new IllegalStateException("a source that fails leaves the selection out");
    });
    p.traceCache(() -> new TraceCacheStats(5, 2, 1, 4, 3));
    p.devices(List.of("jvm: 16 threads", "opencl: NVIDIA H200"));
    p.classTransformed(300);
    p.classTransformed(-5); // a clock that stepped back counts the class, not the time
    p.classTransformed(1200);
    p.analysisDeferred(4000);
    p.analysisRemembered();
    p.analysisRemembered();
    assertEquals(2, sum);
    assertEquals(1, copy);
    String expected = "{\"loops\":["
        + "{\"id\":0,\"class\":\"demo.Demo\",\"method\":\"scale\",\"descriptor\":\"([F[F)V\",\"line\":12,"
        + "\"kind\":\"map\",\"status\":\"offloaded\",\"reason\":null,\"executor\":\"opencl\","
        + "\"runs\":{\"offloaded\":3,\"fallback\":2},\"timeNanos\":175,\"lastFallback\":\"null array\",\"internalError\":null,"
        + "\"selection\":{\"executor\":\"jvm\",\"source\":\"measured\",\"candidates\":{\"bytecode\":1.250,\"jvm\":0.500,\"opencl:0\":null},\"transfers\":{\"opencl:0\":0.125},\"measuringRuns\":6,\"measuringNanos\":9000}},"
        + "{\"id\":1,\"class\":\"demo.Demo\",\"method\":\"copy\",\"descriptor\":\"([I)V\",\"line\":-1,"
        + "\"kind\":\"loop\",\"status\":\"rejected\",\"reason\":\"unknown call\",\"executor\":null,"
        + "\"runs\":{\"offloaded\":0,\"fallback\":0},\"timeNanos\":0,\"lastFallback\":null,\"internalError\":null},"
        + "{\"id\":2,\"class\":\"demo.Demo\",\"method\":\"sum\",\"descriptor\":\"([F[F)V\",\"line\":30,"
        + "\"kind\":\"reduce\",\"status\":\"offloaded\",\"reason\":null,\"executor\":null,"
        + "\"runs\":{\"offloaded\":0,\"fallback\":1},\"timeNanos\":0,\"lastFallback\":\"guard failed\","
        + "\"internalError\":\"java.lang.IllegalStateException: first\"}],"
        + "\"traceCache\":{\"hits\":5,\"misses\":2,\"evictions\":1,\"regionHits\":4,\"regionMisses\":3},"
        + "\"kernels\":["
        + "{\"id\":\"k0\",\"executor\":\"opencl\",\"loops\":[0,2],\"launches\":3,\"timeNanos\":90,"
        + "\"transferNanos\":20,\"transferBytes\":8192,\"deviceNanos\":80},"
        + "{\"id\":\"k1\",\"executor\":\"jvm\",\"loops\":[0],\"launches\":1,\"timeNanos\":7,"
        + "\"transferNanos\":0,\"transferBytes\":0,\"deviceNanos\":0},"
        + "{\"id\":\"fused\",\"executor\":\"jvm\",\"loops\":[2,0],\"launches\":1,\"timeNanos\":11,"
        + "\"transferNanos\":0,\"transferBytes\":0,\"deviceNanos\":0,\"selection\":{\"executor\":\"jvm\",\"source\":\"measured\",\"candidates\":{\"bytecode\":1.250,\"jvm\":0.500,\"opencl:0\":null},\"transfers\":{\"opencl:0\":0.125},\"measuringRuns\":6,\"measuringNanos\":9000}}],"
        + "\"devices\":[\"jvm: 16 threads\",\"opencl: NVIDIA H200\"],"
        + "\"transform\":{\"classes\":3,\"nanos\":1500,\"deferred\":{\"classes\":1,\"nanos\":4000},"
        + "\"remembered\":{\"classes\":2}},"
        + "\"verify\":{\"mode\":\"off\",\"checked\":0,\"mismatches\":0,\"kernels\":[]}}";
    String json = p.reportJson();
    assertEquals(expected, json);
    assertTrue(p.summary().contains("Demo.scale:12  map  opencl  runs 3/2  0.0 ms  last fallback: null array  chose jvm"
        + " (measured: fastest)"), p.summary());
    Json.parse(json);
  }

  @Test
  void verifyTotalsAndOneEntryPerKernelAndExecutor() {
    Profiler p = new Profiler();
    p.verifyMode("sample", 100);
    p.verified("k0", "opencl", 0);
    p.verified("k0", "opencl", 3);
    p.verified("k0", "opencl", 1);
    p.verified("k1", "opencl", 12);
    p.mismatch(new VerifyMismatch("k1", "opencl", "demo.Demo.scale:12", "array 1[4]", "1.0", "2.0"));
    p.verified("k1", "jvm", 0);
    String json = p.reportJson();
    assertTrue(json.endsWith(",\"verify\":{\"mode\":\"sample\",\"every\":100,\"checked\":5,\"mismatches\":1,"
        + "\"kernels\":[{\"id\":\"k0\",\"executor\":\"opencl\",\"checked\":3,\"mismatches\":0,\"worst\":3},"
        + "{\"id\":\"k1\",\"executor\":\"opencl\",\"checked\":1,\"mismatches\":1,\"worst\":12},"
        + "{\"id\":\"k1\",\"executor\":\"jvm\",\"checked\":1,\"mismatches\":0,\"worst\":0}]}}"), json);
    Json.parse(json);
    assertEquals(5, p.verifiedLaunches());
    assertEquals(1, p.verifyMismatches());
    String[] lines = p.summary().split("\n");
    assertTrue(lines[lines.length - 1].endsWith("; verify=sample 5 checked, 1 mismatches"), p.summary());
  }

  @Test
  void unknownSiteIdsAreIgnored() {
    Profiler p = new Profiler();
    p.offloaded(0, "jvm", 1);
    p.fallback(-1, "x");
    p.siteAdded(offloadedSite("a.B", "m", 1, "map"));
    p.offloaded(1, "jvm", 1);
    p.offloaded(17, "jvm", 1);
    assertEquals(0, p.offloadedRuns());
    assertEquals(0, p.fallbackRuns());
  }

  @Test
  @SuppressWarnings("unchecked")
  void escapesQuotesBackslashesAndControlCharacters() {
    String cls = "we\"ird\\pkg.Cl\u0000ass\u001f\u007f\n\t\r\b\f/é€😀";
    String reason = "loop writes \"a[i]\" then \\ reads \u0001 \ud800 lone \udc00 surrogates";
    Profiler p = new Profiler();
    p.siteAdded(new SiteInfo(cls, "m\"", "()V", 3, "loop", "rejected", reason));
    p.kernelLaunch("k\"\\", "jvm", 1, 0);
    p.devices(List.of("dev\u0002"));
    String json = p.reportJson();
    assertTrue(json.contains("we\\\"ird\\\\pkg.Cl\\u0000ass\\u001f\u007f\\n\\t\\r\\b\\f/é€😀"), json);
    assertTrue(json.contains("\\ud800 lone \\udc00"), json);
    for (char c : json.toCharArray()) assertFalse(c < 0x20, "raw control character in " + json);

    Map<String, Object> report = (Map<String, Object>) Json.parse(json);
    Map<String, Object> loop = (Map<String, Object>) ((List<Object>) report.get("loops")).get(0);
    assertEquals(cls, loop.get("class"));
    assertEquals("m\"", loop.get("method"));
    assertEquals(reason, loop.get("reason"));
    Map<String, Object> kernel = (Map<String, Object>) ((List<Object>) report.get("kernels")).get(0);
    assertEquals("k\"\\", kernel.get("id"));
    assertEquals(List.of("dev\u0002"), report.get("devices"));
  }

  @Test
  void countersAreExactUnderConcurrency() throws Exception {
    Profiler p = new Profiler();
    int sites = 5;
    for (int i = 0; i < sites; i++) p.siteAdded(offloadedSite("a.B", "m" + i, i, "map"));
    int threads = 8;
    int perThread = 50_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < perThread; i++) {
          int site = i % sites;
          p.offloaded(site, thread % 2 == 0 ? "jvm" : "opencl", 2);
          if (i % 3 == 0) p.fallback(site, "t" + thread);
          p.kernelLaunch("k" + (i % 2), "jvm", 1, site);
          if (i % 1000 == 0) {
            p.siteAdded(new SiteInfo("late.C", "m", "()V", thread, "loop", "rejected", "r"));
            Json.parse(p.reportJson());
          }
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : done) f.get();
    pool.shutdown();

    long fallbacksPerThread = (perThread + 2) / 3;
    assertEquals((long) threads * perThread, p.offloadedRuns());
    assertEquals(threads * fallbacksPerThread, p.fallbackRuns());
    assertEquals(sites + threads * (perThread / 1000), p.loopCount());
    Map<?, ?> report = (Map<?, ?>) Json.parse(p.reportJson());
    long time = 0;
    for (Object o : (List<?>) report.get("loops")) time += (Long) ((Map<?, ?>) o).get("timeNanos");
    assertEquals(2L * threads * perThread, time);
    long launches = 0;
    for (Object o : (List<?>) report.get("kernels")) launches += (Long) ((Map<?, ?>) o).get("launches");
    assertEquals((long) threads * perThread, launches);
    Map<?, ?> k0 = (Map<?, ?>) ((List<?>) report.get("kernels")).get(0);
    assertEquals(sites, ((List<?>) k0.get("loops")).size());
  }

  @Test
  void summaryHasOneLinePerLoopThenTotals() {
    Profiler p = new Profiler();
    int scale = p.siteAdded(offloadedSite("demo.Demo", "scale", 12, "map"));
    p.siteAdded(new SiteInfo("Demo2", "copy", "()V", -1, "loop", "rejected", "unknown call"));
    p.offloaded(scale, "jvm", 2_000_000);
    p.offloaded(scale, "jvm", 2_100_000);
    p.offloaded(scale, "jvm", 0);
    p.kernelLaunch("k0", "jvm", 3_000_000, scale);
    p.traceCache(() -> new TraceCacheStats(2, 1, 0, 0, 0));
    p.classTransformed(1_500_000);
    p.classTransformed(900_000);
    p.analysisDeferred(7_000_000);
    String[] lines = p.summary().split("\n");
    assertEquals(3, lines.length, p.summary());
    assertEquals("offloaded  Demo.scale:12  map  jvm  runs 3/0  4.1 ms", lines[0]);
    assertEquals("rejected   Demo2.copy  loop  unknown call", lines[1]);
    assertEquals("looplift: 2 loops (1 offloaded, 1 rejected), runs 3/0, 4.1 ms; 1 kernels, 1 launches, 3.0 ms;"
        + " trace cache 2 hits, 1 misses; 2 classes examined in 2.4 ms, 1 analyzed later for the report in 7.0 ms",
        lines[2]);
  }
}
