/**
 * The shop's settings from the environment, shared by `npm start` (scripts/start.ts) and
 * `server-example/main.ts`: a bad value stops the process with a line naming the variable.
 */
import type { ServerExampleOptions } from './server.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** REDIS_URL and RECONCILE_INTERVAL_MS (how often unsettled orders are asked about; 0: never). */
export function optionsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Pick<ServerExampleOptions, 'redisUrl' | 'reconcileIntervalMs'> {
  const options: Pick<ServerExampleOptions, 'redisUrl' | 'reconcileIntervalMs'> = {};
  if (env.REDIS_URL) options.redisUrl = env.REDIS_URL;
  const raw = env.RECONCILE_INTERVAL_MS;
  if (raw !== undefined && raw !== '') {
    const ms = Number(raw);
    if (!Number.isInteger(ms) || ms < 0) {
      fail('RECONCILE_INTERVAL_MS must be a whole number of milliseconds (0 turns it off)');
    }
    options.reconcileIntervalMs = ms;
  }
  return options;
}
