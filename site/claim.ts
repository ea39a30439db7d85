/**
 * What a page the site's worker did not take (boot.ts) posts to the active worker, which then
 * takes it over (worker/sw.ts).
 */
export const CLAIM = 'claim';
