// The two servers this project starts, on loopback at free ports: a sandbox, and the demo shop
// paying through it. For the suites that check what each of them answers.
import {
  type ServerExample,
  type ServerExampleOptions,
  startServerExample,
} from '../../../server-example/index.ts';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';

export interface SandboxAndShop {
  sandbox: Sandbox;
  shop: ServerExample;
  /** Stops the shop, then the sandbox. */
  close(): Promise<void>;
}

export async function startSandboxAndShop(
  options: Partial<ServerExampleOptions> = {},
): Promise<SandboxAndShop> {
  const sandbox = await createSandbox({ port: 0 });
  const shop = await startServerExample({
    providerBaseUrl: sandbox.url,
    providerApiKey: sandbox.apiKey,
    merchantCode: sandbox.merchantCode,
    port: 0,
    ...options,
  }).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  return {
    sandbox,
    shop,
    close: async () => {
      await shop.close();
      await sandbox.close();
    },
  };
}
