// Package codegen is the LanguageRuntime GenerateProgram of the minimal language hosts (TEST TOOLING
// and `pulumi-runpod adopt`): PCL in, one language's program out, by Pulumi's own code generators
// (pkg/v3 codegen/python, codegen/go), as the official hosts do. `pulumi import` and `pulumi convert`
// call it with the engine's schema loader, so the program binds against the provider's own schema.
package codegen

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Generator is one language's program generator (codegen/python.GenerateProgram, codegen/go.GenerateProgram).
type Generator func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error)

// GenerateProgram parses and binds the request's PCL files and generates the program with generate.
// Binding or generation problems come back as diagnostics (the engine prints them with their source
// positions); only a broken request or loader is an RPC error.
func GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest, generate Generator,
) (*pulumirpc.GenerateProgramResponse, error) {
	if req.GetLoaderTarget() == "" {
		return nil, errors.New("GenerateProgram needs the engine's schema loader (loader_target is empty)")
	}
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	// Files in a stable order, so the same source always yields the same program.
	names := make([]string, 0, len(req.GetSource()))
	for name := range req.GetSource() {
		names = append(names, name)
	}
	sort.Strings(names)
	parser := syntax.NewParser()
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(req.GetSource()[name]), name); err != nil {
			return nil, err
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics)}, nil
	}

	opts := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.GetStrict() {
		// `pulumi import` binds non-strictly: its code may name a parent or provider it does not declare.
		opts = append(opts, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgramWithContext(ctx, parser.Files, schema.NewCachedLoader(loader), opts...)
	if err != nil {
		return nil, err
	}
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiags}, nil
	}
	if program == nil {
		return nil, errors.New("internal error: the bound program is nil")
	}

	files, genDiags, err := generate(program)
	if err != nil {
		return nil, err
	}
	rpcDiags = append(rpcDiags, plugin.HclDiagnosticsToRPCDiagnostics(genDiags)...)
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: rpcDiags}, nil
}
