/**
 * The sandbox's device simulator, driven from the till page: switch on a reader and pair it
 * the way a merchant would (by its code), then act as the person in front of it. Sandbox
 * only: the provider has no such thing.
 */
import type { ProviderClient } from 'payment-widget/server';
import { errorJson, json } from '../http.ts';

export interface SimulatorOptions {
  provider: ProviderClient;
  merchantCode: string;
  /** The sandbox's base URL and key: its control surface takes the same key. */
  baseUrl: string;
  apiKey: string;
}

/** What a person can do at a simulated reader. */
export const SIMULATOR_ACTIONS = new Set(['present-card', 'enter-pin', 'offline', 'online']);

export function createSimulator(options: SimulatorOptions) {
  const { provider, merchantCode } = options;

  /** POSTs to the sandbox's control surface; its refusals come back in the till's error shape. */
  async function call(path: string, body: unknown): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(new URL(path, options.baseUrl), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      return errorJson(502, 'SIMULATOR_UNREACHABLE', 'The sandbox could not be reached');
    }
    const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) {
      const param = typeof answer.param === 'string' ? answer.param : undefined;
      return errorJson(
        res.status >= 500 ? 502 : res.status,
        String(answer.error_code ?? 'SIMULATOR_ERROR'),
        String(answer.message ?? 'The simulated device refused'),
        param,
      );
    }
    return json(answer, res.status);
  }

  return {
    /** Switches on a sandbox device and pairs it by its code, as a merchant would. */
    async addReader(): Promise<Response> {
      const switched = await call('/sandbox/devices', { model: 'solo' });
      if (!switched.ok) return switched;
      const device = (await switched.json()) as { identifier: string; pairing_code: string };
      const count = (await provider.readers.list(merchantCode)).items.length;
      const reader = await provider.readers.create(merchantCode, {
        pairing_code: device.pairing_code,
        name: `Simulated reader ${count + 1}`,
      });
      // A real device confirms after a moment; the demo's does it now.
      const path = `/sandbox/devices/${encodeURIComponent(device.identifier)}/confirm-pairing`;
      const confirmed = await call(path, {});
      // 409: it was already paired (a sandbox with no pairing delay).
      if (!confirmed.ok && confirmed.status !== 409) return confirmed;
      const paired = await provider.readers.get(merchantCode, reader.id);
      return json(
        { reader: { id: paired.id, name: paired.name ?? paired.id, status: paired.status } },
        201,
      );
    },

    /** One of SIMULATOR_ACTIONS on the device behind this reader. */
    async act(readerId: string, action: string, body: unknown): Promise<Response> {
      const reader = await provider.readers.get(merchantCode, readerId);
      return call(
        `/sandbox/devices/${encodeURIComponent(reader.device.identifier)}/${action}`,
        body,
      );
    },
  };
}
