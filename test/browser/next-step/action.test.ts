import { expect } from '@open-wc/testing';
import {
  type Action,
  type ActionContext,
  actionFor,
  isSafeUrl,
} from '../../../src/next-step/index.ts';

describe('isSafeUrl', () => {
  const cases: [string, boolean][] = [
    ['https://acs.example.com/challenge?x=1', true],
    ['HTTPS://ACS.EXAMPLE.COM/', true],
    ['http://127.0.0.1:4010/v0.1/checkouts/1/complete_payment', true],
    ['http://127.1.2.3/', true],
    ['http://localhost:3000/return', true],
    ['http://[::1]:4010/', true],
    ['http://example.com/', false],
    ['http://127.0.0.1.example.com/', false],
    ['http://localhost.example.com/', false],
    ['http://10.0.0.1/', false],
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['ftp://example.com/', false],
    ['//example.com/path', false],
    ['/relative/path', false],
    ['', false],
    ['not a url', false],
  ];
  for (const [url, safe] of cases) {
    it(`${safe ? 'accepts' : 'refuses'} ${JSON.stringify(url)}`, () => {
      expect(isSafeUrl(url)).to.equal(safe);
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
    paymentMethod: 'card',
  });
  const kind = (a: Action | undefined): string | undefined => a?.kind;

  it('sends a card 3DS step to the iframe or a full page as the challenge mode says', () => {
    expect(kind(actionFor(202, threeDs, card('iframe', true)))).to.equal('challenge-iframe');
    expect(kind(actionFor(202, threeDs, card('iframe', false)))).to.equal('challenge-iframe');
    expect(kind(actionFor(202, threeDs, card('redirect', false)))).to.equal('challenge-redirect');
    expect(kind(actionFor(202, threeDs, card('redirect', true)))).to.equal('challenge-redirect');
    expect(kind(actionFor(202, threeDs, card('auto', false)))).to.equal('challenge-iframe');
    expect(kind(actionFor(202, threeDs, card('auto', true)))).to.equal('challenge-redirect');
  });

  it('sends iDEAL, Bancontact and BLIK, and any step with a full URL, to an APM redirect', () => {
    for (const paymentMethod of ['ideal', 'bancontact', 'blik'] as const) {
      const a = actionFor(202, apm, { mode: 'iframe', hasRedirectUrl: true, paymentMethod });
      expect(kind(a)).to.equal('apm-redirect');
    }
    expect(kind(actionFor(202, apm, card('iframe', false)))).to.equal('apm-redirect');
  });

  it('shows a voucher for a 200 with a boleto', () => {
    const body = {
      id: 'c1',
      status: 'PENDING',
      boleto: { barcode: '123', url: 'https://x.example/b' },
    };
    const a = actionFor(200, body, {
      mode: 'auto',
      hasRedirectUrl: false,
      paymentMethod: 'boleto',
    });
    expect(a).to.deep.equal({ kind: 'voucher', checkout: body });
  });

  it('has nothing to do for a final 200, an error, or a body it does not understand', () => {
    const ctx = card('auto', false);
    expect(actionFor(200, { id: 'c1', status: 'PAID' }, ctx)).to.equal(undefined);
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
