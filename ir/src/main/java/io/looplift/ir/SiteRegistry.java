package io.looplift.ir;

/** Receives every loop site the rewriter sees. Thread-safe: classes load concurrently. */
public interface SiteRegistry {
  /** Records {@code site} and returns its id, which rewritten code passes to the bridge. */
  int register(LoopSite site);

  /**
   * Marks a registered, accepted site as not offloaded after all: its class could not be written and
   * runs unchanged. {@code reason} is readable by a user.
   */
  void discard(int siteId, String reason);

  /**
   * True when the rewriter must leave the loop of registered site {@code siteId} as it was, although it
   * can take it: the loop has only ever run too short to offload, so often that its rewrite is not worth
   * keeping, and its class is being rewritten again without it. False by default.
   */
  default boolean keepsOriginal(int siteId) {
    return false;
  }

  /** Records a region whose loops were all registered before, and returns its id for the bridge. */
  int registerRegion(RegionSite region);

  /**
   * Says that class {@code className} (binary name) is about to be rewritten again because a loop of it was
   * waiting for an implementation of an abstract method ({@link LoopSite#awaitsImplementation()}) and one
   * loaded: a loop registered anew at the place of such a site replaces it. Nothing by default.
   */
  default void rewritingAgain(String className) {}

  /**
   * Says that an implementation of an abstract method that loops of class {@code className} (binary name)
   * waited for has loaded: the class will be rewritten again at a moment none of its methods runs. Nothing by
   * default.
   */
  default void implementationLoaded(String className) {}

  /**
   * Says that class {@code className} (binary name), whose loops waited for an implementation of an abstract
   * method, will not be rewritten again although one loaded, because of {@code why} (readable by a user): its
   * waiting loops run as they are. Nothing by default.
   */
  default void notRewrittenAgain(String className, String why) {}
}
