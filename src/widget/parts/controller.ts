import {
  adoptStyles,
  type CSSResult,
  type ReactiveControllerHost,
  supportsAdoptingStyleSheets,
} from 'lit';
import { importPart } from './imports.ts';
import type { PartModules, PartName } from './types.ts';

/** What the parts controller needs of its element. */
interface PartsHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/**
 * The parts of the widget that load when they are needed (./imports.ts): which have
 * loaded, and which the shopper is waiting for that could not. A part's styles join the
 * element's when it arrives, and the element renders again. A part that fails to load is
 * said once in the console and, where it was to be shown, in the widget, whose "Try again"
 * asks again (retry()).
 */
export class PartsController {
  private readonly _loaded: Partial<PartModules> = {};
  private readonly _pending = new Map<PartName, Promise<unknown>>();
  /** Parts to be shown that could not load: the widget says so and offers to try again. */
  private readonly _missing = new Set<PartName>();

  private readonly _host: PartsHost;

  constructor(host: PartsHost) {
    this._host = host;
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
    const loaded = this._loaded[name];
    if (loaded) return Promise.resolve(loaded);
    let pending = this._pending.get(name) as Promise<PartModules[N]> | undefined;
    if (!pending) {
      pending = importPart(name).then(
        (module) => {
          this._pending.delete(name);
          this._adopt(module);
          this._loaded[name] = module;
          this._missing.delete(name);
          this._host.requestUpdate();
          return module;
        },
        (error: unknown) => {
          this._pending.delete(name);
          console.error(
            `payment-widget: its "${name}" part could not load (${error instanceof Error ? error.message : String(error)})`,
          );
          throw error;
        },
      );
      this._pending.set(name, pending);
    }
    return pending;
  }

  /**
   * Loads a part the shopper is to see: when it cannot load, the widget says so (`missing`)
   * until it has.
   */
  show(name: PartName): void {
    this.load(name).catch(() => {
      this._missing.add(name);
      this._host.requestUpdate();
    });
  }

  /** "Try again": every part that was to be shown and could not load. */
  retry(): void {
    for (const name of this._missing) this.show(name);
  }

  /** A part's styles join the element's (as Lit adopts them, or as <style> without constructable sheets). */
  private _adopt(module: object): void {
    const root = this._host.renderRoot as ShadowRoot;
    const styles = 'styles' in module ? (module.styles as CSSResult) : undefined;
    if (!styles) return;
    if (!supportsAdoptingStyleSheets) adoptStyles(root, [styles]);
    else if (styles.styleSheet)
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, styles.styleSheet];
  }
}
