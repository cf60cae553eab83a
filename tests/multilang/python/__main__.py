"""A Python program on the generated SDK (pulumi_runpod), declared by stack config so each test step is
a config change: registry credentials, a template with a secret env value, an endpoint on a network
volume looked up by name, the catalog functions (serverless availability and a data-center filter), (config `adopted`) an endpoint adopted with `pulumi import`, and (config `extra`)
an auto-named endpoint whose create the CLI tests interrupt."""
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

adopted = cfg.get("adopted")
if adopted:
    spec = json.loads(adopted)
    runpod.Endpoint("adopted", name=spec["name"], template_id=spec["templateId"], gpu_ids=spec["gpuIds"], workers_max=spec["workersMax"])

if cfg.get_bool("extra"):
    runpod.Endpoint("extra", template_id="tpl_vllm", gpu_ids=["AMPERE_16"], workers_max=1)

pulumi.export("endpointId", api.id)
pulumi.export("endpointName", api.name)
pulumi.export("jobUrl", api.job_url)
pulumi.export("templateId", template.id)
pulumi.export("credsId", creds.id)
pulumi.export("volumeDataCenter", volume.data_center)

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
