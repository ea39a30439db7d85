// What the pay part (./pay.ts) is handed: the checkout controller (./controller.ts), by the
// members the pay flow uses and no more. Types only, so the part depends on no controller
// and no controller on the part. Every name here reaches across the bundle's edge: none
// may start with `_`, which the script-tag build shortens in its own code only.

import type { ReactiveControllerHost } from 'lit';
import type { ChallengeMode, NextStepContext } from '../../next-step/types.ts';
import type { TypingForm } from '../form/context.ts';
import type { FieldName, Shown, Values } from '../form/fields.ts';
import type { Strings } from '../locales/en.ts';
import type { Problem } from '../parts/diagnostics.ts';
import type * as StepPart from '../parts/step.ts';
import type { Lifecycle, SavedCard } from '../state.ts';

/** What the checkout's code reads from, and writes to, its element. */
export interface CheckoutHost extends ReactiveControllerHost, HTMLElement, Shown {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly hasUpdated: boolean;
  checkoutId: string | undefined;
  order: unknown;
  endpoint: string;
  paymentMethods: string | undefined;
  customerId: string | undefined;
  saveCard: boolean;
  challenge: ChallengeMode;
  navigate: NextStepContext['navigate'];
}

/** The form, as paying reads it (the form controller; its inputs by ../form/inputs.ts). */
export interface PayForm extends TypingForm {
  message(field: FieldName): string;
  /** The customer's saved cards offered with this checkout. */
  readonly savedCards: SavedCard[];
  setStatus(text: string): void;
  /** Nothing touched, nothing wrong, nothing to say: a fresh form. */
  clear(): void;
}

/** The checkout controller, as the pay part acts through it. */
export interface PayContext {
  readonly host: CheckoutHost;
  readonly form: PayForm;
  readonly lifecycle: Lifecycle;
  readonly endpoint: string;
  readonly strings: Strings;
  /** The locale the words are in (`tag`: what the page asked for), for amounts. */
  readonly locale: { readonly tag: string };
  /** The next step on screen: aborted when it goes away. */
  stepAbort: AbortController | undefined;
  /** What a failure kept of the form for the basket's next checkout: no card data, ever. */
  kept: Values;
  /** The next load offers a card only ("Try another card"). */
  cardOnly: boolean;
  /**
   * The parts that load when needed: the console's words for a mistake in the page, and a
   * next step (`need`: undefined when it could not load, which the widget then says).
   */
  readonly parts: {
    load(name: 'diagnostics'): Promise<{ tell(problem: Problem, values: string[]): void }>;
    need(name: 'step'): Promise<typeof StepPart | undefined>;
  };
  to(next: Lifecycle): void;
  /** Loads the checkout again: the step it left open shows again, or the form, or the outcome. */
  load(): Promise<void>;
}
