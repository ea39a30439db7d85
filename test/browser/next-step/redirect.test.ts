import { expect } from '@open-wc/testing';
import { runAction } from '../../../src/next-step/index.ts';
import { buildForm } from '../../../src/next-step/navigate.ts';
import { dispose, type Harness, harness } from './helpers.ts';

const payload = { PaReq: 'pareq', MD: 'md-1', TermUrl: 'https://api.example.com/term' };

describe('challenge-redirect', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => dispose(h));

  it('announces the challenge, then POSTs every payload key at the top level', async () => {
    const url = 'https://acs.example.com/challenge';
    const outcome = await runAction(
      { kind: 'challenge-redirect', nextStep: { url, method: 'POST', payload } },
      h.ctx,
    );
    expect(outcome).to.deep.equal({ kind: 'navigating' });
    expect(h.challenges).to.deep.equal([{ mode: 'redirect', url }]);
    expect(h.navigations).to.deep.equal([{ url, method: 'POST', fields: payload }]);
  });

  it('uses GET when next_step says so', async () => {
    const url = 'https://acs.example.com/challenge';
    await runAction(
      { kind: 'challenge-redirect', nextStep: { url, method: 'get', payload } },
      h.ctx,
    );
    expect(h.navigations[0]?.method).to.equal('GET');
  });

  for (const [what, nextStep] of [
    ['a javascript: url', { url: 'javascript:alert(document.cookie)', payload }],
    ['an http url off loopback', { url: 'http://example.com/acs', payload }],
    [
      'an unsafe TermUrl',
      { url: 'https://acs.example.com/', payload: { ...payload, TermUrl: 'http://example.com/t' } },
    ],
    ['no url', { payload }],
  ] as const) {
    it(`refuses ${what}: nothing announced, nothing navigated`, async () => {
      const outcome = await runAction({ kind: 'challenge-redirect', nextStep }, h.ctx);
      expect(outcome.kind).to.equal('refused');
      expect(outcome).to.have.property('code', 'UNSAFE_NEXT_STEP');
      expect(h.navigations).to.have.length(0);
      expect(h.challenges).to.have.length(0);
    });
  }
});

describe('apm-redirect', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => dispose(h));

  it('goes to next_step.full as it is', async () => {
    const full = 'https://bank.example.com/ideal?checkout=c1&sig=abc';
    const outcome = await runAction(
      {
        kind: 'apm-redirect',
        nextStep: { url: 'https://bank.example.com/ideal', full, payload: { x: '1' } },
      },
      h.ctx,
    );
    expect(outcome).to.deep.equal({ kind: 'navigating' });
    expect(h.challenges).to.deep.equal([{ mode: 'redirect', url: full }]);
    expect(h.navigations).to.deep.equal([{ url: full, method: 'GET', fields: {} }]);
  });

  it('builds the URL from url + payload as a query when there is no full URL', async () => {
    await runAction(
      {
        kind: 'apm-redirect',
        nextStep: {
          url: 'https://bank.example.com/blik?a=1',
          payload: { code: '777 123', id: 'c1' },
        },
      },
      h.ctx,
    );
    expect(h.navigations).to.deep.equal([
      { url: 'https://bank.example.com/blik?a=1&code=777+123&id=c1', method: 'GET', fields: {} },
    ]);
  });

  it('refuses a javascript: full URL and http://example.com', async () => {
    for (const full of ['javascript:alert(1)', 'http://example.com/pay']) {
      const outcome = await runAction(
        { kind: 'apm-redirect', nextStep: { url: 'https://bank.example.com/', full } },
        h.ctx,
      );
      expect(outcome.kind).to.equal('refused');
    }
    expect(h.navigations).to.have.length(0);
    expect(h.challenges).to.have.length(0);
  });
});

describe('the default top-level form', () => {
  it('POSTs one hidden input per field to the URL', () => {
    const form = buildForm({
      url: 'https://acs.example.com/c?s=1',
      method: 'POST',
      fields: payload,
    });
    expect(form.method).to.equal('post');
    expect(form.action).to.equal('https://acs.example.com/c?s=1');
    const inputs = [...form.querySelectorAll('input')];
    expect(inputs.map((i) => [i.type, i.name, i.value])).to.deep.equal(
      Object.entries(payload).map(([k, v]) => ['hidden', k, v]),
    );
  });

  it('keeps the URL query as fields for a GET (a GET form would drop it)', () => {
    const form = buildForm({
      url: 'https://acs.example.com/c?s=1',
      method: 'GET',
      fields: { MD: 'm' },
    });
    expect(form.method).to.equal('get');
    expect(form.action).to.equal('https://acs.example.com/c');
    const fields = [...new FormData(form).entries()];
    expect(fields).to.deep.equal([
      ['s', '1'],
      ['MD', 'm'],
    ]);
  });
});
