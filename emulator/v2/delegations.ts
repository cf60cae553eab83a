/**
 * REST v2 ECR delegations (docs/spec/rest-v2-openapi.json, tag Registries: listDelegations, createDelegation,
 * revokeDelegation). A delegation is made from an "ECR resource ARN"
 * (`arn:aws:ecr:<region>:<account>:repository/<name>[:<tag>]`): its region, account (the delegated `awsUser`),
 * repository and tag (default `latest`) come from it, and `dockerRegistryUri` is the account's registry host.
 */
import { z } from "zod";
import type { Core } from "../core";
import { randomId } from "../ids";
import type { DelegationRow } from "../store";
import { refused, v2Problem } from "./problems";
import { parseBody } from "./schemas";

const createDelegationSchema = z.object({ resource: z.string(), name: z.string().nullable().optional() }).strict();

/** An ECR repository ARN; the tag is the emulator's reading of a `:tag` suffix. */
const ECR_ARN = /^arn:aws:ecr:([a-z]{2}(?:-[a-z]+)+-\d):(\d{12}):repository\/([a-z0-9][a-z0-9._/-]*?)(?::([\w][\w.-]{0,127}))?$/;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

export class DelegationsV2 {
  constructor(private core: Core) {}

  private render(row: DelegationRow): Record<string, unknown> {
    return {
      id: row.id,
      name: row.name,
      delegatorUserId: row.userId,
      awsUser: row.awsUser,
      repository: row.repository,
      tag: row.tag,
      awsRegion: row.awsRegion,
      dockerRegistryUri: row.dockerRegistryUri,
      createdAt: iso(row.createdAt),
    };
  }

  list(userId: string) {
    return { delegations: this.core.store.listDelegations(userId).map((r) => this.render(r)) };
  }

  create(userId: string, raw: unknown) {
    const body = parseBody(createDelegationSchema, raw);
    const m = ECR_ARN.exec(body.resource);
    if (!m) {
      throw refused(`resource: must be an ECR repository ARN, arn:aws:ecr:<region>:<12-digit account>:repository/<name>[:<tag>]; got "${body.resource}".`);
    }
    const [, awsRegion, account, repository, tag] = m;
    const row: DelegationRow = {
      id: `deleg_${randomId(10)}`,
      userId,
      createdAt: Date.now(),
      name: body.name ?? null,
      awsUser: account,
      repository,
      tag: tag ?? "latest",
      awsRegion,
      dockerRegistryUri: `${account}.dkr.ecr.${awsRegion}.amazonaws.com`,
    };
    this.core.store.putDelegation(row);
    return this.render(row);
  }

  revoke(userId: string, id: string): void {
    const row = this.core.store.getDelegation(id);
    if (!row || row.userId !== userId) throw v2Problem(404, `Delegation "${id}" not found.`);
    this.core.store.deleteDelegation(id);
  }
}
