import type { ReactiveControllerHost } from 'lit';
import { en, type Strings } from './en.ts';
import { loadStrings, resolveLocale, withOverrides } from './load.ts';

/** What the locale controller reads from, and writes to, its element. */
export interface LocaleHost extends ReactiveControllerHost, HTMLElement {
  locale: string | undefined;
  translations: Partial<Strings> | undefined;
}

/**
 * The words the element shows: the strings of its locale (loaded on first use)
 * with the merchant's own wording on top. English until the locale's arrive,
 * so a form always renders. The element starts a load when its locale or
 * translations change (and the checkout controller with every checkout load);
 * no lifecycle callback of the host's is needed beyond requestUpdate.
 */
export class LocaleController {
  /** The strings on screen. */
  strings: Strings = en;
  private _request: Promise<Strings> | undefined;

  constructor(private readonly _host: LocaleHost) {}

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
    const request = loadStrings(this.tag).then((s) => withOverrides(s, host.translations));
    this._request = request;
    return request.then((strings) => {
      if (this._request !== request) return;
      this.strings = strings;
      // Screen readers pick their voice from `lang`: the widget's text is in
      // the locale it resolved, which may differ from the page's language.
      if (host.locale) host.lang = resolveLocale(host.locale);
      host.requestUpdate();
    });
  }
}
