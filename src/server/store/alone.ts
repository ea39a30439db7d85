/**
 * The default store is one handler's memory, so two handlers for one mount that both answer
 * in one process each run `onPaid` (SolidStart makes each export of a route file a module of
 * its own: a handler made there is one per HTTP method). Said once a process, when they take
 * turns: a dev server that made a new handler on an edit never goes back to the old one.
 */
import type { LogEntry } from '../types.ts';

const lastServed = new Map<string, object>();
const SAID = {};

export function checkAlone(
  mount: string,
  provider: string,
  log: (entry: LogEntry) => void,
): () => void {
  const me = {};
  const key = `${mount} ${provider}`;
  let served = false;
  return () => {
    const last = lastServed.get(key);
    if (last === me || last === SAID) return;
    if (served) {
      lastServed.set(key, SAID);
      log({
        level: 'warn',
        message: `several payment handlers for ${mount} answer in this process, each with a memory store of its own, so onPaid runs in each: make one handler, in a module of its own, or give them one store`,
      });
      return;
    }
    served = true;
    lastServed.set(key, me);
  };
}
