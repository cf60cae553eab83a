/**
 * Network volume lookups in the program process against the emulator (spec: Resources › Network volume):
 * configuration from `runpod:*` Pulumi config, promise and Output forms, clear errors.
 */
import * as pulumi from "@pulumi/pulumi";
import { DEFAULT_SEED, type RunningEmulator } from "../../emulator";
import { getNetworkVolume, getNetworkVolumeOutput, getNetworkVolumes, getNetworkVolumesOutput } from "../../src/resources/networkVolume";
import { emulatorAddresses, startTestEmulator } from "../provider/harness";

/** The seed with a second volume named "models", so a name can be ambiguous. */
const seed = {
  ...DEFAULT_SEED,
  networkVolumes: [
    ...DEFAULT_SEED.networkVolumes!,
    { id: "nv_models02", userId: "user_1", name: "models", size: 10, dataCenter: "US-KS-2", type: "STANDARD" as const },
  ],
};
const mine = seed.networkVolumes.filter((v) => v.userId === "user_1").map(({ userId: _u, ...v }) => v);

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed });
  delete process.env.RUNPOD_API_KEY;
  pulumi.runtime.setConfig("runpod:apiKey", emu.apiKey);
  for (const [k, v] of Object.entries(emulatorAddresses(emu))) pulumi.runtime.setConfig(`runpod:${k}`, v);
});
afterAll(async () => {
  await emu.close();
});

const valueOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply((v) => resolve(v)));

describe("getNetworkVolumes", () => {
  it("lists the configured account's volumes, and only those", async () => {
    const volumes = await getNetworkVolumes();
    expect(volumes.map((v) => v.id).sort()).toEqual(mine.map((v) => v.id).sort());
    expect(volumes).toEqual(expect.arrayContaining(mine));
  });

  it("has an Output form", async () => {
    expect((await valueOf(getNetworkVolumesOutput())).length).toBe(mine.length);
  });
});

describe("getNetworkVolume", () => {
  it("finds a volume by id and by a unique name", async () => {
    expect(await getNetworkVolume({ id: "nv_cache01" })).toEqual(mine.find((v) => v.id === "nv_cache01"));
    expect(await getNetworkVolume({ name: "cache" })).toMatchObject({ id: "nv_cache01", dataCenter: "US-TX-3" });
  });

  it("a name matching none is an error listing what exists", async () => {
    await expect(getNetworkVolume({ name: "nope" })).rejects.toThrow(/No network volume with name "nope".*nv_models01 \("models".*nv_cache01 \("cache"/);
  });

  it("an id of another user's volume matches none", async () => {
    await expect(getNetworkVolume({ id: "nv_other01" })).rejects.toThrow(/No network volume with id "nv_other01"/);
  });

  it("a name matching several is an error listing them", async () => {
    await expect(getNetworkVolume({ name: "models" })).rejects.toThrow(/2 network volumes have name "models".*nv_models01.*nv_models02/);
  });

  it("needs exactly one of id and name", async () => {
    await expect(getNetworkVolume({} as never)).rejects.toThrow(/exactly one of `id` and `name`/);
    await expect(getNetworkVolume({ id: "a", name: "b" } as never)).rejects.toThrow(/exactly one/);
  });

  it("has an Output form taking Outputs", async () => {
    const v = await valueOf(getNetworkVolumeOutput({ name: pulumi.output("cache") }));
    expect(v.id).toBe("nv_cache01");
  });
});

describe("configuration", () => {
  it("a bad key is a RunError (one line, no stack) saying how to set the config key, without the key", async () => {
    pulumi.runtime.setConfig("runpod:apiKey", "rpa_wrong_key");
    try {
      for (const lookup of [() => getNetworkVolumes(), () => getNetworkVolume({ name: "models" })]) {
        const err = (await lookup().catch((e: unknown) => e)) as Error;
        expect(pulumi.RunError.isInstance(err)).toBe(true);
        expect(err.message).toMatch(
          /^runpod network volume lookup failed: The API key is invalid.* \(HTTP 401, listing network volumes\)\. Check the API key: set it with `pulumi config set --secret runpod:apiKey <key>` \(or the environment variable RUNPOD_API_KEY\)$/,
        );
        expect(err.message).not.toContain("\n");
        expect(err.message).not.toContain("rpa_wrong_key");
      }
    } finally {
      pulumi.runtime.setConfig("runpod:apiKey", emu.apiKey);
    }
  });

  it("no key at all is a RunError naming the config key and the variable", async () => {
    pulumi.runtime.setConfig("runpod:apiKey", "");
    try {
      const err = (await getNetworkVolumes().catch((e: unknown) => e)) as Error;
      expect(pulumi.RunError.isInstance(err)).toBe(true);
      expect(err.message).toBe(
        "runpod network volume lookup failed: No API key configured (runpod:apiKey or the environment variable RUNPOD_API_KEY). Set it with `pulumi config set --secret runpod:apiKey <key>`",
      );
    } finally {
      pulumi.runtime.setConfig("runpod:apiKey", emu.apiKey);
    }
  });

  it("an unknown name is a RunError too", async () => {
    const err = (await getNetworkVolume({ name: "nope" }).catch((e: unknown) => e)) as Error;
    expect(pulumi.RunError.isInstance(err)).toBe(true);
  });

  it("falls back to RUNPOD_API_KEY when the config has no key", async () => {
    pulumi.runtime.setConfig("runpod:apiKey", "");
    process.env.RUNPOD_API_KEY = emu.apiKey;
    try {
      expect((await getNetworkVolumes()).length).toBe(mine.length);
    } finally {
      delete process.env.RUNPOD_API_KEY;
      pulumi.runtime.setConfig("runpod:apiKey", emu.apiKey);
    }
  });
});
