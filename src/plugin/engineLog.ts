/**
 * Logging through the engine (`pulumirpc.Engine/Log`): messages appear in the CLI's output and in its
 * `-v` logs, tied to a resource when a URN is given. Never given input values: only operations, ids and
 * the provider's own (already redacted) error messages.
 */
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";

export type Severity = "debug" | "info" | "warning" | "error";

const SEVERITY: Record<Severity, LogSeverity> = {
  debug: LogSeverity.DEBUG,
  info: LogSeverity.INFO,
  warning: LogSeverity.WARNING,
  error: LogSeverity.ERROR,
};

export class EngineLog {
  private readonly client?: EngineClient;

  /** @param address the engine's gRPC address (the plugin's argument); without one, lines go to stderr. */
  constructor(address: string | undefined) {
    if (address) this.client = new EngineClient(address, grpc.credentials.createInsecure());
  }

  log(severity: Severity, message: string, urn = ""): Promise<void> {
    if (!this.client) {
      process.stderr.write(`${severity}: ${message}\n`);
      return Promise.resolve();
    }
    const req = new LogRequest();
    req.setSeverity(SEVERITY[severity]);
    req.setMessage(message);
    req.setUrn(urn);
    // A failed log line must never fail the operation it describes.
    return new Promise((resolve) => this.client!.log(req, () => resolve()));
  }

  close(): void {
    this.client?.close();
  }
}
