// The English strings: every key a locale translates (the `Strings` type). Each group lives
// beside the code that shows it (./english/): the form's words are bundled with the element,
// the rest arrive with the part that shows them (src/widget/parts/), so the card form's
// first paint carries no sentence it does not draw. Every other locale module (`./de.ts`
// and the rest) exports all of these keys as one plain object with no imports, so it can
// be loaded at run time on its own.
//
// `{amount}`, `{last4}`, `{network}`, `{minutes}` are placeholders filled by `format()`.

import { fieldWords } from './english/fields.ts';
import { formWords } from './english/form.ts';
import { outcomeWords } from './english/outcome.ts';
import { payWords } from './english/pay.ts';
import { savedCardWords } from './english/saved-cards.ts';
import { stepWords } from './english/step.ts';
import { stoppedWords } from './english/stopped.ts';

export const en = {
  ...formWords,
  ...stoppedWords,
  ...fieldWords,
  ...payWords,
  ...outcomeWords,
  ...savedCardWords,
  ...stepWords,
};

export type Strings = typeof en;
export type StringName = keyof Strings;
