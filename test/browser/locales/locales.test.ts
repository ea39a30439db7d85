import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { mount } from '../../../src/index.ts';
import { loadStrings, ownStrings, TAGS } from '../../../src/widget/locales/all.ts';
import { en } from '../../../src/widget/locales/en.ts';
import { format } from '../../../src/widget/locales/load.ts';
import { resolveLocale } from '../../../src/widget/locales/tags.ts';
import { until } from '../../shared/until.ts';
import { narrowViewport } from '../commands.ts';
import { $, FakeBackend, widget } from '../widget/fake-backend.ts';

/** The 38 locales the widget speaks. */
const REQUIRED = [
  'bg-BG',
  'cs-CZ',
  'da-DK',
  'de-AT',
  'de-CH',
  'de-DE',
  'de-LU',
  'el-CY',
  'el-GR',
  'en-GB',
  'en-IE',
  'en-MT',
  'en-US',
  'es-CL',
  'es-ES',
  'et-EE',
  'fi-FI',
  'fr-BE',
  'fr-CH',
  'fr-FR',
  'fr-LU',
  'hu-HU',
  'it-CH',
  'it-IT',
  'lt-LT',
  'lv-LV',
  'nb-NO',
  'nl-BE',
  'nl-NL',
  'pl-PL',
  'pt-BR',
  'pt-PT',
  'sk-SK',
  'sl-SI',
  'sv-SE',
  'hr-HR',
  'ro-RO',
  'es-CO',
];

const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();
/** A method's radio, found by its label: the radios carry no value attribute. */
function radio(el: PaymentWidget, method: 'card' | 'boleto'): HTMLInputElement {
  const radios = [
    ...(el.shadowRoot?.querySelectorAll<HTMLInputElement>('input[name=method]') ?? []),
  ];
  const found = method === 'card' ? radios[0] : radios.at(-1);
  if (!found) throw new Error(`no ${method} radio`);
  return found;
}

const shown = (el: PaymentWidget, selector: string) =>
  ($(el, selector).textContent ?? '').replace(/\s+/g, ' ').trim();

/** Waits until the widget shows `tag`'s own label for the card number. */
async function inLocale(el: PaymentWidget, tag: string): Promise<void> {
  const want = ownStrings(tag).cardNumber;
  await until(`${tag} to arrive`, () => shown(el, 'label[for=number]') === want);
}

describe('locales', () => {
  it('supports exactly the 38 locales of the issue', () => {
    expect([...TAGS].sort()).to.deep.equal([...REQUIRED].sort());
  });

  it('gives every locale every key, no extra key, and the same placeholders as English', () => {
    const keys = Object.keys(en).sort();
    for (const tag of TAGS) {
      const strings = ownStrings(tag);
      expect(Object.keys(strings).sort(), tag).to.deep.equal(keys);
      for (const key of keys) {
        const value = strings[key as keyof typeof en];
        expect(value, `${tag} ${key}`).to.be.a('string').and.not.equal('');
        expect(placeholders(value ?? ''), `${tag} ${key}`).to.deep.equal(
          placeholders(en[key as keyof typeof en]),
        );
      }
    }
  });

  it('never lets a line part the minutes to wait from their unit, in any locale', () => {
    for (const tag of TAGS) {
      const text = ownStrings(tag).errTooMany ?? '';
      // "10" at a line's end and "min." at the next's start read as two things.
      expect(text, tag).to.match(/\{minutes\}\u00a0\S/);
    }
  });

  it('translates every word a shopper reads outside English (brand names aside)', () => {
    const brands = new Set(['ideal', 'bancontact', 'blik', 'boleto', 'taxId']);
    for (const tag of TAGS.filter((t) => !t.startsWith('en-'))) {
      const strings = ownStrings(tag);
      const untranslated = Object.keys(en).filter(
        (key) => !brands.has(key) && strings[key as keyof typeof en] === en[key as keyof typeof en],
      );
      // Words that are the same in the language itself: "E-mail" in several,
      // "Barcode" in German, "Card" in Romanian. Nothing else may stay English.
      const same = ['email', ...(tag.startsWith('de-') ? ['voucherBarcode'] : [])];
      if (tag === 'ro-RO') same.push('card');
      expect(
        untranslated.filter((k) => !same.includes(k)),
        tag,
      ).to.deep.equal([]);
    }
  });

  it('keeps regional differences: pt-BR is not pt-PT, de-CH writes no ß, es-CL says cuotas', () => {
    expect(ownStrings('pt-BR').installments).to.equal('Parcelas');
    expect(ownStrings('pt-PT').installments).to.equal('Prestações');
    expect(ownStrings('pt-BR').postalCode).to.equal('CEP');
    expect(ownStrings('de-DE').addressLine).to.equal('Straße und Hausnummer');
    expect(ownStrings('de-CH').addressLine).to.equal('Strasse und Hausnummer');
    expect(ownStrings('es-ES').installments).to.equal('Plazos');
    expect(ownStrings('es-CL').installments).to.equal('Cuotas');
    expect(ownStrings('es-CO').expiry).to.equal('Fecha de vencimiento');
    expect(ownStrings('fr-CH').postalCode).to.equal('NPA');
    expect(ownStrings('fr-FR').postalCode).to.equal('Code postal');
  });

  it('reads any tag as the nearest supported locale', () => {
    expect(resolveLocale('de_ch')).to.equal('de-CH');
    expect(resolveLocale('pt')).to.equal('pt-PT');
    expect(resolveLocale('pt-br')).to.equal('pt-BR');
    expect(resolveLocale('fr-CA')).to.equal('fr-FR');
    expect(resolveLocale('de-Latn-CH')).to.equal('de-CH');
    expect(resolveLocale('no')).to.equal('nb-NO');
    expect(resolveLocale('en-US')).to.equal('en-US');
    expect(resolveLocale('ja-JP')).to.equal('en-GB');
    expect(resolveLocale('')).to.equal('en-GB');
  });

  it('loads each locale lazily with its region applied', async () => {
    for (const tag of TAGS) {
      expect(await loadStrings(tag), tag).to.deep.equal({ ...en, ...ownStrings(tag) });
    }
  });

  describe('in the element', () => {
    let backend: FakeBackend;
    beforeEach(() => {
      backend = new FakeBackend();
    });
    afterEach(() => backend.restore());

    it('labels the fields and formats the amount in each locale through Intl', async () => {
      backend.checkout = { ...backend.checkout, amount: 1234.5, currency: 'EUR' };
      const el = await widget(backend, 'checkout-id="chk_1" locale="en-GB"');
      for (const tag of TAGS) {
        el.locale = tag;
        await inLocale(el, tag);
        const s = ownStrings(tag);
        const amount = new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR' }).format(
          1234.5,
        );
        expect(shown(el, 'button[part~=button]'), tag).to.equal(
          format(s.pay ?? '', { amount }).replace(/\s+/g, ' '),
        );
        expect(shown(el, 'label[for=cvv]'), tag).to.equal(s.cvv);
      }
    });

    it('tells screen readers the language it speaks when given a locale', async () => {
      // The page is English; the widget speaks German, then Brazilian Portuguese.
      const el = await widget(backend, 'checkout-id="chk_1" locale="de-DE"');
      // Said on what it renders: the host's attributes are the page's own.
      const spoken = () =>
        [...(el.shadowRoot?.children ?? [])].map((child) => child.getAttribute('lang') ?? '');
      await inLocale(el, 'de-DE');
      await el.updateComplete;
      expect(new Set(spoken())).to.deep.equal(new Set(['de-DE']));
      expect(el.hasAttribute('lang')).to.equal(false);
      el.locale = 'pt_br';
      await inLocale(el, 'pt-BR');
      await el.updateComplete;
      expect(new Set(spoken())).to.deep.equal(new Set(['pt-BR']));
      // No locale of its own: the page's language again.
      el.locale = undefined;
      await inLocale(el, 'en-GB');
      await el.updateComplete;
      expect(new Set(spoken())).to.deep.equal(new Set(['']));
      el.remove();
    });

    it('lets the merchant reword any string, on the element or through mount()', async () => {
      const el = await widget(backend, 'checkout-id="chk_1" locale="de-DE"');
      el.translations = { pay: 'Bestellen für {amount}', cardNumber: 'Ihre Kartennummer' };
      await until(
        'the merchant’s own words',
        () => shown(el, 'label[for=number]') === 'Ihre Kartennummer',
      );
      expect(shown(el, 'button[part~=button]')).to.equal('Bestellen für 10,00 €');
      // The rest stays German; a wrong key or a non-string value changes nothing.
      expect(shown(el, 'label[for=cvv]')).to.equal('Sicherheitscode');
      el.translations = { cvv: 42, nonsense: 'x' } as unknown as typeof el.translations;
      await until('German again', () => shown(el, 'label[for=number]') === 'Kartennummer');
      expect(shown(el, 'label[for=cvv]')).to.equal('Sicherheitscode');
      el.remove();

      const host = document.createElement('div');
      host.id = 'mount-translations';
      document.body.append(host);
      try {
        const mounted = mount({
          id: host.id,
          checkoutId: 'chk_1',
          locale: 'pt-BR',
          translations: { pay: 'Finalizar compra de {amount}' },
        });
        const node = host.querySelector('payment-widget') as PaymentWidget;
        await oneEvent(node, 'payment-ready');
        await until('Portuguese', () => shown(node, 'label[for=number]') === 'Número do cartão');
        expect(shown(node, 'button[part~=button]')).to.equal('Finalizar compra de € 10,00');
        mounted.update({ translations: { pay: 'Pagar agora {amount}' } });
        await until(
          'the new words',
          () => shown(node, 'button[part~=button]') === 'Pagar agora € 10,00',
        );
        mounted.unmount();
      } finally {
        host.remove();
      }
    });
  });

  describe('at 320 px', () => {
    let backend: FakeBackend;
    let restore = async () => {};
    before(async () => {
      // In WebKit the body is held to 320 px instead, and its own text metrics still get checked.
      restore = await narrowViewport({ width: 320, height: 900 }, { width: 800, height: 600 });
      document.body.style.margin = '0';
    });
    after(async () => {
      document.body.style.margin = '';
      await restore();
    });
    beforeEach(() => {
      backend = new FakeBackend();
    });
    afterEach(() => backend.restore());

    /** Whatever sticks out of the widget: the host's own overflow, then each part's box. */
    function overflow(el: PaymentWidget, tag: string, state: string): string[] {
      const found: string[] = [];
      if (el.scrollWidth > el.clientWidth) {
        found.push(
          `${tag} ${state}: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`,
        );
      }
      const right = el.getBoundingClientRect().right;
      for (const node of el.shadowRoot?.querySelectorAll<HTMLElement>('*') ?? []) {
        const box = node.getBoundingClientRect();
        if (box.width > 0 && box.right > right + 0.5) {
          found.push(
            `${tag} ${state}: ${node.localName}#${node.id} ends at ${box.right} > ${right}`,
          );
        }
        if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0) {
          const style = getComputedStyle(node);
          if (style.overflowX !== 'visible') continue;
          found.push(`${tag} ${state}: ${node.localName}#${node.id} text is cut`);
        }
      }
      return found;
    }

    it('renders every locale without overflow: all methods, every field, every error', async () => {
      backend.methods = ['card', 'ideal', 'bancontact', 'blik', 'boleto'];
      // The longest amount a shopper is likely to see on the button.
      backend.checkout = {
        ...backend.checkout,
        amount: 123456.78,
        currency: 'BRL',
        redirect_url: 'https://shop.example/return',
      };
      const el = await widget(
        backend,
        'checkout-id="chk_1" locale="en-GB" show-zip-code show-email show-installments donate',
      );
      expect(el.clientWidth).to.equal(320);
      const problems: string[] = [];
      for (const tag of TAGS) {
        el.locale = tag;
        el.reset();
        radio(el, 'card').click();
        await el.updateComplete;
        await inLocale(el, tag);
        problems.push(...overflow(el, tag, 'card'));
        await el.submit();
        await el.updateComplete;
        problems.push(...overflow(el, tag, 'card errors'));
        radio(el, 'boleto').click();
        await el.updateComplete;
        await el.submit();
        await el.updateComplete;
        expect(shown(el, '#taxId-error'), tag).to.equal(ownStrings(tag).errRequired);
        problems.push(...overflow(el, tag, 'boleto errors'));
      }
      expect(problems).to.deep.equal([]);
    });
  });
});
