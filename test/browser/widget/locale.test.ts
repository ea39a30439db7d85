import { expect } from '@open-wc/testing';
import { besideBundle } from '../../../src/shared/bundle-url.ts';
import { loadStrings } from '../../../src/widget/locales/all.ts';
import { localeUrl } from '../../../src/widget/locales/languages-beside.ts';
import { format, languageOf } from '../../../src/widget/locales/load.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, text, widget } from './fake-backend.ts';

describe('payment-widget: locales', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('loads German lazily and formats the amount the German way', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    el.locale = 'de-DE';
    await until('the German strings', () => text(el).includes('Kartennummer'));
    expect(text(el)).to.include('Kartennummer').and.include('Sicherheitscode');
    const label = $(el, 'button[part~=button]').textContent?.trim().replace(/\s/g, ' ');
    expect(label).to.equal('10,00 € bezahlen');
  });

  it('keeps the newest locale when an older one finishes loading later', async () => {
    const el = await widget(backend, 'checkout-id="chk_1"');
    // Finnish is fetched (a module not loaded before in this page), then the
    // shopper switches to English, which is bundled and ready at once.
    el.locale = 'fi-FI';
    await el.updateComplete;
    el.locale = 'en-GB';
    await el.updateComplete;
    // The Finnish file arrives after English was shown.
    expect(await loadStrings('fi-FI')).to.have.property('cardNumber', 'Kortin numero');
    // Every promise chain the file's arrival set off (the widget's among them) has run by the
    // next task: the widget has had its chance to take the late strings.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await el.updateComplete;
    expect(text(el)).to.include('Card number').and.not.include('Kortin numero');
  });

  it('falls back to English for a language with no module', async () => {
    const el = await widget(backend, 'checkout-id="chk_1" locale="xx-YY"');
    expect(text(el)).to.include('Card number');
    expect(await loadStrings('zz')).to.have.property('cardNumber', 'Card number');
  });

  it('uses the page language when no locale is set', async () => {
    document.documentElement.lang = 'de';
    try {
      const el = await widget(backend, 'checkout-id="chk_1" locale=""');
      expect(text(el)).to.include('Kartennummer');
    } finally {
      document.documentElement.lang = '';
    }
  });

  it('finds the parts beside the bundle, and the locales beside the languages part', () => {
    // The languages part of a build (parts/languages.js) finds each locale in ../locales/.
    expect(localeUrl('de', 'https://cdn.example/pw/parts/languages.js')).to.equal(
      'https://cdn.example/pw/locales/de.js',
    );
    // What ships beside a build is found beside the bundle, wherever the page is.
    expect(
      besideBundle('./parts/pay.js', 'https://cdn.example/pw/payment-widget.iife.js'),
    ).to.equal('https://cdn.example/pw/parts/pay.js');
    expect(languageOf('pt-BR')).to.equal('pt');
    expect(languageOf('../evil')).to.equal('');
    expect(format('Pay {amount}', { amount: '€1.00' })).to.equal('Pay €1.00');
  });
});
