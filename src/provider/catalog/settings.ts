/**
 * The provider settings of the catalog checks and the budget guard, from the stack configuration
 * (the same `configure` request as the client settings, providerConfig.ts):
 * - `runpod:requireAvailability` (`true`/`false`, default false): scarce availability fails the preview;
 * - `runpod:maxHourlyCost` (USD per hour, unset = none): the stack budget (budget.ts).
 */
import { ConfigurationError } from "../../api";
import { CATALOG_CONFIG_KEYS, type ConfigSource } from "../providerConfig";

export { CATALOG_CONFIG_KEYS };

export interface CatalogSettings {
  requireAvailability: boolean;
  /** USD per hour; undefined = no stack budget. */
  maxHourlyCost?: number;
}

/** The raw values (validated at first use, so a bad value fails the preview with its key named). */
export function catalogSettingsInput(source: ConfigSource): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, key] of Object.entries(CATALOG_CONFIG_KEYS)) {
    const value = source.get(key);
    if (value !== undefined && value !== "") out[field] = value;
  }
  return out;
}

/**
 * @throws ConfigurationError naming the key: `requireAvailability` not true/false, `maxHourlyCost`
 *   not a non-negative number.
 */
export function resolveCatalogSettings(input: Record<string, string>): CatalogSettings {
  const settings: CatalogSettings = { requireAvailability: false };
  const require = input.requireAvailability?.trim().toLowerCase();
  if (require !== undefined) {
    if (require !== "true" && require !== "false") {
      throw new ConfigurationError(
        `${CATALOG_CONFIG_KEYS.requireAvailability} must be true or false; got ${JSON.stringify(input.requireAvailability)}`,
        CATALOG_CONFIG_KEYS.requireAvailability,
      );
    }
    settings.requireAvailability = require === "true";
  }
  if (input.maxHourlyCost !== undefined) {
    const n = Number(input.maxHourlyCost);
    if (input.maxHourlyCost.trim() === "" || !Number.isFinite(n) || n < 0) {
      throw new ConfigurationError(
        `${CATALOG_CONFIG_KEYS.maxHourlyCost} must be a non-negative number of US dollars per hour; got ${JSON.stringify(input.maxHourlyCost)}`,
        CATALOG_CONFIG_KEYS.maxHourlyCost,
      );
    }
    settings.maxHourlyCost = n;
  }
  return settings;
}
