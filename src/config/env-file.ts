// `--env-file <path>` (or `--env-file=<path>`) on the service's command line: KEY=value lines read
// into the environment before the configuration is decoded. Variables already set win, so a
// deployment can override one value of a shared file.
export function loadEnvFileArgument(argv: readonly string[]): string | undefined {
  const i = argv.findIndex((a) => a === '--env-file' || a.startsWith('--env-file='));
  if (i < 0) return undefined;
  const file = argv[i]!.includes('=') ? argv[i]!.slice('--env-file='.length) : argv[i + 1];
  if (!file) throw new Error('--env-file needs a path');
  process.loadEnvFile(file);
  return file;
}
