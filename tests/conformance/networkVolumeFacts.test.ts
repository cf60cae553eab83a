/**
 * NetworkVolume facts stated on both sides (the provider's model and cost, emulator/facts.ts and its checks) against
 * the vendored REST v2 document, and the storage price each side states on its own (the document and its catalog
 * state none) against the other.
 */
import * as fs from "fs";
import * as path from "path";
import { VOLUME_PRICE_PER_GB_MONTH as EMULATOR_PRICES, VOLUME_TYPES as EMULATOR_TYPES } from "../../emulator/facts";
import { VOLUME_PRICE_PER_GB_MONTH as PROVIDER_PRICES } from "../../src/provider/networkVolume/cost";
import { NETWORK_VOLUME_MODEL, VOLUME_SIZE_MAX_GB, VOLUME_SIZE_MIN_GB, VOLUME_TYPES } from "../../src/provider/networkVolume/model";

const DOC = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "docs", "spec", "rest-v2-openapi.json"), "utf8"));
const schemas = DOC.components.schemas;

test("the tiers are the document's VolumeType, on both sides", () => {
  expect([...VOLUME_TYPES]).toEqual(schemas.VolumeType.enum);
  expect([...EMULATOR_TYPES]).toEqual(schemas.VolumeType.enum);
  expect(NETWORK_VOLUME_MODEL.fields.type.rule.values).toEqual(schemas.VolumeType.enum);
});

test("size is the document's bounds, in create and update alike", () => {
  for (const name of ["CreateNetworkVolumeRequest", "UpdateNetworkVolumeRequest", "NetworkVolume"]) {
    expect({ name, min: schemas[name].properties.size.minimum, max: schemas[name].properties.size.maximum }).toEqual({
      name,
      min: VOLUME_SIZE_MIN_GB,
      max: VOLUME_SIZE_MAX_GB,
    });
  }
  expect(NETWORK_VOLUME_MODEL.fields.size.rule).toMatchObject({ min: VOLUME_SIZE_MIN_GB, max: VOLUME_SIZE_MAX_GB });
});

test("the provider's estimate and the emulator's billing use the same price per GB and month for every tier", () => {
  expect(PROVIDER_PRICES).toEqual(EMULATOR_PRICES);
  expect(Object.keys(PROVIDER_PRICES).sort()).toEqual([...schemas.VolumeType.enum].sort());
});
