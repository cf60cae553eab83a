// Serverless GPU endpoints, templates and registry credentials of a RunPod-like platform.
package runpod
