import { isServer, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { Strings } from './en.ts';
import { formWords } from './english/form.ts';
import { loadOwnStrings, type OwnStrings, withOverrides } from './load.ts';

/** What the locale controller reads from, and writes to, its element. */
interface LocaleHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  locale: string | undefined;
  translations: Partial<Strings> | undefined;
}

/**
 * The words the element shows (`strings`): the strings of its locale (loaded on first use)
 * over English, with the merchant's own wording on top. English is the form's words at
 * first, and each part's words join as the part arrives (addEnglish), so a part reads its
 * own keys only once it has loaded; a locale's module carries every key. English until
 * the locale's arrive, so a form always renders. A new `locale` or `translations` loads
 * their strings before the render that follows; a checkout load asks too, and waits for
 * them before it shows the form.
 */
export class LocaleController implements ReactiveController {
  /** English as far as it has arrived: the form's words, then each loaded part's. */
  private _english: Partial<Strings> = formWords;
  /** The locale's own words: none for English. */
  private _own: Partial<Strings> = {};
  private _strings = formWords as Strings;
  private _request: Promise<OwnStrings> | undefined;
  /** What the last load was for. */
  private _for: Pick<LocaleHost, 'locale' | 'translations'> | undefined;

  private readonly _host: LocaleHost;
  /** Told why a locale's strings could not load (a file that failed its integrity check). */
  private readonly _failed: (error: unknown) => void;

  constructor(host: LocaleHost, failed: (error: unknown) => void) {
    this._host = host;
    this._failed = failed;
    host.addController(this);
  }

  /**
   * Screen readers pick their voice from `lang`: the widget's text is in the locale it
   * resolved, which may differ from the page's language. Said on what the widget renders
   * (each top-level element of its shadow root, after every render), never on the host,
   * whose attributes are the page's own (a server render's, which hydration compares).
   */
  private _lang = '';

  hostUpdated(): void {
    const lang = this._lang;
    for (const el of this._host.renderRoot.children) {
      if (lang) el.setAttribute('lang', lang);
      else el.removeAttribute('lang');
    }
  }

  hostUpdate(): void {
    const { locale, translations } = this._host;
    const last = this._for;
    if (last && last.locale === locale && last.translations === translations) return;
    void this.load();
  }

  /** The words on screen: English until the locale's have loaded. */
  get strings(): Strings {
    return this._strings;
  }

  /** The tag the page asked for: the element's locale, the page's lang, the browser's, en-GB. */
  get tag(): string {
    // A server render (Lit SSR) has no page: the browser's hydration then reads it.
    return (
      this._host.locale ||
      (isServer ? '' : document.documentElement.lang) ||
      navigator.language ||
      'en-GB'
    );
  }

  /** A part's English words, arrived with it (under the locale's own, which has every key). */
  addEnglish(words: Partial<Strings>): void {
    this._english = { ...this._english, ...words };
    this._compose();
  }

  /**
   * Loads the current locale's strings and shows them once loaded. Only the
   * latest request may: a locale file that arrives late must not replace a
   * newer choice.
   */
  load(): Promise<void> {
    const host = this._host;
    this._for = { locale: host.locale, translations: host.translations };
    const request = loadOwnStrings(this.tag);
    this._request = request;
    return request.then(({ locale, strings, failed }) => {
      if (failed) this._failed(failed);
      if (this._request !== request) return;
      this._lang = host.locale ? locale : '';
      this._own = strings;
      this._compose();
    });
  }

  private _compose(): void {
    const words = { ...this._english, ...this._own } as Strings;
    this._strings = withOverrides(words, this._for?.translations);
    this._host.requestUpdate();
  }
}
