// Everything the form does once it is on screen, asked for beside the checkout as the widget
// loads it (a slow network brings it with the form, not after it): the card rules as the shopper types (the number
// grouped and the expiry written "MM / YY" as typed, the network and its mark, what is
// wrong with each field), what Pay does from the check of the fields to the confirmed
// outcome (a next step on the way is the step part's: ./step.ts, loaded when an answer
// calls for one; so is a step the checkout left open, shown again when the widget loads
// again), "Try another card", reading the checkout back when the page is seen again, where focus
// goes when paying hides the control that had it, and the words and styles of all that.
// Until it arrives, what the shopper types stays as typed, and is formatted and checked
// when it comes (../form/controller.ts). A checkout that opens already over, or that
// cannot load, asks for it too: it says how; and a page that names a customer, for the
// customer's saved cards, which it lists and draws.
//
// In forced colours (Windows' high contrast) a button's filled background is the page's own
// colour: its border, in the forced text colour, is what shows it is a button. Here rather
// than in the form's first paint, which has no bytes of its budget left; until this part
// comes, the button is its words alone.
//
// One part rather than several: each file a browser loads is compressed on its own, so
// what every payment needs compresses better together than in a file each.
import { fieldWords } from '../locales/english/fields.ts';
import { outcomeWords } from '../locales/english/outcome.ts';
import { payWords } from '../locales/english/pay.ts';
import { savedCardWords } from '../locales/english/saved-cards.ts';
import { outcomeStyles } from '../templates/outcome.ts';
import { savedCardStyles } from '../templates/saved-card-choice.ts';
import { css } from './kit.ts';

export { pageSettled } from '../arrival.ts';
export { handOnFocus } from '../checkout/focus.ts';
export { fail, settle } from '../checkout/outcome.ts';
export { pay, restore } from '../checkout/pay.ts';
export { savedCards } from '../checkout/saved-cards.ts';
export { cardSaved } from '../checkout/saving.ts';
export { leaveStep, shown } from '../checkout/steps.ts';
export { arrived, beforeInput, edited, message, regroup } from '../form/typing.ts';
export { networkMark } from '../templates/icons.ts';
export { offerView, outcomeView } from '../templates/outcome.ts';
export { savedCardChoice } from '../templates/saved-card-choice.ts';
/** The hashes of the parts it loads (in the self-contained builds: ./imports-beside.ts). */
export { PART_INTEGRITY as integrity } from './integrity.ts';

export const words = {
  ...fieldWords,
  ...payWords,
  ...outcomeWords,
  ...savedCardWords,
};

export const styles = [
  outcomeStyles,
  savedCardStyles,
  css`
  [aria-invalid=true] {
    border-color: var(--_error);
    box-shadow: inset 0 0 0 1px var(--_error);
  }
  .error {
    color: var(--_error);
    font-size: 0.8125em;
  }
  .icon text {
    fill: #fff;
    font: 700 6.5px sans-serif;
    text-anchor: middle;
  }
  [aria-disabled=true] {
    cursor: progress;
    opacity: 0.7;
  }
  @media (forced-colors: active) {
    button {
      border: 1px solid;
    }
    /* Forced colours drop the error colour and the shadow: a pattern marks the field instead. */
    [aria-invalid=true] {
      border-style: dashed;
    }
  }
`,
];
