// Drives runpod-sdk's public functions against the emulator; the last stdout line is `RESULT <json>`:
// function -> {ok} or {error}. (The SDK logs progress lines with console.log, hence the marker.)
// Environment: RUNPOD_SDK_MODULE (module to import; default "runpod-sdk"), RUNPOD_BASE_URL ({inference}/v2),
// RUNPOD_API_KEY, RUNPOD_ENDPOINT_ID. tests/conformance/runpodSdk.test.ts asserts on the results.
const { default: runpodSdk } = await import(process.env.RUNPOD_SDK_MODULE || "runpod-sdk");

const out = {};
async function call(name, fn) {
  try {
    out[name] = { ok: await fn() };
  } catch (e) {
    out[name] = { error: `${e?.name}: ${e?.message}` };
  }
  return out[name].ok;
}

const sdk = runpodSdk(process.env.RUNPOD_API_KEY, { baseUrl: process.env.RUNPOD_BASE_URL });
const endpoint = sdk.endpoint(process.env.RUNPOD_ENDPOINT_ID);
const model = sdk.endpoint("flux-1-schnell");

await call("runSync", () => endpoint.runSync({ input: { a: 1 } }));
// A timeout shorter than the job: runsync?wait answers the unfinished job, then runSync polls status-sync.
await call("runSync (short wait, polls status-sync)", () => endpoint.runSync({ input: { a: 2 } }, 1200));
const job = await call("run", () => endpoint.run({ input: { b: 1 } }));
await call("status", () => endpoint.status(job.id));
await call("statusSync", () => endpoint.statusSync(job.id, 5000));
const image = await call("run (image model)", () => model.run({ input: { prompt: "a lighthouse", width: 512, height: 512 } }));
await call("stream", async () => {
  const chunks = [];
  for await (const chunk of model.stream(image.id)) chunks.push(chunk);
  return chunks;
});
const toCancel = await call("run (to cancel)", () => endpoint.run({ input: { c: 1 } }));
await call("cancel", () => endpoint.cancel(toCancel.id));
await call("status (cancelled)", () => endpoint.status(toCancel.id));
await call("health", () => endpoint.health());
for (let i = 0; i < 3; i++) await endpoint.run({ input: { q: i } });
await call("purgeQueue", () => endpoint.purgeQueue());

console.log(`RESULT ${JSON.stringify(out)}`);
