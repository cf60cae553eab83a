"""Drives runpod-python's public functions against the emulator and prints one JSON object: function -> {ok} or {error}.

Environment: RUNPOD_API_BASE_URL (GraphQL origin), RUNPOD_ENDPOINT_BASE_URL (job interface, .../v2), RUNPOD_API_KEY.
The scenario's values are echoed back by the emulator; tests/conformance/runpodPython.test.ts asserts on them.
"""
import asyncio
import json
import os

import aiohttp
import runpod

runpod.api_key = os.environ["RUNPOD_API_KEY"]
out = {}


def call(name, fn):
    try:
        out[name] = {"ok": fn()}
    except Exception as e:  # the test asserts on the error text
        out[name] = {"error": f"{type(e).__name__}: {e}"}
    return out[name].get("ok")


# User, GPU types
call("get_user", runpod.get_user)
call("update_user_settings", lambda: runpod.update_user_settings("ssh-ed25519 AAAAC3NzaC1 py@conformance"))
call("get_gpus", runpod.get_gpus)
call("get_gpu", lambda: runpod.get_gpu("NVIDIA GeForce RTX 4090", 2))
call("get_gpu (unknown)", lambda: runpod.get_gpu("NVIDIA Imaginary 9000"))

# Registry credentials and templates
reg = call("create_container_registry_auth", lambda: runpod.create_container_registry_auth("py-reg", "bot", "py-secret-1"))
call("update_container_registry_auth", lambda: runpod.update_container_registry_auth(reg["id"], "bot2", "py-secret-2"))
tpl = call(
    "create_template",
    lambda: runpod.create_template(
        "py-tpl",
        "acme/py-worker:1.0",
        docker_start_cmd='python -u "handler.py"',
        container_disk_in_gb=15,
        volume_in_gb=5,
        volume_mount_path="/data",
        ports="8000/http, 22/tcp",
        env={"MODEL": "m1", "LOG_LEVEL": "debug"},
        is_serverless=True,
        registry_auth_id=reg["id"],
    ),
)
tpl2 = call("create_template (defaults)", lambda: runpod.create_template("py-tpl-2", "acme/py-worker:2.0", is_serverless=True))
call("create_template (duplicate name)", lambda: runpod.create_template("py-tpl", "acme/py-worker:3.0"))
call("delete_container_registry_auth (in use)", lambda: runpod.delete_container_registry_auth(reg["id"]))
unused = call("create_container_registry_auth (unused)", lambda: runpod.create_container_registry_auth("py-reg-unused", "u", "p"))
call("delete_container_registry_auth", lambda: runpod.delete_container_registry_auth(unused["id"]))

# Endpoints
ep = call(
    "create_endpoint",
    lambda: runpod.create_endpoint(
        "py-ep", tpl["id"], gpu_ids="AMPERE_16,ADA_24", idle_timeout=7, workers_min=1, workers_max=2,
        flashboot=True, allowed_cuda_versions="12.1,12.2", gpu_count=1,
    ),
)
call("create_endpoint (bad gpu_ids)", lambda: runpod.create_endpoint("py-bad", tpl["id"], gpu_ids="H100"))
call("get_endpoints", runpod.get_endpoints)
call("update_endpoint_template", lambda: runpod.update_endpoint_template(ep["id"], tpl2["id"]))

# Jobs (synchronous client)
endpoint = runpod.Endpoint(ep["id"])
call("Endpoint.run_sync", lambda: endpoint.run_sync({"prompt": "hello"}, timeout=60))
job = endpoint.run({"n": 1})
out["Endpoint.run"] = {"ok": {"job_id": job.job_id}}
call("Job.status", job.status)
call("Job.output", lambda: job.output(timeout=60))
model = runpod.Endpoint("flux-1-schnell")
streamed = model.run({"prompt": "a lighthouse", "width": 512, "height": 512})
call("Job.stream", lambda: list(streamed.stream()))
to_cancel = endpoint.run({"n": 2})
call("Job.cancel", to_cancel.cancel)
call("Job.status (cancelled)", lambda: runpod.Endpoint(ep["id"]).rp_client.get(f"{ep['id']}/status/{to_cancel.job_id}")["status"])
call("Endpoint.health", endpoint.health)
queued = [endpoint.run({"q": i}) for i in range(3)]
call("Endpoint.purge_queue", endpoint.purge_queue)


# Jobs (asyncio client)
async def asyncio_scenario():
    async with aiohttp.ClientSession() as session:
        aep = runpod.AsyncioEndpoint(ep["id"], session)
        ajob = await aep.run({"a": 1})
        out["AsyncioEndpoint.run"] = {"ok": {"job_id": ajob.job_id}}
        out["AsyncioJob.status"] = {"ok": await ajob.status()}
        out["AsyncioJob.output"] = {"ok": await ajob.output(timeout=60)}
        amodel = runpod.AsyncioEndpoint("flux-1-schnell", session)
        sjob = await amodel.run({"prompt": "a harbour", "width": 256, "height": 256})
        out["AsyncioJob.stream"] = {"ok": [chunk async for chunk in sjob.stream()]}
        cjob = await aep.run({"a": 2})
        out["AsyncioJob.cancel"] = {"ok": await cjob.cancel()}
        out["AsyncioEndpoint.health"] = {"ok": await aep.health()}
        for i in range(2):
            await aep.run({"aq": i})
        out["AsyncioEndpoint.purge_queue"] = {"ok": await aep.purge_queue()}


try:
    asyncio.run(asyncio_scenario())
except Exception as e:
    out["asyncio scenario"] = {"error": f"{type(e).__name__}: {e}"}

print(json.dumps(out))
