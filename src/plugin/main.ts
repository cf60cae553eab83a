#!/usr/bin/env node
/**
 * `pulumi-resource-runpod`: the provider plugin the engine starts for `runpod:index:*` resources. It
 * serves the ResourceProvider protocol on a loopback port and prints that port as its first line of
 * stdout (the plugin protocol); its argument is the engine's address.
 */
import * as fs from "fs";
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { EngineLog } from "./engineLog";
import { ResourceProviderServer } from "./server";

/** The package's version (the plugin's): the nearest package.json above this module. */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
    if (path.dirname(dir) === dir) throw new Error("pulumi-resource-runpod: no package.json above its module");
  }
}

export async function serve(args: string[]): Promise<{ port: number; server: grpc.Server }> {
  // The engine passes flags (e.g. `--logtostderr`, `-v=9`, `--tracing x`) before its address.
  const engine = args.filter((a) => !a.startsWith("-")).pop();
  const log = new EngineLog(engine);
  const provider = new ResourceProviderServer({ version: packageVersion(), log });
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(ResourceProviderService, provider.service());
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { port, server };
}

if (require.main === module) {
  serve(process.argv.slice(2)).then(
    ({ port }) => process.stdout.write(`${port}\n`),
    (err) => {
      process.stderr.write(`pulumi-resource-runpod: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
