// A Go program on the generated SDK (sdk/go/runpod), declared by stack config so each test step is a
// config change: a template, a network volume (config `volumeSize`), an endpoint on the template mounting
// it, a GPU pod mounting it in its data center (config `podStatus`), the catalog functions, and (config
// `adopted`, `adoptedVolume`) an endpoint and a volume adopted with `pulumi import`.
// tests/multilang/go.test.ts runs it through the real CLI.
package main

import (
	"encoding/json"
	"sort"

	"github.com/pulumi-runpod/pulumi-runpod/sdk/go/runpod"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

type adoptedSpec struct {
	Name       string   `json:"name"`
	TemplateID string   `json:"templateId"`
	GpuIDs     []string `json:"gpuIds"`
	WorkersMax int      `json:"workersMax"`
}

type adoptedVolumeSpec struct {
	Name         string `json:"name"`
	Size         int    `json:"size"`
	DataCenterID string `json:"dataCenterId"`
	Type         string `json:"type"`
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		workersMax := cfg.GetInt("workersMax")
		if workersMax == 0 {
			workersMax = 3
		}

		template, err := runpod.NewTemplate(ctx, "llm", &runpod.TemplateArgs{
			ImageName: pulumi.String("registry.example.com/team/llm:1.0"),
			Env:       pulumi.StringMap{"MODEL": pulumi.String("llama-3-8b")},
		})
		if err != nil {
			return err
		}
		volumeSize := cfg.GetInt("volumeSize")
		if volumeSize == 0 {
			volumeSize = 10
		}
		podStatus := cfg.Get("podStatus")
		if podStatus == "" {
			podStatus = "RUNNING"
		}

		volume, err := runpod.NewNetworkVolume(ctx, "data", &runpod.NetworkVolumeArgs{
			Size:         pulumi.Int(volumeSize),
			DataCenterId: pulumi.String("EU-RO-1"),
			Type:         pulumi.String("STANDARD"),
		})
		if err != nil {
			return err
		}
		api, err := runpod.NewEndpoint(ctx, "api", &runpod.EndpointArgs{
			TemplateId:      template.ID().ToStringOutput(),
			GpuIds:          pulumi.StringArray{pulumi.String("ADA_24"), pulumi.String("AMPERE_24")},
			WorkersMax:      pulumi.Int(workersMax),
			NetworkVolumeId: volume.ID().ToStringOutput(),
		})
		if err != nil {
			return err
		}
		// The pod is placed where the volume is: its data center is the volume's own output.
		dev, err := runpod.NewPod(ctx, "dev", &runpod.PodArgs{
			ImageName:       pulumi.String("runpod/pytorch:2.4.0"),
			GpuTypeIds:      pulumi.StringArray{pulumi.String("NVIDIA GeForce RTX 4090")},
			DataCenterIds:   pulumi.StringArray{volume.DataCenterId.Elem()},
			NetworkVolumeId: volume.ID().ToStringOutput(),
			Ports:           pulumi.StringArray{pulumi.String("8888/http")},
			DesiredStatus:   pulumi.String(podStatus),
		})
		if err != nil {
			return err
		}

		if adopted := cfg.Get("adopted"); adopted != "" {
			var spec adoptedSpec
			if err := json.Unmarshal([]byte(adopted), &spec); err != nil {
				return err
			}
			if _, err := runpod.NewEndpoint(ctx, "adopted", &runpod.EndpointArgs{
				Name:       pulumi.String(spec.Name),
				TemplateId: pulumi.String(spec.TemplateID),
				GpuIds:     pulumi.ToStringArray(spec.GpuIDs),
				WorkersMax: pulumi.Int(spec.WorkersMax),
			}); err != nil {
				return err
			}
		}

		if adopted := cfg.Get("adoptedVolume"); adopted != "" {
			var spec adoptedVolumeSpec
			if err := json.Unmarshal([]byte(adopted), &spec); err != nil {
				return err
			}
			if _, err := runpod.NewNetworkVolume(ctx, "adoptedVolume", &runpod.NetworkVolumeArgs{
				Name:         pulumi.String(spec.Name),
				Size:         pulumi.Int(spec.Size),
				DataCenterId: pulumi.String(spec.DataCenterID),
				Type:         pulumi.String(spec.Type),
			}); err != nil {
				return err
			}
		}

		// The catalog functions: one GPU type's serverless price and availability, a filtered data-center list.
		gpus, err := runpod.GetGpuTypes(ctx, &runpod.GetGpuTypesArgs{Product: []string{"SERVERLESS"}})
		if err != nil {
			return err
		}
		for _, g := range gpus.GpuTypes {
			if g.Id == "NVIDIA GeForce RTX 4090" {
				ctx.Export("rtx4090", pulumi.Map{
					"pool":            pulumi.StringPtrFromPtr(g.Pool),
					"serverlessPrice": pulumi.Float64PtrFromPtr(g.Price.Serverless),
					"availability":    pulumi.StringPtrFromPtr(g.Availability),
				})
			}
		}
		dcs, err := runpod.GetDataCenters(ctx, &runpod.GetDataCentersArgs{
			Regions:            []string{"EUROPE"},
			NetworkVolumeTypes: []string{"HIGH_PERFORMANCE"},
		})
		if err != nil {
			return err
		}
		ids := []string{}
		for _, dc := range dcs.DataCenters {
			ids = append(ids, dc.Id)
		}
		sort.Strings(ids)
		ctx.Export("europeHighPerformance", pulumi.ToStringArray(ids))

		ctx.Export("endpointId", api.ID())
		ctx.Export("endpointName", api.Name)
		ctx.Export("templateId", template.ID())
		ctx.Export("workersMax", api.WorkersMax)
		ctx.Export("volumeId", volume.ID())
		ctx.Export("volumeSize", volume.Size)
		ctx.Export("volumeMonthlyCost", volume.MonthlyCost)
		ctx.Export("pod", pulumi.Map{
			"id":              dev.ID(),
			"status":          dev.Status,
			"desiredStatus":   dev.DesiredStatus,
			"costPerHour":     dev.CostPerHour,
			"gpuTypeId":       dev.GpuTypeId,
			"dataCenterId":    dev.DataCenterId,
			"networkVolumeId": dev.NetworkVolumeId,
		})
		return nil
	})
}
