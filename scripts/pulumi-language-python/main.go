// Minimal Python language host for the Pulumi engine: TEST TOOLING of this repository.
//
// Why this exists: the official `pulumi-language-python` module is not served by the Go module proxy
// this project can reach (see scripts/build-pulumi-tools.sh). Users bring the official host with their
// Pulumi CLI; this one only runs the Python programs of tests/multilang.
//
// It speaks the LanguageRuntime protocol and implements what `pulumi preview|up|refresh|destroy|import`
// need: Run starts `<python> pulumi-language-python-exec <program>` (run.py, installed beside this
// binary), which drives the program with the pulumi package's public API. The interpreter is the
// program's virtualenv (`runtime.options.virtualenv` in Pulumi.yaml, relative to the program or
// absolute), else `python3` on PATH. GenerateProgram (`pulumi import`'s code) uses Pulumi's
// codegen/python (scripts/pulumi-language-codegen). No dependency installation (the test's virtualenv
// is prepared by scripts/build-pulumi-tools.sh).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	pycodegen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"local/pulumi-runpod-tools/codegen"
)

// Exit code of the run script after it has already shown the user an actionable error.
const exitAfterUserActionableMessage = 32

func main() {
	flag.String("tracing", "", "Zipkin-compatible tracing endpoint (ignored)")
	flag.String("virtualenv", "", "ignored: the virtualenv comes from the program's runtime options")
	flag.String("typechecker", "", "ignored")
	flag.String("toolchain", "", "ignored")
	flag.String("root", "", "ignored")
	showVersion := flag.Bool("version", false, "print the plugin version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println(version.Version)
		return
	}

	host := &languageHost{}
	if args := flag.Args(); len(args) > 0 {
		host.engineAddress = args[0]
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	cancelServe := make(chan bool)
	go func() {
		<-ctx.Done()
		stop()
		close(cancelServe)
	}()
	if host.engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, host.engineAddress, 5*time.Minute, stop); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start health check: %w", err))
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelServe,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start language host RPC server: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		cmdutil.Exit(fmt.Errorf("language host RPC stopped serving: %w", err))
	}
}

type languageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	engineAddress string
	mu            sync.Mutex
	running       map[*exec.Cmd]struct{}
}

func (h *languageHost) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.engineAddress = req.GetEngineAddress()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *languageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// GetRequiredPackages reports none: provider plugins come from Pulumi.yaml `plugins.providers`, PATH or
// `pulumi plugin install`, and the engine loads a default provider when a resource first needs it.
func (h *languageHost) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *languageHost) GetProgramDependencies(
	context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

// InstallDependencies has nothing to do: the virtualenv is prepared before the program runs.
func (h *languageHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	return nil
}

// python is the interpreter for a program: its virtualenv's, else python3 on PATH.
func python(programDir string, opts map[string]any) (string, error) {
	if venv, ok := opts["virtualenv"].(string); ok && venv != "" {
		if !filepath.IsAbs(venv) {
			venv = filepath.Join(programDir, venv)
		}
		p := filepath.Join(venv, "bin", "python")
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("the virtualenv %s has no bin/python: %w", venv, err)
		}
		return p, nil
	}
	return exec.LookPath("python3")
}

func runScript() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	p := filepath.Join(filepath.Dir(exe), "pulumi-language-python-exec")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("the run script %s is missing: run `npm run setup`", p)
	}
	return p, nil
}

func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	programDir := info.GetProgramDirectory()
	if programDir == "" {
		programDir = req.GetPwd()
	}
	opts := map[string]any{}
	if info.GetOptions() != nil {
		opts = info.GetOptions().AsMap()
	}
	py, err := python(programDir, opts)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	script, err := runScript()
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cfg, _ := json.Marshal(req.GetConfig())
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, _ := json.Marshal(secretKeys)
	env := append(os.Environ(), "PULUMI_CONFIG="+string(cfg), "PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON))

	args := []string{"-u", script}
	flagArg := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}
	flagArg("monitor", req.GetMonitorAddress())
	flagArg("engine", h.engineAddress)
	flagArg("organization", req.GetOrganization())
	flagArg("project", req.GetProject())
	flagArg("stack", req.GetStack())
	flagArg("root-directory", info.GetRootDirectory())
	flagArg("parallel", strconv.Itoa(int(req.GetParallel())))
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	entry := info.GetEntryPoint()
	if entry == "" {
		entry = "."
	}
	args = append(args, filepath.Join(programDir, entry))

	cmd := exec.Command(py, args...)
	cmd.Dir = programDir
	cmd.Env = env
	cmd.Stdout = struct{ *os.File }{os.Stdout}
	cmd.Stderr = struct{ *os.File }{os.Stderr}
	if err := cmd.Start(); err != nil {
		return &pulumirpc.RunResponse{Error: "could not start the Python program: " + err.Error()}, nil
	}
	h.track(cmd, true)
	defer h.track(cmd, false)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-ctx.Done():
		_ = cmd.Process.Signal(os.Interrupt)
		waitErr = <-done
	}
	if waitErr == nil {
		return &pulumirpc.RunResponse{}, nil
	}
	var exitErr *exec.ExitError
	if errors.As(waitErr, &exitErr) {
		if exitErr.ExitCode() == exitAfterUserActionableMessage {
			return &pulumirpc.RunResponse{Bail: true}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode())}, nil
	}
	return &pulumirpc.RunResponse{Error: "Program exited unexpectedly: " + waitErr.Error()}, nil
}

func (h *languageHost) track(cmd *exec.Cmd, add bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.running == nil {
		h.running = map[*exec.Cmd]struct{}{}
	}
	if add {
		h.running[cmd] = struct{}{}
	} else {
		delete(h.running, cmd)
	}
}

// Cancel interrupts running programs, so the SDK can shut down gracefully.
func (h *languageHost) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for cmd := range h.running {
		if cmd.Process != nil {
			_ = cmd.Process.Signal(os.Interrupt)
		}
	}
	return &emptypb.Empty{}, nil
}

func (h *languageHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	return &pulumirpc.AboutResponse{Metadata: map[string]string{"host": "minimal (test tooling)"}}, nil
}

func (h *languageHost) RuntimeOptionsPrompts(
	context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

// GenerateProgram turns PCL into a Python program with Pulumi's own generator, as the official
// host does: the code `pulumi import` prints, and `pulumi-runpod adopt`'s.
func (h *languageHost) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return codegen.GenerateProgram(ctx, req, pycodegen.GenerateProgram)
}
