/** The reference executor: a sequential interpreter of loop templates, the ground truth for verify mode. */
package io.looplift.executors.reference;
