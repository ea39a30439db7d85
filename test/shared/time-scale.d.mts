/** The factor every test deadline is multiplied by (time-scale.mjs says how it is chosen). */
export declare const TIME_SCALE: number;
/** `ms` (what would do on an idle machine) scaled to this machine. */
export declare function scaled(ms: number): number;
