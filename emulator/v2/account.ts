/**
 * REST v2 account SSH keys (docs/spec/rest-v2-openapi.json, tag Account: getSshKeys, updateSshKeys). They are the
 * same per-user setting as GraphQL's `pubKey` (one key per line), so pods and templates created with `startSsh`
 * get them as `PUBLIC_KEY` whichever interface set them.
 */
import { z } from "zod";
import type { Core } from "../core";
import { parseBody } from "./schemas";

/** UpdateSshKeysRequest.keys items: "an authorized_keys-style line: `<type> <base64-key> [comment]`". */
const KEY_LINE = /^(ssh|ecdsa|sk)-[^\s]+ [^\s]+([ \t][^\n\r]*)?$/;
const updateSshKeysSchema = z.object({ keys: z.array(z.string().regex(KEY_LINE, "must be an authorized_keys line: <type> <base64-key> [comment]")) }).strict();

export class AccountV2 {
  constructor(private core: Core) {}

  sshKeys(userId: string): { keys: string[] } {
    return {
      keys: this.core.platform
        .pubKey(userId)
        .split(/\r?\n/)
        .filter((k) => k.trim() !== ""),
    };
  }

  /** "a complete replacement, not a merge"; `[]` removes every key. */
  updateSshKeys(userId: string, raw: unknown): { keys: string[] } {
    const { keys } = parseBody(updateSshKeysSchema, raw);
    this.core.platform.setPubKey(userId, keys.join("\n"));
    return this.sshKeys(userId);
  }
}
