import test from 'ava';

/**
 * A thing a test file starts once in a serial before hook and stops after its tests (a world, a proxy),
 * answered at once as an object that stands for it: `const w = startedInHook(start, stop)` and then
 * `w.url` in hooks declared after it and in tests. Before the start (or when it failed) every property
 * reads undefined. Serial hooks: ava starts a file's plain before hooks together, and the ones declared
 * after this one use the thing.
 */
export function startedInHook<T extends object>(start: () => Promise<T>, stop: (thing: T) => Promise<void>): T {
  let thing: T | undefined;
  test.serial.before(async () => {
    thing = await start();
  });
  test.serial.after.always(async () => {
    if (thing) await stop(thing);
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (!thing) return undefined;
      const v = Reflect.get(thing, key, thing);
      return typeof v === 'function' ? v.bind(thing) : v;
    },
    set(_, key, value) {
      if (!thing) throw new Error('set before the start');
      return Reflect.set(thing, key, value, thing);
    },
  });
}
