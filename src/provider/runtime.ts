/**
 * One provider runtime per dynamic-provider process, whatever number of resource kinds and serialized
 * stubs the host holds. Pulumi's host (`@pulumi/pulumi/cmd/dynamic-provider`) keeps one provider
 * object per distinct serialized provider text and calls its `configure` the first time that text is
 * used; every stub of this package hands that call to the one runtime here. So:
 *
 * - the first `configure` builds the session: one api client and the listings shared by every kind;
 * - a later `configure` with the same configuration changes nothing, so the per-process bookkeeping
 *   the create-once guarantee rests on (claimed endpoints, the pre-create listing, the directory)
 *   survives a second stub being used mid-deployment (another resource kind, or a stack's old stub);
 * - a `configure` with a different configuration (another key or address: another account or platform,
 *   which the old bookkeeping does not describe; another API path, `runpod:api`) gets a new client and
 *   fresh bookkeeping; operations already running finish on the old ones.
 */
import { createHash } from "crypto";
import type { ClientConfigInput } from "../api";
import type { AnyKind, ResourceOperations } from "./kind";
import { KINDS, type ResourceKindName } from "./kinds";
import type { CatalogReads } from "./catalog/queries";
import { catalogSettingsInput } from "./catalog/settings";
import { apiPathFromConfig, clientInputFromConfig, PULUMI_CONFIG_KEYS, type ConfigSource } from "./providerConfig";
import { PlatformSession } from "./session";

export class ProviderRuntime {
  private fingerprint?: string;
  private session: PlatformSession;
  private providers = new Map<string, Promise<ResourceOperations>>();
  private configurations = 0;

  private readonly kinds: ReadonlyMap<string, AnyKind>;

  /** @param lookupWindowMs the sessions' listing window (kindSession.ts); a test pins it so its counts do not depend on machine speed. */
  constructor(
    kinds: readonly AnyKind[] = KINDS,
    private readonly lookupWindowMs?: number,
  ) {
    this.kinds = new Map(kinds.map((k) => [k.kind, k]));
    this.session = this.sessionFor({});
  }

  private sessionFor(input: ClientConfigInput, api?: string, catalogSettings: Record<string, string> = {}): PlatformSession {
    // The client is built, and the path resolved, at first use (after `configure`), reading the environment
    // then; the api client's modules (graphql among them, most of a provider process's start-up) load then
    // too, so `configure` stays light.
    return new PlatformSession(
      () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const client = require("../api") as typeof import("../api");
        return client.createClient(client.resolveClientConfig(input, process.env, PULUMI_CONFIG_KEYS));
      },
      { api, catalogSettings, lookupWindowMs: this.lookupWindowMs },
    );
  }

  /** How many distinct configurations this runtime has applied (a repeated one does not count). */
  get configurationCount(): number {
    return this.configurations;
  }

  /**
   * The dynamic provider's `configure` hook: keeps the `runpod:*` stack configuration (the API key
   * included, and the API path `runpod:api`) in this process only; it never reaches inputs, outputs or the serialized provider.
   */
  configure(req: { config?: ConfigSource } | undefined): void {
    // A host that was given no configuration at all cannot look keys up; that means "nothing set".
    const get = (key: string): string | undefined => {
      try {
        return req?.config?.get(key);
      } catch {
        return undefined;
      }
    };
    const input = clientInputFromConfig({ get });
    const api = apiPathFromConfig({ get });
    const catalogSettings = catalogSettingsInput({ get });
    // A digest, so the key is not kept a second time in this process.
    const fingerprint = createHash("sha256")
      .update(JSON.stringify([input, api ?? null, catalogSettings]))
      .digest("hex");
    if (fingerprint === this.fingerprint) return;
    this.fingerprint = fingerprint;
    this.configurations += 1;
    this.session = this.sessionFor(input, api, catalogSettings);
    this.providers = new Map();
  }

  /** The current session's catalog reads (the provider plugin's catalog functions share them with preview). */
  get catalogReads(): CatalogReads {
    return this.session.catalogSource;
  }

  /** The provider of `kind` on the current session; built once per session. */
  provider(kind: ResourceKindName | string): Promise<ResourceOperations> {
    let provider = this.providers.get(kind);
    if (!provider) {
      const entry = this.kinds.get(kind);
      if (!entry) return Promise.reject(new Error(`pulumi-runpod has no resource kind "${kind}"; it has ${[...this.kinds.keys()].join(", ")}`));
      const providers = this.providers;
      provider = entry.provider(this.session);
      provider.catch(() => providers.get(kind) === provider && providers.delete(kind));
      providers.set(kind, provider);
    }
    return provider;
  }
}
