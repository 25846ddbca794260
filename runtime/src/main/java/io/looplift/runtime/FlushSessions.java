package io.looplift.runtime;

import io.looplift.executors.Executor;
import io.looplift.executors.FlushSession;
import io.looplift.executors.Launch;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link FlushSession}s of one {@link FlushWork} run, opened as its launches reach their executors, and
 * the launches not committed yet. At most one session has uncommitted launches: before a launch runs
 * anywhere else, {@link KernelRunner} commits them, since everything else reads the program's arrays. Used
 * by the one thread running the work.
 */
final class FlushSessions {
  /**
   * A launch whose results a session still holds, and what the runner needs to run it again or, once
   * committed, to record it.
   *
   * @param accumulators the launch's accumulators before it ran
   * @param startNanos for a launch still in flight, the time it took to start it; -1 for one that completed
   */
  record Uncommitted(Executor executor, Launch launch, long[] accumulators, String kernel, List<PendingLoop> loops,
      long startNanos) {
    boolean inFlight() {
      return startNanos >= 0;
    }
  }

  /** Each executor's session, or null for an executor that has none. */
  private final Map<Executor, FlushSession> sessions = new IdentityHashMap<>();
  private final List<Uncommitted> uncommitted = new ArrayList<>();
  /** Arrays the program never reads (placeholders' storage), which every session is told of. */
  private final List<Object> unread = new ArrayList<>();
  private FlushSession active;

  /** {@code x}'s session when it has one that takes {@code launch}, else null. */
  FlushSession of(Executor x, Launch launch) {
    if (!sessions.containsKey(x)) {
      FlushSession opened = x.session();
      if (opened != null) unread.forEach(opened::unread);
      sessions.put(x, opened);
    }
    FlushSession s = sessions.get(x);
    return s != null && s.takes(launch) ? s : null;
  }

  /** {@code array} is private to the work: no session need give back what launches write into it. */
  void unread(Object array) {
    unread.add(array);
    for (FlushSession s : sessions.values()) {
      if (s != null) s.unread(array);
    }
  }

  /** The session holding uncommitted launches, or null. */
  FlushSession active() {
    return active;
  }

  /** Records that {@code session} ran {@code u.launch()} and holds its results. */
  void ran(FlushSession session, Uncommitted u) {
    active = session;
    uncommitted.add(u);
  }

  /** The launches the active session holds, in order. */
  List<Uncommitted> uncommitted() {
    return List.copyOf(uncommitted);
  }

  /** The kernel the active session ran last, to which its read-back is reported. */
  String lastKernel() {
    return uncommitted.get(uncommitted.size() - 1).kernel();
  }

  /** The active session committed: nothing is uncommitted any more. */
  void committed() {
    active = null;
    uncommitted.clear();
  }

  /**
   * The active session failed and forgot its results: returns its uncommitted launches, in order, which must
   * run again elsewhere.
   */
  List<Uncommitted> lost() {
    List<Uncommitted> again = List.copyOf(uncommitted);
    committed();
    return again;
  }

  /** The program's {@code arrays} changed outside every session: no session may use its copies of them. */
  void changed(Object[] arrays) {
    for (FlushSession s : sessions.values()) {
      if (s != null) s.changed(arrays);
    }
  }

  /** Frees every session's copies; what is uncommitted is lost. */
  void close() {
    for (FlushSession s : sessions.values()) {
      if (s != null) s.close();
    }
    committed();
  }
}
