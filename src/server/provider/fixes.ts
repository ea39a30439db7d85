/**
 * What a merchant's developer should change when the provider cannot be used: the option
 * to look at, named as the handler's options name it. Read by the handler's log and by
 * `createCheckout()`'s errors; the shopper's browser gets the option's name only, never
 * the provider's address.
 */
import { isLoopbackHost } from '../../shared/url.ts';
import type { ProviderError } from './errors.ts';

export interface Fix {
  /** For the browser's answer: the option to check. */
  short: string;
  /** For the log: the option, its value when it is not secret, and how to start the sandbox. */
  full: string;
  /** The log entry's `problem`: one console line a minute for it, however many requests meet it. */
  problem: 'provider-base-url' | 'provider-api-key';
}

export function fixFor(error: ProviderError, baseUrl: string): Fix | undefined {
  if (error.errorCode === 'PROVIDER_UNREACHABLE' || error.errorCode === 'PROVIDER_TIMEOUT') {
    let loopback = false;
    try {
      loopback = isLoopbackHost(new URL(baseUrl).hostname);
    } catch {
      loopback = false;
    }
    return {
      short: 'check the handler’s provider.baseUrl',
      problem: 'provider-base-url',
      full: `check provider.baseUrl (${baseUrl})${
        loopback
          ? ': it is on this machine; is the sandbox running there? Start it with npx payment-sandbox'
          : ''
      }`,
    };
  }
  if (error.kind === 'http' && error.status === 401) {
    return {
      short: 'check the handler’s provider.apiKey',
      full: 'the provider refused the key: check provider.apiKey (a key of this provider account; the sandbox’s is sk_test_sandbox)',
      problem: 'provider-api-key',
    };
  }
  return undefined;
}
