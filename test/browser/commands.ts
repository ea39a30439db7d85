// Media emulation and the viewport in every engine the suite runs in. The stock
// emulateMedia and setViewport of @web/test-runner-commands need Chromium's
// protocol or Playwright; these reach the runner's engine-commands plugin, which
// does the same in Chromium, Firefox and WebKit. The stock sendKeys works in all three.
import { executeServerCommand } from '@web/test-runner-commands';

export interface Media {
  colorScheme?: 'light' | 'dark' | 'no-preference';
  reducedMotion?: 'reduce' | 'no-preference';
}

/** Makes the page see these user preferences; resolves once it does. */
export async function emulateMedia(media: Media): Promise<void> {
  await executeServerCommand('engine-emulate-media', media);
}

export interface Viewport {
  width: number;
  height: number;
}

/**
 * Resizes the page's viewport; resolves with the size the page has once it has
 * it. That can be more than asked: WebKitGTK's MiniBrowser window is never
 * narrower than its toolbar (447 px).
 */
export async function setViewport(viewport: Viewport): Promise<Viewport> {
  return executeServerCommand<Viewport, Viewport>('engine-set-viewport', viewport);
}

/**
 * Makes the page `viewport.width` wide: the viewport itself where the engine can, else the
 * body (WebKitGTK's MiniBrowser window is never narrower than its toolbar, 447 px; the widget
 * has no viewport media queries, so it cannot tell the two apart). Resolves to a function
 * that gives the body its width back and sets the viewport to `restoreTo`.
 */
export async function narrowViewport(
  viewport: Viewport,
  restoreTo: Viewport,
): Promise<() => Promise<void>> {
  const screen = await setViewport(viewport);
  if (screen.width > viewport.width) document.body.style.width = `${viewport.width}px`;
  return async () => {
    document.body.style.width = '';
    await setViewport(restoreTo);
  };
}
