// Contrast AA in both colour schemes, and no motion for shoppers who asked for
// none. The page follows the scheme the way a merchant's dark-capable page does
// (color-scheme and a Canvas background), so axe sees what a shopper sees.
import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { emulateMedia } from '../commands.ts';
import { $, FakeBackend, paste, widget } from '../widget/fake-backend.ts';
import { describeViolations, runAxe } from './axe.ts';

const METHODS = ['card', 'ideal', 'bancontact', 'blik', 'boleto'];

async function contrast(el: PaymentWidget, state: string): Promise<number> {
  await el.updateComplete;
  const results = await runAxe(el, { runOnly: ['color-contrast'], iframes: false });
  expect(describeViolations(results), state).to.deep.equal([]);
  return results.passes.flatMap((p) => p.nodes).length;
}

for (const scheme of ['light', 'dark'] as const) {
  describe(`contrast AA, ${scheme} scheme`, () => {
    let backend: FakeBackend;
    before(async () => {
      await emulateMedia({ colorScheme: scheme });
      document.documentElement.style.cssText = 'color-scheme: light dark; background: Canvas';
    });
    after(async () => {
      document.documentElement.style.cssText = '';
      await emulateMedia({ colorScheme: 'light' });
    });
    beforeEach(() => {
      backend = new FakeBackend();
      backend.methods = METHODS;
      backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    });
    afterEach(() => backend.restore());

    it('labels, hints, errors, choices, the button and the status text', async () => {
      const el = await widget(
        backend,
        'checkout-id="chk_1" locale="en-GB" show-email show-installments save-card',
      );
      // The scheme really switched: the label text is dark on light, light on dark.
      const [r = 0] = getComputedStyle($(el, 'label[for=number]'))
        .color.match(/\d+/g)
        ?.map(Number) ?? [0];
      expect(r > 128, `label colour in ${scheme}`).to.equal(scheme === 'dark');
      let checked = await contrast(el, 'empty');
      const invalid = oneEvent(el, 'payment-invalid');
      void el.submit();
      await invalid;
      checked += await contrast(el, 'errors');
      // Every node with text was looked at, not skipped as "cannot tell".
      expect(checked).to.be.greaterThan(15);
    });

    it('the success, failure and voucher states', async () => {
      for (const status of ['PAID', 'FAILED']) {
        backend.checkout = { ...backend.checkout, status };
        const el = await widget(backend, 'checkout-id="chk_1" locale="de-DE"', {
          waitFor: status === 'PAID' ? 'payment-success' : 'payment-failure',
        });
        expect(await contrast(el, status)).to.be.greaterThan(0);
        el.remove();
      }
      backend.checkout = { ...backend.checkout, status: 'PENDING' };
      backend.process = () => {
        backend.checkout = {
          ...backend.checkout,
          boleto: {
            barcode: '34191790010104351004791020150008291070026000',
            url: 'https://b.example/v.pdf',
          },
        };
        return { status: 200, body: backend.checkout };
      };
      const el = await widget(backend, 'checkout-id="chk_1" locale="pt-BR"');
      el.shadowRoot?.querySelectorAll<HTMLInputElement>('input[name=method]')[4]?.click();
      await el.updateComplete;
      const values: Record<string, string> = {
        firstName: 'Ana',
        lastName: 'Silva',
        email: 'ana@example.com',
        taxId: '12345678909',
        line1: 'Rua A 1',
        city: 'Recife',
        state: 'PE',
        postalCode: '50000-000',
      };
      for (const [id, value] of Object.entries(values)) paste($(el, `#${id}`), value);
      const pending = oneEvent(el, 'payment-pending');
      void el.submit();
      await pending;
      expect(await contrast(el, 'voucher')).to.be.greaterThan(2);
    });
  });
}

// The widget takes its scheme from the page, as the browser's own fields do: dark where the
// page says it is dark for this shopper (color-scheme), light on a page that says nothing,
// whatever the shopper's system (pale text on a white page was unreadable).
describe("the page's colour scheme", () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(async () => {
    backend.restore();
    document.documentElement.style.cssText = '';
    await emulateMedia({ colorScheme: 'light' });
  });

  /** Whether a computed colour is a pale one (its red channel, as above). */
  function pale(color: string): boolean {
    return (color.match(/\d+/g)?.map(Number)[0] ?? 0) > 128;
  }

  const CASES = [
    { page: '', system: 'dark', dark: false },
    { page: 'color-scheme: light', system: 'dark', dark: false },
    { page: 'color-scheme: light dark', system: 'dark', dark: true },
    { page: 'color-scheme: light dark', system: 'light', dark: false },
    { page: 'color-scheme: dark', system: 'light', dark: true },
  ] as const;
  for (const { page, system, dark } of CASES) {
    it(`is ${dark ? 'dark' : 'light'} on a page with ${page || 'no color-scheme'}, system ${system}`, async () => {
      await emulateMedia({ colorScheme: system });
      // The page's own background follows its scheme, as a page's default canvas does.
      document.documentElement.style.cssText = page && `${page}; background: Canvas`;
      const el = await widget(backend, 'checkout-id="chk_1" locale="en-GB"');
      expect(pale(getComputedStyle($(el, 'label[for=number]')).color), 'label text').to.equal(dark);
      expect(pale(getComputedStyle($(el, '#number')).backgroundColor), 'field').to.equal(!dark);
      expect(await contrast(el, `${page}, ${system}`)).to.be.greaterThan(5);
    });
  }
});

// A browser without light-dark() (Safari before 17.5, Firefox before 120, Chrome before 123)
// reads the same two palettes from prefers-color-scheme alone: this engine has it, so the
// test reads the rules such a browser would apply, as this engine parsed them.
describe('the palette for browsers without light-dark()', () => {
  it('is the same light and dark colours, for every colour', async () => {
    const backend = new FakeBackend();
    const el = await widget(backend, 'checkout-id="chk_1"');
    backend.restore();
    const rules = (el.shadowRoot?.adoptedStyleSheets ?? []).flatMap((s) => [...s.cssRules]);
    const colours = (rule: CSSRule | undefined): Map<string, string> => {
      const style = rule instanceof CSSStyleRule ? rule.style : undefined;
      const found = new Map<string, string>();
      for (const name of style ?? []) {
        const value = style?.getPropertyValue(name).replace(/\s+/g, ' ').trim() ?? '';
        if (name.startsWith('--_') && /#|light-dark/.test(value)) found.set(name, value);
      }
      return found;
    };
    const supports = (not: boolean): CSSRule[] =>
      rules.flatMap((r) =>
        r instanceof CSSSupportsRule && r.conditionText.startsWith('not') === not
          ? [...r.cssRules]
          : [],
      );
    const base = colours(
      rules.find((r) => r instanceof CSSStyleRule && r.selectorText === ':host'),
    );
    const modern = colours(supports(false)[0]);
    const media = supports(true)[0];
    const fallback = colours(media instanceof CSSMediaRule ? media.cssRules[0] : undefined);
    expect(media instanceof CSSMediaRule && media.conditionText).to.equal(
      '(prefers-color-scheme: dark)',
    );
    expect([...modern.keys()]).to.have.length.greaterThan(5);
    expect([...fallback.keys()]).to.deep.equal([...modern.keys()]);
    for (const [name, value] of modern) {
      const [, property, light, dark] =
        /^var\((--[\w-]+), light-dark\((#\w+), (#\w+)\)\)$/.exec(value) ?? [];
      expect(base.get(name), `${name} light`).to.equal(`var(${property}, ${light})`);
      expect(fallback.get(name), `${name} dark`).to.equal(`var(${property}, ${dark})`);
    }
  });
});

describe('prefers-reduced-motion', () => {
  let backend: FakeBackend;
  const merchantTheme = document.createElement('style');
  before(() => {
    // A merchant's theme that animates the button through ::part.
    merchantTheme.textContent = `
      @keyframes pulse { from { opacity: 1 } to { opacity: 0.5 } }
      payment-widget::part(button) { transition: background-color 400ms; animation: pulse 1s infinite; }
      payment-widget::part(input) { transition: border-color 300ms; }
    `;
    document.head.append(merchantTheme);
  });
  after(async () => {
    merchantTheme.remove();
    await emulateMedia({ reducedMotion: 'no-preference' });
  });
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  /** Everything in the widget that would move: its transitions and animations. */
  function motion(el: PaymentWidget): string[] {
    return [...(el.shadowRoot?.querySelectorAll<HTMLElement>('*') ?? [])].flatMap((node) => {
      const style = getComputedStyle(node);
      const moving = [];
      if (style.transitionDuration.split(',').some((d) => Number.parseFloat(d) > 0)) {
        moving.push(`${node.localName}#${node.id} transition ${style.transitionDuration}`);
      }
      if (style.animationName !== 'none') {
        moving.push(`${node.localName}#${node.id} animation ${style.animationName}`);
      }
      return moving;
    });
  }

  it("moves nothing, not even a merchant's ::part animation, when the shopper asks", async () => {
    await emulateMedia({ reducedMotion: 'no-preference' });
    const el = await widget(backend, 'checkout-id="chk_1"');
    // Without the preference the merchant's theme is theirs to animate.
    expect(motion(el).length).to.be.greaterThan(0);
    await emulateMedia({ reducedMotion: 'reduce' });
    expect(motion(el)).to.deep.equal([]);
  });
});
