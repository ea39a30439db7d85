// The site takes the sandbox's test cards only: a payment with any other number is refused
// before the handler sees it, so a real card typed in by mistake goes nowhere.
import { errorJson } from '../../src/http/errors.ts';
import { isRecord } from '../../src/shared/record.ts';
import { isTestCard, NOT_A_TEST_CARD } from '../test-cards.ts';

/** The handler's process route (`PUT {payments}/checkouts/:id`). */
const PROCESS = /\/checkouts\/[^/]+$/;

/** A 400 naming `card.number` when `request` pays with a card that is not a test card. */
export async function refuseOtherCards(request: Request): Promise<Response | undefined> {
  if (request.method !== 'PUT' || !PROCESS.test(new URL(request.url).pathname)) return undefined;
  let body: unknown;
  try {
    body = await request.clone().json();
  } catch {
    return undefined; // Not JSON: the handler says so.
  }
  const card = isRecord(body) ? body.card : undefined;
  const number = isRecord(card) ? card.number : undefined;
  if (typeof number !== 'string' || isTestCard(number)) return undefined;
  return errorJson(400, 'INVALID', NOT_A_TEST_CARD, 'card.number');
}
