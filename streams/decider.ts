// The shape every stream's decider has (Emmett's Decider): decide judges a command against the folded
// state and answers events (or throws the stream's refusal); evolve folds one recorded event into the
// state; initialState is the state of a stream that does not exist. Pure and synchronous: the clock
// travels in the command's metadata, ids and appends are the command handler's.

/** What every command carries besides its data: the time it is decided at. */
interface CommandMetadata {
  now: Date;
}

/** A command of one stream: a body plus the metadata (`now`) it is decided with. */
export type Command<Body> = Body & { metadata: CommandMetadata };

export interface Decider<State, C, Event extends { type: string; data: unknown }> {
  decide(command: C, state: State): Event[];
  evolve(state: State, event: { type: string; data: unknown }): State;
  /**
   * evolve for an event this decider's own decide just answered (never one read from a store): a decider
   * whose decide already checks its events against their codecs folds them without decoding them again.
   * Absent: evolve.
   */
  evolveDecided?(state: State, event: Event): State;
  initialState(): State;
}
