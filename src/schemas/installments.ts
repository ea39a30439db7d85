// The installments a request may ask for, 1 to 12: a card payment's process body and a reader
// checkout take the same rule. Internal: each schema that takes it is what is exported.
import * as z from 'zod/mini';
import { must } from './common.ts';

export const installmentsSchema = z.optional(
  z
    .int({ error: must('must be a whole number') })
    .check(z.minimum(1, { error: 'must be 1 to 12' }), z.maximum(12, { error: 'must be 1 to 12' })),
);
