// What the request log keeps of a body: JSON with every card number and security code masked
// before it is stored, and no more than BODY_CHARS of it. A card number keeps its last four
// digits (what a receipt shows); a CVV or a reader's PIN keeps nothing. Masked by name
// (`number` in a `card`, `cvv`, `cvc`, `card_number`, `pan`, `security_code`, `pin`) and,
// whatever the name, any run of 12 to 19 digits in a string that is not part of a longer token
// (an id): no field a client invents carries a whole card number into the log.

/** The JSON bodies the API's routes read (readApiJson), by request, for the log to mask. */
const read = new WeakMap<Request, unknown>();

/** Notes `value` as the body of `request` (the route parsed it; the log reads it from here). */
export function noteBody(request: Request, value: unknown): void {
  read.set(request, value);
}

/** The masked body a route read from `request`; '' when it read none. */
export function maskedRequestBody(request: Request): string {
  return read.has(request) ? maskedJson(read.get(request)) : '';
}

/** The most of one body the log keeps, in characters. */
export const BODY_CHARS = 2_000;

const SECRET_NAMES = new Set([
  'cvv',
  'cvc',
  'cvv2',
  'cvc2',
  'security_code',
  'securitycode',
  'pin',
]);
const NUMBER_NAMES = new Set(['card_number', 'cardnumber', 'pan']);
/**
 * Twelve to nineteen digits, spaces or dashes between them allowed: a card number's shape, on
 * its own. Not a part of a longer token: a UUID whose last group is all digits
 * (`…-b6e6-700610787202`, one id in a few hundred) is an id, shown as it is.
 */
const DIGIT_RUN = /(?<![\dA-Za-z-])\d(?:[ -]?\d){11,18}(?![\dA-Za-z]|-[\dA-Za-z])/g;

/** What a text holding a card field or number has somewhere (a quick look before a walk). */
const MAY_HOLD_CARD = /\d(?:[ -]?\d){11}|cvv|cvc|number|"pan"|"pin"|security_code/i;

/** A card number's last four digits, the rest dots. */
function lastFour(value: unknown): string {
  const digits = String(value).replace(/\D/g, '');
  return `•••• ${digits.slice(-4)}`;
}

function maskString(text: string): string {
  return text.replace(DIGIT_RUN, (run) => lastFour(run));
}

function masked(value: unknown, inCard: boolean, depth: number): unknown {
  if (typeof value === 'string') return maskString(value);
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any body of the API: not walked, not kept.
  if (depth > 20) return '…';
  if (Array.isArray(value)) return value.map((item) => masked(item, false, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = key.toLowerCase();
    if (SECRET_NAMES.has(name)) out[key] = '•••';
    else if (NUMBER_NAMES.has(name) || (inCard && name === 'number')) out[key] = lastFour(item);
    else out[key] = masked(item, name === 'card', depth + 1);
  }
  return out;
}

/** `value` (a parsed JSON body) as the log keeps it: masked, as JSON, cut at BODY_CHARS. */
export function maskedJson(value: unknown): string {
  const text = JSON.stringify(masked(value, false, 0)) ?? '';
  return text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS)}…` : text;
}

/** A JSON body as text (an answer's), as the log keeps it; not JSON: its text, masked. */
export function maskedText(text: string): string {
  if (text === '') return '';
  // Parsed only when it may hold a card field or number: most answers need no walk.
  if (!MAY_HOLD_CARD.test(text)) {
    return text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS)}…` : text;
  }
  try {
    return maskedJson(JSON.parse(text));
  } catch {
    const plain = maskString(text);
    return plain.length > BODY_CHARS ? `${plain.slice(0, BODY_CHARS)}…` : plain;
  }
}
