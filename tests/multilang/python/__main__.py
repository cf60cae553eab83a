"""A Python program on the generated SDK (pulumi_runpod), declared by stack config so each test step is
a config change: registry credentials, a template with a secret env value, an endpoint on a network
volume looked up by name, a network volume of its own (config `volumeSize`) that a second endpoint and a
GPU pod with a secret env value both mount (the pod stopped and started by config `podStatus`), the
catalog functions (serverless availability and a data-center filter), (config `adopted`, `adoptedPod`)
an endpoint and a CPU pod adopted with `pulumi import`, and (config `extra`) an auto-named endpoint
whose create the CLI tests interrupt."""
import json

import pulumi
import pulumi_runpod as runpod

cfg = pulumi.Config()

creds = runpod.ContainerRegistryAuth("creds", username="deploy-bot", password=cfg.require_secret("registryPassword"))
template = runpod.Template(
    "llm",
    image_name="registry.example.com/team/llm:1.0",
    container_registry_auth_id=creds.id,
    env={"HF_TOKEN": cfg.require_secret("hfToken"), "MODEL": "llama-3-8b"},
    ports=["8000/http"],
)
volume = runpod.get_network_volume_output(name="models")
api = runpod.Endpoint(
    "api",
    template_id=template.id,
    gpu_ids=["ADA_24", "AMPERE_24"],
    locations=json.loads(cfg.get("locations") or '["RO", "CZ"]'),
    workers_max=cfg.get_int("workersMax") or 3,
    type=cfg.get("type") or "QB",
    network_volume_id=volume.id,
)

scratch = runpod.NetworkVolume("scratch", size=cfg.get_int("volumeSize") or 20, data_center_id="EU-RO-1", type="HIGH_PERFORMANCE")
batch = runpod.Endpoint("batch", template_id=template.id, gpu_ids=["ADA_24"], workers_max=1, network_volume_id=scratch.id)
dev = runpod.Pod(
    "dev",
    image_name="runpod/pytorch:2.4.0",
    gpu_type_ids=["NVIDIA GeForce RTX 4090"],
    data_center_ids=["EU-RO-1"],
    ports=["8888/http"],
    env={"HF_TOKEN": cfg.require_secret("podToken")},
    network_volume_id=scratch.id,
    desired_status=cfg.get("podStatus") or "RUNNING",
)

adopted = cfg.get("adopted")
if adopted:
    spec = json.loads(adopted)
    runpod.Endpoint("adopted", name=spec["name"], template_id=spec["templateId"], gpu_ids=spec["gpuIds"], workers_max=spec["workersMax"])

adopted_pod = cfg.get("adoptedPod")
if adopted_pod:
    spec = json.loads(adopted_pod)
    runpod.Pod("adoptedPod", name=spec["name"], image_name=spec["imageName"], cpu_flavor_id=spec["cpuFlavorId"], vcpu_count=spec["vcpuCount"])

if cfg.get_bool("extra"):
    runpod.Endpoint("extra", template_id="tpl_vllm", gpu_ids=["AMPERE_16"], workers_max=1)

pulumi.export("endpointId", api.id)
pulumi.export("endpointName", api.name)
pulumi.export("jobUrl", api.job_url)
pulumi.export("templateId", template.id)
pulumi.export("credsId", creds.id)
pulumi.export("volumeDataCenter", volume.data_center)
pulumi.export("scratch", {"id": scratch.id, "size": scratch.size, "monthlyCost": scratch.monthly_cost})
pulumi.export("batchId", batch.id)
pulumi.export(
    "pod",
    {
        "id": dev.id,
        "status": dev.status,
        "desiredStatus": dev.desired_status,
        "costPerHour": dev.cost_per_hour,
        "gpuTypeId": dev.gpu_type_id,
        "dataCenterId": dev.data_center_id,
        "networkVolumeId": dev.network_volume_id,
    },
)

# The catalog functions: one GPU type's serverless price and availability, and a filtered data-center list.
rtx = runpod.get_gpu_types_output(product=["SERVERLESS"]).gpu_types.apply(
    lambda gpus: next(g for g in gpus if g.id == "NVIDIA GeForce RTX 4090")
)
pulumi.export("rtx4090", rtx.apply(lambda g: {"pool": g.pool, "serverlessPrice": g.price.serverless, "availability": g.availability}))
pulumi.export(
    "europeHighPerformance",
    runpod.get_data_centers_output(regions=["EUROPE"], network_volume_types=["HIGH_PERFORMANCE"]).data_centers.apply(
        lambda dcs: sorted(d.id for d in dcs)
    ),
)
pulumi.export("cpuFlavors", runpod.get_cpu_types_output().cpu_types.apply(lambda cpus: sorted(c.id for c in cpus)))
