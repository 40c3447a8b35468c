/**
 * For every configuration field this build honours (the support column of the cluster rows and
 * the `support` table), the test that observes its effect: `[file, test name or a unique part of
 * it]`. `support_walk_test.ts` fails when an honoured field has no entry, or an entry names a test
 * that does not exist.
 *
 * @module
 */

/** Honoured field (`<message>.<field>`) → `[test file from the repository root, test name]`. */
export const HONOURED: Readonly<Record<string, readonly [string, string]>> = {};
