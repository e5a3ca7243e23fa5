// What scripts/build.mjs compiles into build/, and the file whose time says when it last did, so
// scripts/ops.mjs can tell whether build/ is older than a source.

// The workspace packages are compiled beside the rest: the wire the service imports by name, and the buyer
// the demo imports by name.
export const SOURCES = ['src', 'streams', 'projections', 'ops', 'packages/buyer/src', 'packages/wire/src'];
/** Files the compiled code reads beside itself. */
export const ASSETS = ['src/devnet/hardhat.config.cjs'];
/** Touched by every build, with the time the build started: a source changed after it is not in build/. */
export const BUILT_AT = 'build/.built-at';
