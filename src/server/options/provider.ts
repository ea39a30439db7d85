/**
 * The `provider` group: how the handler reaches the provider. Its URL rule (https, or http
 * on loopback) is the provider client's own, so the handler and a merchant's own client
 * refuse the same base URLs with the same words.
 */
import { assertSafeBaseUrl } from '../provider/base-url.ts';
import { group, milliseconds, optionalFunction, refuse, text, wholeNumber } from './check.ts';
import type { ProviderOptions } from './types.ts';

/** Per provider call, by default. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** Extra attempts of a provider GET, by default. */
export const PROVIDER_RETRIES = 2;

export type ResolvedProvider = ProviderOptions & { timeoutMs: number; retries: number };

export function resolveProvider(value: ProviderOptions | undefined): ResolvedProvider {
  const provider = group('provider', value, [
    'baseUrl',
    'apiKey',
    'merchantCode',
    'payToEmail',
    'timeoutMs',
    'retries',
    'fetch',
  ]);
  if (provider === undefined) {
    throw new TypeError(
      'createPaymentHandler: provider is required: { baseUrl, apiKey, merchantCode }',
    );
  }
  if (typeof provider.baseUrl !== 'string') refuse('provider.baseUrl', 'a URL', provider.baseUrl);
  try {
    assertSafeBaseUrl(provider.baseUrl);
  } catch (error) {
    throw new TypeError(`createPaymentHandler: provider.${(error as Error).message}`);
  }
  text('provider.apiKey', provider.apiKey);
  if (!provider.merchantCode) {
    throw new TypeError('createPaymentHandler: provider.merchantCode is required');
  }
  text('provider.merchantCode', provider.merchantCode);
  if (provider.payToEmail !== undefined) text('provider.payToEmail', provider.payToEmail);
  return {
    ...provider,
    timeoutMs: milliseconds('provider.timeoutMs', provider.timeoutMs, PROVIDER_TIMEOUT_MS, 1),
    retries: wholeNumber('provider.retries', provider.retries, PROVIDER_RETRIES, 0, 5),
    ...(provider.fetch === undefined
      ? {}
      : { fetch: optionalFunction('provider.fetch', provider.fetch) as typeof fetch }),
  };
}
