// Timing of the simulated card readers. The defaults feel like a real device; tests shorten
// them through `SandboxOptions.readers`.

export interface ReaderOptions {
  /** How long a device takes to confirm a new pairing (processing -> paired). Default 2 s. */
  pairingDelayMs?: number;
  /** How long a pairing code stays usable, and an unconfirmed pairing stays `processing`. Default 5 min. */
  pairingCodeTtlMs?: number;
  /** The seed's start window: a reader checkout not started on the device by then fails. Default 60 s. */
  startWindowMs?: number;
}

export type ReaderTiming = Required<ReaderOptions>;

export function resolveReaderTiming(options: ReaderOptions = {}): ReaderTiming {
  const ms = (value: number | undefined, fallback: number, name: string): number => {
    const v = value ?? fallback;
    if (!Number.isFinite(v) || v < 0) {
      throw new Error(`payment-sandbox: readers.${name} must be a number of milliseconds >= 0`);
    }
    return v;
  };
  return {
    pairingDelayMs: ms(options.pairingDelayMs, 2_000, 'pairingDelayMs'),
    pairingCodeTtlMs: ms(options.pairingCodeTtlMs, 5 * 60_000, 'pairingCodeTtlMs'),
    startWindowMs: ms(options.startWindowMs, 60_000, 'startWindowMs'),
  };
}
