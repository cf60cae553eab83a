/**
 * Pulumi's real dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`, the process the engine
 * starts for dynamic resources) running the package's serialized provider, driven over gRPC the way
 * the engine drives it — the approach of tests/provider/serialization.test.ts, packaged for reuse.
 *
 * The provider text is produced by @pulumi/pulumi's own closure serialization of the stub the
 * `Endpoint` resource registers (dist/src/provider/serializable.js), and the host loads
 * `pulumi-runpod/provider` from a throwaway project directory linked to this repository. Needs dist/.
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/* eslint-disable @typescript-eslint/no-require-imports */
const grpc = require("@grpc/grpc-js");
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const structproto = require("google-protobuf/google/protobuf/struct_pb");

const ROOT = path.resolve(__dirname, "../..");
const DIST_STUB = path.join(ROOT, "dist/src/provider/serializable.js");
const HOST = require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js");
export const ENDPOINT_URN = "urn:pulumi:rel::proj::pulumi-nodejs:dynamic/runpod:Endpoint::e";

/** What Pulumi stores as `__provider` for every Endpoint: the serialized stub. */
export async function serializedProvider(): Promise<string> {
  if (!fs.existsSync(DIST_STUB)) throw new Error("dist/ is missing: run `npx tsc -p tsconfig.json` first");
  const { endpointProviderStub } = require(DIST_STUB);
  const { serializeFunction } = require("@pulumi/pulumi/runtime/closure/serializeClosure");
  const sf = await serializeFunction(() => endpointProviderStub, { allowSecrets: true });
  return sf.text as string;
}

export interface CheckOutcome {
  inputs: Record<string, unknown>;
  failures: { property: string; reason: string }[];
}

/** One running host process with a gRPC client to it. */
export class ProviderHost {
  private constructor(
    private readonly proc: ChildProcess,
    private readonly rpc: Record<string, (req: unknown, cb: (err: Error | null, resp: any) => void) => void>,
    private readonly projectDir: string,
    readonly providerText: string,
    /** Everything the host wrote to stderr (its error reports), for secret scans. */
    readonly stderr: { text: string },
  ) {}

  /**
   * Starts a host and sends it `Configure` with `config` (keys like `runpod:apiKey`), as the engine does
   * with the stack's configuration. The host's environment has no RUNPOD_* or PULUMI_* variable.
   */
  static async start(config: Record<string, string>): Promise<ProviderHost> {
    const providerText = await serializedProvider();
    const projectDir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-rel-host-"));
    fs.mkdirSync(path.join(projectDir, "node_modules"));
    fs.symlinkSync(ROOT, path.join(projectDir, "node_modules", "pulumi-runpod"), "dir");
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("RUNPOD_") && !k.startsWith("PULUMI_")));
    const proc = spawn(process.execPath, [HOST, "127.0.0.1:1"], { cwd: projectDir, env, stdio: ["ignore", "pipe", "pipe"] });
    const stderr = { text: "" };
    proc.stderr!.on("data", (d) => (stderr.text += d));
    const port = await new Promise<string>((resolve, reject) => {
      proc.stdout!.once("data", (d) => resolve(String(d).trim()));
      proc.once("exit", (code) => reject(new Error(`dynamic provider host exited (${code}): ${stderr.text}`)));
    });
    const rpc = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const host = new ProviderHost(proc, rpc, projectDir, providerText, stderr);
    const configure = new provproto.ConfigureRequest();
    configure.setArgs(structproto.Struct.fromJavaScript(config));
    await host.call("configure", configure);
    return host;
  }

  private call<T = any>(method: string, req: unknown): Promise<T> {
    return new Promise((resolve, reject) => this.rpc[method](req, (err, resp) => (err ? reject(err) : resolve(resp))));
  }

  private struct(obj: Record<string, unknown>) {
    return structproto.Struct.fromJavaScript({ ...obj, __provider: this.providerText });
  }

  /** `Check` with no old inputs (a new resource at preview). */
  async check(news: Record<string, unknown>): Promise<CheckOutcome> {
    const req = new provproto.CheckRequest();
    req.setUrn(ENDPOINT_URN);
    req.setOlds(structproto.Struct.fromJavaScript({}));
    req.setNews(this.struct(news));
    const resp = await this.call("check", req);
    return {
      inputs: resp.getInputs().toJavaScript() as Record<string, unknown>,
      failures: resp.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /**
   * `Create` with checked inputs.
   * @param timeoutSeconds the `timeout` field the engine fills from `customTimeouts.create`.
   */
  async create(inputs: Record<string, unknown>, timeoutSeconds?: number): Promise<{ id: string; outs: Record<string, unknown> }> {
    const req = new provproto.CreateRequest();
    req.setUrn(ENDPOINT_URN);
    req.setProperties(this.struct(inputs));
    if (timeoutSeconds !== undefined) req.setTimeout(timeoutSeconds);
    const resp = await this.call("create", req);
    return { id: resp.getId(), outs: resp.getProperties().toJavaScript() };
  }

  /** `Delete` of a created endpoint. */
  async delete(id: string, outs: Record<string, unknown>): Promise<void> {
    const req = new provproto.DeleteRequest();
    req.setId(id);
    req.setUrn(ENDPOINT_URN);
    req.setProperties(this.struct(outs));
    await this.call("delete", req);
  }

  async stop(): Promise<void> {
    (this.rpc as unknown as { close(): void }).close();
    if (this.proc.exitCode === null) {
      const exited = new Promise((resolve) => this.proc.once("exit", resolve));
      this.proc.kill();
      await exited;
    }
    fs.rmSync(this.projectDir, { recursive: true, force: true });
  }
}
