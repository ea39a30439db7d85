import { expect } from '@open-wc/testing';
import {
  type Action,
  type ActionContext,
  actionFor,
  isSafeBrowserUrl,
} from '../../../src/next-step/index.ts';
import { isLoopbackHost } from '../../../src/shared/url.ts';
import { PAYING } from '../../../src/widget/methods/pay.ts';
import { BROWSER_URL_CASES, LOOPBACK_HOST_CASES } from '../../shared/browser-urls.ts';
import { notAHandlerAnswer } from '../../shared/handler-answers.ts';
import { checkoutWith } from './helpers.ts';

describe('isSafeBrowserUrl: the one URL rule, as the widget imports it', () => {
  for (const [url, safe] of BROWSER_URL_CASES) {
    it(`${safe ? 'accepts' : 'refuses'} ${JSON.stringify(url)}`, () => {
      expect(isSafeBrowserUrl(url)).to.equal(safe);
    });
  }
  for (const [host, loopback] of LOOPBACK_HOST_CASES) {
    it(`${loopback ? 'counts' : 'does not count'} ${JSON.stringify(host)} as loopback`, () => {
      expect(isLoopbackHost(host)).to.equal(loopback);
    });
  }
});

describe('actionFor', () => {
  const threeDs = {
    next_step: {
      url: 'https://acs.example.com/challenge',
      method: 'POST',
      payload: { PaReq: 'pa', MD: 'md', TermUrl: 'https://api.example.com/term' },
    },
  };
  const apm = {
    next_step: { url: 'https://bank.example.com/pay', full: 'https://bank.example.com/pay?id=1' },
  };
  const card = (mode: ActionContext['mode'], hasRedirectUrl: boolean): ActionContext => ({
    mode,
    hasRedirectUrl,
    expects: PAYING.card.step,
  });
  const kind = (a: Action | undefined): string | undefined => a?.kind;

  it("is given what the handler answers a payment with (the cases below that are not are a proxy's or a broken backend's)", () => {
    expect(notAHandlerAnswer('PUT', '/checkouts/chk_1', 202, threeDs)).to.equal(undefined);
    expect(notAHandlerAnswer('PUT', '/checkouts/chk_1', 202, apm)).to.equal(undefined);
  });

  it('sends a card 3DS step to the iframe or a full page as the challenge mode says', () => {
    expect(kind(actionFor(202, threeDs, card('iframe', true)))).to.equal('challenge-iframe');
    expect(kind(actionFor(202, threeDs, card('iframe', false)))).to.equal('challenge-iframe');
    expect(kind(actionFor(202, threeDs, card('redirect', false)))).to.equal('challenge-redirect');
    expect(kind(actionFor(202, threeDs, card('redirect', true)))).to.equal('challenge-redirect');
    expect(kind(actionFor(202, threeDs, card('auto', false)))).to.equal('challenge-iframe');
    expect(kind(actionFor(202, threeDs, card('auto', true)))).to.equal('challenge-redirect');
  });

  it('sends iDEAL, Bancontact and BLIK, and any step with a full URL, to an APM redirect', () => {
    for (const method of ['ideal', 'bancontact', 'blik'] as const) {
      const expects = PAYING[method].step;
      const a = actionFor(202, apm, { mode: 'iframe', hasRedirectUrl: true, expects });
      expect(kind(a)).to.equal('apm-redirect');
    }
    expect(kind(actionFor(202, apm, card('iframe', false)))).to.equal('apm-redirect');
  });

  it('shows a voucher for a 200 with a boleto', () => {
    const body = checkoutWith({ boleto: { barcode: '123', url: 'https://x.example/b' } });
    const a = actionFor(200, body, {
      mode: 'auto',
      hasRedirectUrl: false,
      expects: PAYING.boleto.step,
    });
    expect(a).to.deep.equal({ kind: 'voucher', checkout: body });
  });

  it('has nothing to do for a final 200, an error, or a body it does not understand', () => {
    const ctx = card('auto', false);
    expect(actionFor(200, checkoutWith({ status: 'PAID' }), ctx)).to.equal(undefined);
    expect(actionFor(400, { error: { code: 'INVALID' } }, ctx)).to.equal(undefined);
    expect(actionFor(202, {}, ctx)).to.equal(undefined);
    expect(actionFor(202, { next_step: 'https://x.example' }, ctx)).to.equal(undefined);
    expect(actionFor(202, null, ctx)).to.equal(undefined);
    expect(actionFor(202, 'text', ctx)).to.equal(undefined);
    expect(actionFor(500, threeDs, ctx)).to.equal(undefined);
  });

  it('keeps only the string fields a handler reads, stringifying scalar payload values', () => {
    const body = {
      next_step: {
        url: 'https://acs.example.com/',
        method: 7,
        payload: { MD: 12, PaReq: 'p', nested: { a: 1 } },
        mechanism: ['iframe', 3],
      },
    };
    const a = actionFor(202, body, card('iframe', false));
    expect(a).to.deep.equal({
      kind: 'challenge-iframe',
      nextStep: {
        url: 'https://acs.example.com/',
        payload: { MD: '12', PaReq: 'p' },
      },
    });
  });
});
