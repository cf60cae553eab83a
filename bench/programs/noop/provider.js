"use strict";
/**
 * The floor's provider module, loaded by the dynamic provider host at call time exactly as the real
 * stubs load `pulumi-runpod/provider` (src/provider/serializable.ts): `module.exports[kind]` answers every
 * operation at once from its inputs, shaped by that resource's model. See index.js.
 */
const crypto = require("crypto");
const model = require("pulumi-runpod/provider");

const { CHECKED_PROPERTY, NAME_PREFIX_PROPERTY, checkedInputs, defaultsOf, inputNames, outputNames, secretNames, settingNames } = model;

/** What a no-op provider needs of a model: its defaults and field lists. */
function shapeOf(resourceModel) {
  return {
    model: resourceModel,
    defaults: { ...defaultsOf(resourceModel, "input"), ...defaultsOf(resourceModel, "setting") },
    inputFields: inputNames(resourceModel),
    storedInputs: [...inputNames(resourceModel), ...settingNames(resourceModel)],
    outputFields: outputNames(resourceModel),
    secretFields: secretNames(resourceModel),
  };
}

/**
 * Every operation answers at once from its inputs; `diff` reports changed fields like the real provider.
 * `computed(id, inputs)`: the outputs the platform's record gives (as large as the real ones: the engine
 * rewrites the whole checkpoint after each step, so its cost grows with the state each resource holds).
 * Creates and updates store the checked inputs as the real providers do (recordProvider.ts `stored`).
 */
function noopProvider(shape, computed, prefixProperty) {
  return {
    async check(olds, news) {
      // Auto-naming as the real providers do it: the old name, else the resource name and a random suffix.
      const given = { ...news };
      const prefix = given[prefixProperty];
      delete given[prefixProperty];
      const inputs = { ...shape.defaults, ...given };
      inputs.name = given.name ?? olds?.name ?? `${prefix}-${crypto.randomBytes(4).toString("hex").slice(0, 7)}`;
      return { inputs };
    },
    async diff(_id, olds, news) {
      const changed = shape.inputFields.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
      return { changes: changed.length > 0 };
    },
    async create(inputs) {
      const id = `noop${inputs.name.replace(/[^a-z0-9]/gi, "").slice(-10)}`;
      const outs = {};
      for (const key of shape.outputFields) if (inputs[key] !== undefined) outs[key] = inputs[key];
      Object.assign(outs, computed(id, inputs));
      outs[CHECKED_PROPERTY] = checkedInputs(shape.model, inputs);
      return { id, outs };
    },
    async read(id, props) {
      // Inputs too, as the real read returns them (the engine stores them and shows diffs from them).
      const inputs = Object.fromEntries(shape.storedInputs.filter((k) => props[k] !== undefined && props[k] !== null).map((k) => [k, props[k]]));
      return { id, props, inputs };
    },
    async update(_id, olds, news) {
      const changed = Object.fromEntries(shape.inputFields.filter((k) => news[k] !== undefined).map((k) => [k, news[k]]));
      return { outs: { ...olds, ...changed, [CHECKED_PROPERTY]: checkedInputs(shape.model, news) } };
    },
    async delete() {},
  };
}

module.exports = {
  endpoints: noopProvider(
    shapeOf(model.ENDPOINT_MODEL),
    (id) => {
      const base = `http://127.0.0.1:1/inference/v2/${id}`;
      // The container a REST v2 endpoint reports (its template's copy) and the release it was followed to.
      const container = {
        imageName: "runpod/worker-v1-vllm:stable-cuda12.1.0",
        dockerArgs: "",
        containerDiskInGb: 10,
        ports: [],
        env: {},
        containerRegistryAuthId: null,
      };
      return {
        endpointId: id,
        fastBoot: false,
        jobUrl: `${base}/`,
        ...container,
        cpuFlavorIds: [],
        vcpuCount: null,
        allowedCudaVersions: [],
        executionTimeoutMs: 300000,
        gpuCount: 1,
        workersStandby: null,
        requestUrls: Object.fromEntries(
          [
            ["cancel", "cancel/{job_id}"],
            ["health", "health"],
            ["purgeQueue", "purge-queue"],
            ["retry", "retry/{job_id}"],
            ["run", "run"],
            ["runSync", "runsync"],
            ["status", "status/{job_id}"],
            ["stream", "stream/{job_id}"],
          ].map(([k, p]) => [k, `${base}/${p}`]),
        ),
        releaseVersion: null,
        releasedContainer: JSON.stringify({ ...container, ports: [], env: {} }),
        templateCurrent: true,
        // The check's cost estimates (catalogReview.ts).
        idleHourlyCost: 0,
        maxHourlyCost: 3.3,
        workerHourlyCost: 1.1,
      };
    },
    NAME_PREFIX_PROPERTY,
  ),
  templates: noopProvider(shapeOf(model.TEMPLATE_MODEL), () => ({}), NAME_PREFIX_PROPERTY),
  networkVolumes: noopProvider(
    shapeOf(model.NETWORK_VOLUME_MODEL),
    (id) => ({ networkVolumeId: id, monthlyCost: 0.7, type: "STANDARD" }),
    NAME_PREFIX_PROPERTY,
  ),
  pods: noopProvider(
    shapeOf(model.POD_MODEL),
    (id) => ({
      status: "RUNNING",
      costPerHour: 0.07,
      gpuTypeId: null,
      dataCenterId: "EU-RO-1",
      sshCommand: `ssh ${id}-64411b3e@ssh.runpod.io -i ~/.ssh/id_ed25519`,
      sshDirectCommand: null,
      dockerArgs: "",
      ports: [],
      volumeInGb: 0,
      volumeMountPath: null,
      gpuTypeIds: null,
    }),
    NAME_PREFIX_PROPERTY,
  ),
};
