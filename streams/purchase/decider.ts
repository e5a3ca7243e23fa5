import { decide } from './decide.js';
import { evolve } from './evolve.js';
import { initialState } from './state.js';

// The Emmett-shaped decider of the purchase stream: { decide, evolve, initialState() }.
export const purchaseDecider = { decide, evolve, initialState: () => initialState } as const;
