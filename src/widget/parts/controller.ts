import {
  adoptStyles,
  type CSSResult,
  type ReactiveControllerHost,
  supportsAdoptingStyleSheets,
} from 'lit';
import { emit } from '../events.ts';
import type { Strings } from '../locales/en.ts';
import { importPart, judgeFailure } from './imports.ts';
import type { Failing, PartModules, PartName } from './types.ts';

/** What the parts controller needs of its element. */
interface PartsHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The companion handler, which hears of a file of the widget that failed its check. */
  readonly endpoint: string;
}

/**
 * The parts of the widget that load when they are needed (./imports.ts): which have
 * loaded, and which the shopper is waiting for that could not. A part's styles join the
 * element's when it arrives, its English words the locale's (`addWords`), and the element
 * renders again. A part that fails to load is said in the console each time and, where the
 * shopper needs it now (need()), in the widget, whose "Try again" asks again (retry()), and
 * to the page; one that no retry can load stops the widget (failed()), which says why.
 */
export class PartsController implements Failing {
  private readonly _loaded: Partial<PartModules> = {};
  /** Each part's load, kept once it has loaded; one that failed is let go, to be asked again. */
  private readonly _loads = new Map<PartName, Promise<unknown>>();
  /** Parts needed now that could not load: the widget says so and offers to try again. */
  private readonly _missing = new Set<PartName>();
  /**
   * A file of the widget could not run, and no retry can change that (its bytes were not the
   * ones built, or the page's bundler cannot load it): the widget shows only that it could
   * not be loaded, for good (stop()).
   */
  stopped?: boolean;

  readonly host: PartsHost;
  /** Where a part's English words go (the locale controller). */
  private readonly _addWords: (words: Partial<Strings>) => void;

  constructor(host: PartsHost, addWords: (words: Partial<Strings>) => void) {
    this.host = host;
    this._addWords = addWords;
  }

  /** The part, if it has loaded. */
  get<N extends PartName>(name: N): PartModules[N] | undefined {
    return this._loaded[name];
  }

  /** Whether a part that is to be shown could not load. */
  get missing(): boolean {
    return this._missing.size > 0;
  }

  /** Loads a part (once; again after a failure); rejects when it cannot load. */
  load<N extends PartName>(name: N): Promise<PartModules[N]> {
    let pending = this._loads.get(name) as Promise<PartModules[N]> | undefined;
    if (!pending) {
      pending = importPart(name).then(
        (module) => {
          this._adopt(module);
          if ('words' in module) this._addWords(module.words);
          this._loaded[name] = module;
          this._missing.delete(name);
          this.host.requestUpdate();
          return module;
        },
        async (error: unknown) => {
          this._loads.delete(name);
          console.error(`payment-widget: its "${name}" part could not load (${error})`);
          // Rejected once the failure is judged: one that stops the widget has stopped it.
          await this.failed(error, name);
          throw error;
        },
      );
      this._loads.set(name, pending);
    }
    return pending;
  }

  /**
   * Loads a part the shopper needs now: when it cannot load, the widget says so (`missing`)
   * until it has, and this resolves with nothing. The page hears it once while it is
   * missing, as a call that got no answer (offline, or a file not there: no browser says
   * which), unless the failure stopped the widget, which said why (failed()).
   */
  need<N extends PartName>(name: N): Promise<PartModules[N] | undefined> {
    return this.load(name).catch((error: unknown) => {
      if (!(this.stopped || this._missing.has(name)))
        emit(this.host, 'payment-error', {
          code: 'NETWORK_ERROR',
          message: `its "${name}" part could not load (${error})`,
          retryable: true,
        });
      this._missing.add(name);
      this.host.requestUpdate();
      return undefined;
    });
  }

  /**
   * A file of the widget could not load (`part`, or a locale's strings): what that means is
   * judged as the build loads its files (./imports.ts, ./imports-beside.ts), which may stop
   * the widget; this settles once it is judged. Any other failure is the caller's to say.
   */
  failed(error: unknown, part?: PartName): Promise<void> | void {
    // The part that judges a failed file does not judge itself.
    if (part !== 'diagnostics') return judgeFailure(error, this, part);
  }

  /** Stops the widget for good, with the words it shows now; says whether it was running. */
  stop(words: Partial<Strings>): boolean {
    if (this.stopped) return false;
    this.stopped = true;
    this._addWords(words);
    return true;
  }

  /** "Try again": every part that was needed and could not load. */
  retry(): void {
    for (const name of this._missing) void this.need(name);
  }

  /**
   * A part's styles (one sheet or several) join the element's, through Lit's adoptStyles():
   * it sets the root's constructable sheets, so the element's own go in again before the
   * part's; without constructable sheets it adds a <style> per sheet after those there.
   */
  private _adopt(module: object): void {
    if (!('styles' in module)) return;
    const root = this.host.renderRoot as ShadowRoot;
    const styles = [module.styles as CSSResult | CSSResult[]].flat();
    adoptStyles(
      root,
      supportsAdoptingStyleSheets ? [...root.adoptedStyleSheets, ...styles] : styles,
    );
  }
}
