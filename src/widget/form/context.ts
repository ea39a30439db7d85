// What typing (./typing.ts, in the pay part) is handed: the form controller (./controller.ts), by
// the members typing uses and no more. Types only, so the part depends on no controller
// and no controller on the part. Every name here reaches across the bundle's edge: none
// may start with `_`, which the script-tag build shortens in its own code only.

import type { ReactiveControllerHost } from 'lit';
import type { CardNetwork } from '../../shared/card-networks.ts';
import type { Strings } from '../locales/en.ts';
import type { PaymentMethodId } from '../methods/index.ts';
import type { Errors, FieldName, FormState } from './fields.ts';

/** What the form shows besides what is typed; plain JSON data (see FormController.set). */
export interface FormView {
  method: PaymentMethodId;
  /** The chosen saved card's token; '' means "use a new card". */
  savedToken: string;
  /** Which fields the shopper has touched and changed, and whether they submitted. */
  formState: FormState;
  errors: Errors;
  network: CardNetwork | undefined;
  status: string;
}

export type Control = HTMLInputElement | HTMLSelectElement;

/** The form controller, as typing acts through it (its inputs are read by ./inputs.ts). */
export interface TypingForm {
  readonly host: ReactiveControllerHost &
    HTMLElement & { readonly renderRoot: HTMLElement | DocumentFragment };
  readonly view: FormView;
  /** Changes what the form shows; a render follows when something differs. */
  set(next: Partial<FormView>): void;
  /** The fields on screen, in focus order. */
  fields(): FieldName[];
  /** Another method or saved card was chosen: its fields start anew (not yet submitted). */
  choose(): void;
  strings(): Strings;
}
