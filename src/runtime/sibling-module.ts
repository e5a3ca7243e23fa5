import { fileURLToPath } from 'node:url';

// The service runs as JavaScript compiled into build/ (`npm start`) or as TypeScript under tsx (tests,
// ops tools). A module that starts another module in a worker thread or a child process names it by
// its own extension, and only TypeScript needs tsx's loader registered there.

interface SiblingModule {
  /** The module's file URL, with the extension this code runs from. */
  url: URL;
  /** Whether it is TypeScript, i.e. must be loaded through tsx. */
  typescript: boolean;
}

export function siblingModule(importMetaUrl: string, relativeWithoutExtension: string): SiblingModule {
  const typescript = fileURLToPath(importMetaUrl).endsWith('.ts');
  return { url: new URL(`${relativeWithoutExtension}${typescript ? '.ts' : '.js'}`, importMetaUrl), typescript };
}
