// Faults for the sandbox's own outgoing notifications, the hard cases of a webhook handler:
//   drop       never sent (the delivery's state is `dropped`)
//   duplicate  sent twice
//   delay      held `delayMs` of sandbox time before its first attempt
//   reorder    held until the next delivery has been sent (or dropped), so it arrives after it
// Each fault applies to the next `remaining` deliveries, oldest fault first.

export type WebhookFaultKind = 'drop' | 'duplicate' | 'delay' | 'reorder';

export interface WebhookFault {
  id: string;
  kind: WebhookFaultKind;
  /** Used by `delay`. */
  delayMs: number;
  /** Deliveries still to affect. */
  remaining: number;
}

export class WebhookFaultStore {
  #faults: WebhookFault[] = [];
  #nextId = 1;

  add(fault: Omit<WebhookFault, 'id'>): WebhookFault {
    const added = { ...fault, id: `whf_${this.#nextId++}` };
    this.#faults.push(added);
    return added;
  }

  list(): readonly WebhookFault[] {
    return this.#faults;
  }

  clear(): void {
    this.#faults = [];
  }

  /** The fault for the next delivery, consumed by one use. */
  take(): WebhookFault | undefined {
    const fault = this.#faults[0];
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.shift();
    return fault;
  }
}
