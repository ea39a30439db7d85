// src/domain/checkout.ts and src/shared/record.ts as the parts that the script-tag build
// loads from beside it see them (vite.parts.config.ts puts this file in their place): the
// functions the bundle also holds are the ones it lent (./kit-lent.ts), not a second copy
// in the part; the rest (constants, types) is the modules' own. So src/next-step, which
// knows nothing of the kit, still shares them with the bundle.
export * from '../../domain/checkout.ts';
export * from '../../shared/record.ts';
export { isFinalStatus, isRecord } from './kit-lent.ts';
