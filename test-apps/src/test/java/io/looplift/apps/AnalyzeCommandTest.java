package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.looplift.apps.ProgramCatalog.Expectation;
import io.looplift.apps.ProgramCatalog.Outcome;
import io.looplift.apps.ProgramCatalog.Program;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar looplift-agent.jar analyze DIR} lists the loops of a directory of classes without
 * running anything: one line per loop naming its class, method and kind, and for a rejected loop the word
 * "rejected".
 */
class AnalyzeCommandTest {
  @Test
  void analyzeListsTheLoopsOfTheCompiledPrograms() {
    ForkedJvm.Result result = ForkedJvm.agentCli("analyze", ForkedJvm.appClasses().toString());
    assertEquals(0, result.exitCode(), result::describe);
    List<String> lines = result.stdout().lines().toList();
    List<String> missing = new ArrayList<>();
    for (Program program : ProgramCatalog.ALL) {
      for (Expectation e : program.expectations()) {
        if (e.outcome() == Outcome.OFFLOADED && lines.stream().noneMatch(l -> names(l, e) && hasWord(l, e.kind()) && !hasWord(l, "rejected"))) {
          missing.add(e.toString());
        }
        if (e.outcome() == Outcome.REJECTED
            && lines.stream().noneMatch(l -> names(l, e) && hasWord(l, "rejected"))) {
          missing.add(e.toString());
        }
      }
    }
    if (!missing.isEmpty()) {
      fail("analyze does not list:\n  " + String.join("\n  ", missing) + "\noutput:\n" + result.stdout() + "\n" + result.describe());
    }
  }

  /**
   * Whether an output line names the expectation's class, then its method (separated by '.', '#', ':' or
   * spaces; any lambda body for a pattern).
   */
  private static boolean names(String line, Expectation e) {
    boolean prefix = e.method().endsWith("*");
    String method = prefix ? e.method().substring(0, e.method().length() - 1) : e.method();
    String regex = "(?<![\\w$.])" + Pattern.quote(e.className()) + "[.#: ]+" + Pattern.quote(method)
        + (prefix ? "" : "(?![\\w$])");
    return Pattern.compile(regex).matcher(line).find();
  }

  private static boolean hasWord(String line, String word) {
    return Pattern.compile("\\b" + Pattern.quote(word) + "\\b", Pattern.CASE_INSENSITIVE).matcher(line).find();
  }
}
