import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { en, type Strings } from './en.ts';
import { loadStrings, resolveLocale, withOverrides } from './load.ts';

/** What the locale controller reads from, and writes to, its element. */
interface LocaleHost extends ReactiveControllerHost, HTMLElement {
  locale: string | undefined;
  translations: Partial<Strings> | undefined;
}

/**
 * The words the element shows (`strings`): the strings of its locale
 * (loaded on first use) with the merchant's own wording on top. English until the locale's arrive,
 * so a form always renders. A new `locale` or `translations` loads their
 * strings before the render that follows; a checkout load asks too, and waits
 * for them before it shows the form.
 */
export class LocaleController implements ReactiveController {
  private _strings: Strings = en;
  private _request: Promise<Strings> | undefined;
  /** What the last load was for. */
  private _for: Pick<LocaleHost, 'locale' | 'translations'> | undefined;

  constructor(private readonly _host: LocaleHost) {
    _host.addController(this);
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
    return this._host.locale || document.documentElement.lang || navigator.language || 'en-GB';
  }

  /**
   * Loads the current locale's strings and shows them once loaded. Only the
   * latest request may: a locale file that arrives late must not replace a
   * newer choice.
   */
  load(): Promise<void> {
    const host = this._host;
    this._for = { locale: host.locale, translations: host.translations };
    const request = loadStrings(this.tag).then((s) => withOverrides(s, host.translations));
    this._request = request;
    return request.then((strings) => {
      if (this._request !== request) return;
      this._strings = strings;
      host.requestUpdate();
      // Screen readers pick their voice from `lang`: the widget's text is in
      // the locale it resolved, which may differ from the page's language.
      if (host.locale) host.lang = resolveLocale(host.locale);
    });
  }
}
