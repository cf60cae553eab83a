// pulumi-sdkgen: generates the Python or Go SDK of the runpod provider plugin from its schema with the
// Pulumi code generator (github.com/pulumi/pulumi/pkg/v3/codegen/python and codegen/go, at the CLI's
// version), the same code `pulumi package gen-sdk` runs through a language host. Test tooling of this
// repository, built by scripts/build-pulumi-tools.sh.
//
// Usage: pulumi-sdkgen <schema.json> <out dir> [python|go]   (default: python)
// The out dir is replaced by the generated files. Go: the files of the package (`<out dir>/runpod/…`);
// its go.mod is the caller's (scripts/pluginSdk.ts), which resolves the requirements with `go mod tidy`.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noPackages: the schema references no other package, so nothing is ever loaded.
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("package %q: the runpod schema references no other package", pkg)
}

func (noPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("package %q: the runpod schema references no other package", pkg)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pulumi-sdkgen:", err)
	os.Exit(1)
}

func main() {
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fail(fmt.Errorf("usage: pulumi-sdkgen <schema.json> <out dir> [python|go]"))
	}
	language := "python"
	if len(os.Args) == 4 {
		language = os.Args[3]
	}
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		fail(err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		fail(err)
	}
	if diags.HasErrors() {
		fail(diags)
	}
	var files map[string][]byte
	switch language {
	case "python":
		files, err = python.GeneratePackage("pulumi-sdkgen", pkg, nil, noPackages{})
	case "go":
		files, err = gogen.GeneratePackage("pulumi-sdkgen", pkg, nil)
	default:
		err = fmt.Errorf("unknown language %q: python or go", language)
	}
	if err != nil {
		fail(err)
	}
	out := os.Args[2]
	if err := os.RemoveAll(out); err != nil {
		fail(err)
	}
	for name, content := range files {
		p := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fail(err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			fail(err)
		}
	}
}
