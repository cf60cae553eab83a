// The YAML language host of pulumi-yaml v1.19.1 (the newest the Go module proxy here serves), with one
// gap closed: TEST TOOLING of this repository, built by scripts/build-pulumi-tools.sh. Users bring the
// official host with their Pulumi CLI.
//
// The gap: pulumi-yaml v1.19.1 reads the stack configuration from RunRequest.configPropertyMap, which
// the engine of CLI 3.259 no longer fills (it sends `config` and `configSecretKeys`), so every value of
// a program's `config:` block is "not found". Run fills the map from `config` before handing the
// request to the unmodified host: values that parse as JSON numbers, booleans, lists or objects are
// typed (Pulumi stores typed config as JSON text), others are strings; secret keys become secrets.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/pulumi/pulumi-yaml/pkg/server"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

type host struct {
	pulumirpc.LanguageRuntimeServer
}

func typed(raw string) resource.PropertyValue {
	var v interface{}
	if json.Unmarshal([]byte(raw), &v) == nil {
		switch v.(type) {
		case float64, bool, []interface{}, map[string]interface{}:
			return resource.NewPropertyValue(v)
		}
	}
	return resource.NewStringProperty(raw)
}

func (h host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if len(req.GetConfigPropertyMap().GetFields()) == 0 && len(req.GetConfig()) > 0 {
		secret := map[string]bool{}
		for _, k := range req.GetConfigSecretKeys() {
			secret[k] = true
		}
		props := resource.PropertyMap{}
		for k, raw := range req.GetConfig() {
			v := typed(raw)
			if secret[k] {
				v = resource.MakeSecret(v)
			}
			props[resource.PropertyKey(k)] = v
		}
		m, err := plugin.MarshalProperties(props, plugin.MarshalOptions{KeepSecrets: true})
		if err != nil {
			return &pulumirpc.RunResponse{Error: err.Error()}, nil
		}
		req.ConfigPropertyMap = m
	}
	return h.LanguageRuntimeServer.Run(ctx, req)
}

func main() {
	var tracing string
	flag.StringVar(&tracing, "tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	flag.String("root", "", "Root of the program execution")
	flag.String("compiler", "", "[obsolete]")
	flag.Parse()
	args := flag.Args()
	var engineAddress string
	cancel := make(chan bool)
	if len(args) > 0 {
		engineAddress = args[0]
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		go func() {
			<-ctx.Done()
			stop()
			close(cancel)
		}()
		if err := rpcutil.Healthcheck(ctx, engineAddress, 5*time.Minute, stop); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start health check: %w", err))
		}
	}
	port, done, err := rpcutil.Serve(0, cancel, []func(*grpc.Server) error{
		func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host{server.NewLanguageHost(engineAddress, tracing, false)})
			return nil
		},
	}, nil)
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start language host RPC server: %w", err))
	}
	fmt.Printf("%d\n", port)
	if err := <-done; err != nil {
		cmdutil.Exit(fmt.Errorf("language host RPC stopped serving: %w", err))
	}
}
