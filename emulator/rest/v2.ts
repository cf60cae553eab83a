/**
 * REST v2 routes under `{base_url}/v2` (docs/spec/rest-v2-openapi.json). Operation names (stats, fault `match`)
 * are the document's operationIds, except `listWorkers` (listEndpointWorkers), kept from the first emulator release.
 */
import type { Classification, Route, RouteContext } from "../core";
import { json, type BodyReply } from "../reply";
import { resolveWindow } from "../billing";
import { AccountV2 } from "../v2/account";
import { CatalogAnswers } from "../v2/catalogAnswers";
import { ClustersV2 } from "../v2/clusters";
import { DelegationsV2 } from "../v2/delegations";
import { podLogsRoute } from "../v2/podLogs";
import { PodsV2 } from "../v2/pods";
import { NetworkVolumesV2 } from "../v2/networkVolumes";
import { asV2Problem } from "../v2/problems";
import { ResourcesV2 } from "../v2/resources";
import { ServerlessV2 } from "../v2/serverless";

const PREFIX = "/api/v2";

const noContent = (): BodyReply => ({ kind: "body", status: 204 });

/** Every error a v2 handler throws answers as a v2 problem (v2/problems.ts). */
function v2Errors(handle: (ctx: RouteContext) => BodyReply): (ctx: RouteContext) => BodyReply {
  return (ctx) => {
    try {
      return handle(ctx);
    } catch (e) {
      throw asV2Problem(e);
    }
  };
}

function route(method: Route["method"], path: string, operation: string, handle: (ctx: RouteContext) => BodyReply): Route {
  const classify: Classification = { operations: [operation], scope: method === "GET" ? "read" : "write" };
  return { method, path: `${PREFIX}${path}`, style: "rest", auth: "bearer", classify, handle: v2Errors(handle) };
}

const serverless = (ctx: RouteContext) => new ServerlessV2(ctx.core);
const resources = (ctx: RouteContext) => new ResourcesV2(ctx.core);
const volumes = (ctx: RouteContext) => new NetworkVolumesV2(ctx.core);
const catalog = (ctx: RouteContext) => new CatalogAnswers(ctx.core.catalog);
const pods = (ctx: RouteContext) => new PodsV2(ctx.core);
const clusters = (ctx: RouteContext) => new ClustersV2(ctx.core);
const delegations = (ctx: RouteContext) => new DelegationsV2(ctx.core);
const account = (ctx: RouteContext) => new AccountV2(ctx.core);
const user = (ctx: RouteContext) => ctx.principal.user.id;

const billingWindow = (ctx: RouteContext) => resolveWindow(ctx.url.searchParams, ctx.core.clock.now());

export const v2Routes: Route[] = [
  route("GET", "/serverless", "listEndpoints", (ctx) => json(serverless(ctx).list(user(ctx)))),
  route("POST", "/serverless", "createEndpoint", (ctx) => json(serverless(ctx).create(user(ctx), ctx.body), 201)),
  route("GET", "/serverless/:id", "getEndpoint", (ctx) => json(serverless(ctx).get(user(ctx), ctx.params.id))),
  route("PATCH", "/serverless/:id", "updateEndpoint", (ctx) => json(serverless(ctx).update(user(ctx), ctx.params.id, ctx.body))),
  route("DELETE", "/serverless/:id", "deleteEndpoint", (ctx) => {
    serverless(ctx).delete(user(ctx), ctx.params.id);
    return noContent();
  }),
  route("GET", "/serverless/:id/workers", "listWorkers", (ctx) => json(serverless(ctx).workers(user(ctx), ctx.params.id))),
  route("GET", "/serverless/:id/releases", "listEndpointReleases", (ctx) => json(serverless(ctx).releases(user(ctx), ctx.params.id))),

  route("GET", "/templates", "listTemplates", (ctx) => json(resources(ctx).listTemplates(user(ctx)))),
  route("POST", "/templates", "createTemplate", (ctx) => json(resources(ctx).createTemplate(user(ctx), ctx.body), 201)),
  route("GET", "/templates/:id", "getTemplate", (ctx) => json(resources(ctx).getTemplate(user(ctx), ctx.params.id))),
  route("PATCH", "/templates/:id", "updateTemplate", (ctx) => json(resources(ctx).updateTemplate(user(ctx), ctx.params.id, ctx.body))),
  route("DELETE", "/templates/:id", "deleteTemplate", (ctx) => {
    resources(ctx).deleteTemplate(user(ctx), ctx.params.id);
    return noContent();
  }),

  route("GET", "/registries/delegations", "listDelegations", (ctx) => json(delegations(ctx).list(user(ctx)))),
  route("POST", "/registries/delegations", "createDelegation", (ctx) => json(delegations(ctx).create(user(ctx), ctx.body), 201)),
  route("DELETE", "/registries/delegations/:id", "revokeDelegation", (ctx) => {
    delegations(ctx).revoke(user(ctx), ctx.params.id);
    return noContent();
  }),
  route("GET", "/registries", "listRegistries", (ctx) => json(resources(ctx).listRegistries(user(ctx)))),
  route("POST", "/registries", "createRegistry", (ctx) => json(resources(ctx).createRegistry(user(ctx), ctx.body), 201)),
  route("GET", "/registries/:id", "getRegistry", (ctx) => json(resources(ctx).getRegistry(user(ctx), ctx.params.id))),
  route("DELETE", "/registries/:id", "deleteRegistry", (ctx) => {
    resources(ctx).deleteRegistry(user(ctx), ctx.params.id);
    return noContent();
  }),

  route("GET", "/network-volumes", "listNetworkVolumes", (ctx) => json(volumes(ctx).list(user(ctx)))),
  route("POST", "/network-volumes", "createNetworkVolume", (ctx) => json(volumes(ctx).create(user(ctx), ctx.body), 201)),
  route("GET", "/network-volumes/:id", "getNetworkVolume", (ctx) => json(volumes(ctx).get(user(ctx), ctx.params.id))),
  route("PATCH", "/network-volumes/:id", "updateNetworkVolume", (ctx) => json(volumes(ctx).update(user(ctx), ctx.params.id, ctx.body))),
  route("DELETE", "/network-volumes/:id", "deleteNetworkVolume", (ctx) => {
    volumes(ctx).delete(user(ctx), ctx.params.id);
    return noContent();
  }),

  route("GET", "/pods", "listPods", (ctx) => json(pods(ctx).list(user(ctx), ctx.url.searchParams))),
  route("POST", "/pods", "createPod", (ctx) => json(pods(ctx).create(user(ctx), ctx.body), 201)),
  route("GET", "/pods/:id", "getPod", (ctx) => json(pods(ctx).get(user(ctx), ctx.params.id))),
  route("PATCH", "/pods/:id", "updatePod", (ctx) => json(pods(ctx).update(user(ctx), ctx.params.id, ctx.body))),
  route("DELETE", "/pods/:id", "deletePod", (ctx) => {
    pods(ctx).delete(user(ctx), ctx.params.id);
    return noContent();
  }),
  route("POST", "/pods/:id/action", "podAction", (ctx) => {
    const pod = pods(ctx).action(user(ctx), ctx.params.id, ctx.body);
    return pod ? json(pod) : noContent();
  }),
  podLogsRoute,

  route("GET", "/clusters", "listClusters", (ctx) => json(clusters(ctx).list(user(ctx)))),
  route("POST", "/clusters", "createCluster", (ctx) => json(clusters(ctx).create(user(ctx), ctx.body), 201)),
  route("GET", "/clusters/:id", "getCluster", (ctx) => json(clusters(ctx).get(user(ctx), ctx.params.id))),
  route("PATCH", "/clusters/:id", "updateCluster", (ctx) => json(clusters(ctx).update(user(ctx), ctx.params.id, ctx.body))),
  route("DELETE", "/clusters/:id", "deleteCluster", (ctx) => {
    clusters(ctx).delete(user(ctx), ctx.params.id);
    return noContent();
  }),
  route("GET", "/clusters/:id/pods", "listClusterPods", (ctx) => json(clusters(ctx).podsOf(user(ctx), ctx.params.id))),

  route("GET", "/account/ssh-keys", "getSshKeys", (ctx) => json(account(ctx).sshKeys(user(ctx)))),
  route("PUT", "/account/ssh-keys", "updateSshKeys", (ctx) => json(account(ctx).updateSshKeys(user(ctx), ctx.body))),

  route("GET", "/catalog/gpus", "listGpuTypes", (ctx) => json(catalog(ctx).listGpus(ctx.url.searchParams))),
  route("GET", "/catalog/gpus/:id", "getGpuType", (ctx) => json(catalog(ctx).getGpu(ctx.params.id, ctx.url.searchParams))),
  route("GET", "/catalog/cpus", "listCpuTypes", (ctx) => json(catalog(ctx).listCpus(ctx.url.searchParams))),
  route("GET", "/catalog/cpus/:id", "getCpuType", (ctx) => json(catalog(ctx).getCpu(ctx.params.id, ctx.url.searchParams))),
  route("GET", "/catalog/datacenters", "listDataCenters", (ctx) => json(catalog(ctx).listDataCenters(ctx.url.searchParams))),
  route("GET", "/catalog/datacenters/:id", "getDataCenter", (ctx) => json(catalog(ctx).getDataCenter(ctx.params.id, ctx.url.searchParams))),
  route("GET", "/catalog/templates", "listPublicTemplates", (ctx) => json(resources(ctx).listPublicTemplates(user(ctx), ctx.url.searchParams))),

  route("GET", "/billing", "listBilling", (ctx) => json(ctx.core.billing.all(user(ctx), billingWindow(ctx)))),
  route("GET", "/billing/serverless", "listServerlessBilling", (ctx) =>
    json(ctx.core.billing.serverless(user(ctx), billingWindow(ctx), ctx.url.searchParams.get("serverlessId") ?? undefined)),
  ),
  route("GET", "/billing/pods", "listPodBilling", (ctx) =>
    json(ctx.core.billing.pods(user(ctx), billingWindow(ctx), ctx.url.searchParams.get("podId") ?? undefined)),
  ),
  route("GET", "/billing/endpoints", "listEndpointBilling", (ctx) => json(ctx.core.billing.publicEndpoints(user(ctx), billingWindow(ctx)))),
  route("GET", "/billing/network-volumes", "listNetworkVolumeBilling", (ctx) =>
    json(ctx.core.billing.networkVolumes(user(ctx), billingWindow(ctx), ctx.url.searchParams.get("networkVolumeId") ?? undefined)),
  ),
  route("GET", "/billing/clusters", "listClusterBilling", (ctx) =>
    json(ctx.core.billing.clusters(user(ctx), billingWindow(ctx), ctx.url.searchParams.get("clusterId") ?? undefined)),
  ),
];
