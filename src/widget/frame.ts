// A wait the bundle and the pay part both use: the bundle holds it, and lends it to the
// part through the kit (./parts/kit.ts), so a page loads it once.

/** After the next frame is drawn; at once in a hidden page, which draws none. */
export const nextFrame = (): Promise<void> =>
  new Promise((resolve) => {
    if (document.hidden) resolve();
    else requestAnimationFrame(() => setTimeout(resolve));
  });
