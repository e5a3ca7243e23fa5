import type { Content, License, Payment } from './model.js';

// One open element of the parse's stack (structure.ts pushes them, leaves.ts reads a leaf's when it closes).

export type Frame =
  | { kind: 'skip' }
  | { kind: 'feed' }
  | { kind: 'rsl' }
  | { kind: 'content'; content: Content; seen: Set<string> }
  | { kind: 'license'; license: License; seen: Set<string> }
  | { kind: 'payment'; payment: Payment; seen: Set<string> }
  | {
      kind: 'leaf';
      local: string;
      attrs: Record<string, string>;
      text: string;
      ns: Record<string, string>;
      line: number;
    };
