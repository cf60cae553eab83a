// Minimal Node.js language host for the Pulumi engine.
//
// Why this exists: the official `pulumi-language-nodejs` module is not served by
// the Go module proxy this project can reach, while the CLI (pkg/v3) and the Go
// SDK (sdk/v3) are. scripts/install-pulumi.sh builds this file against sdk/v3
// only when the official module cannot be fetched.
//
// It speaks the LanguageRuntime gRPC protocol (sdk/v3/proto/go) and implements
// what `pulumi preview|up|refresh|destroy|import` need for a TypeScript or
// JavaScript program: Run (spawn `node @pulumi/pulumi/cmd/run`), plugin
// discovery, plugin info, `pulumi install` and `pulumi about`. Code generation
// (GenerateProgram & co.) is not implemented, so use `pulumi import
// --generate-code=false`. Synchronous invokes (the legacy file-pipe channel)
// are not supported; async invokes go straight to the engine's monitor.
// Programs are started with preload.js (installed beside this binary as
// pulumi-language-nodejs-preload.js), a workaround for a Node.js bug; see that file.
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
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The SDK's run script exits with this code after it has already shown the user
// an actionable error; the engine should then stop without adding noise.
const exitAfterUserActionableMessage = 32

func main() {
	// The engine passes flags it knows all language hosts accept; parse them so
	// they are not mistaken for the engine address.
	flag.String("tracing", "", "Zipkin-compatible tracing endpoint (ignored)")
	runtimeName := flag.String("runtime", "nodejs", "only nodejs is supported")
	showVersion := flag.Bool("version", false, "print the plugin version and exit")
	flag.Parse()

	if *showVersion {
		fmt.Println(version.Version)
		return
	}
	if *runtimeName != "nodejs" {
		cmdutil.Exit(fmt.Errorf("unsupported runtime: %s", *runtimeName))
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

	// Exit on our own if the engine goes away, instead of lingering as an orphan.
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

	// The engine reads the port from our first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		cmdutil.Exit(fmt.Errorf("language host RPC stopped serving: %w", err))
	}
}

type languageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	engineAddress string

	mu      sync.Mutex
	running map[*exec.Cmd]struct{}
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

// GetRequiredPackages reports provider plugins that installed npm packages
// declare with `"pulumi": {"resource": true}`. Only the program's own
// node_modules (one level, plus scopes) is scanned: enough for direct
// dependencies, and dynamic providers need no plugin at all.
func (h *languageHost) GetRequiredPackages(
	_ context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	var pkgs []*pulumirpc.PackageDependency
	for _, manifest := range packageManifests(filepath.Join(dir, "node_modules")) {
		if dep := pluginDependency(manifest); dep != nil {
			pkgs = append(pkgs, dep)
		}
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: pkgs}, nil
}

func packageManifests(nodeModules string) []string {
	entries, err := os.ReadDir(nodeModules)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if strings.HasPrefix(name, "@") {
			scoped, err := os.ReadDir(filepath.Join(nodeModules, name))
			if err != nil {
				continue
			}
			for _, s := range scoped {
				out = append(out, filepath.Join(nodeModules, name, s.Name(), "package.json"))
			}
			continue
		}
		out = append(out, filepath.Join(nodeModules, name, "package.json"))
	}
	return out
}

func pluginDependency(manifest string) *pulumirpc.PackageDependency {
	b, err := os.ReadFile(manifest)
	if err != nil {
		return nil
	}
	var info struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		Pulumi  struct {
			Resource bool   `json:"resource"`
			Name     string `json:"name"`
			Version  string `json:"version"`
			Server   string `json:"server"`
		} `json:"pulumi"`
	}
	if json.Unmarshal(b, &info) != nil || !info.Pulumi.Resource {
		return nil
	}
	name := info.Pulumi.Name
	if name == "" {
		if !strings.HasPrefix(info.Name, "@pulumi/") {
			return nil // third-party packages must name their plugin explicitly
		}
		name = strings.TrimPrefix(info.Name, "@pulumi/")
	}
	ver := info.Pulumi.Version
	if ver == "" {
		ver = info.Version
	}
	if ver != "" && !strings.HasPrefix(ver, "v") {
		ver = "v" + ver
	}
	return &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: ver, Server: info.Pulumi.Server}
}

// Run executes the program through the SDK's own entry point
// (@pulumi/pulumi/cmd/run), resolved from the program directory so the
// program's copy of the SDK is used.
func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	programDir := info.GetProgramDirectory()
	if programDir == "" {
		programDir = req.GetPwd()
	}

	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the $PATH: " + err.Error()}, nil
	}
	runScript := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH")
	if runScript == "" {
		runScript = "@pulumi/pulumi/cmd/run"
	}
	runPath, err := resolveModule(ctx, nodeBin, programDir, runScript)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	opts := map[string]any{}
	if info.GetOptions() != nil {
		opts = info.GetOptions().AsMap()
	}

	env := os.Environ()
	cfg, err := configJSON(req.GetConfig())
	if err != nil {
		return &pulumirpc.RunResponse{Error: "failed to serialize configuration: " + err.Error()}, nil
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, _ := json.Marshal(secretKeys)
	env = append(env, "PULUMI_CONFIG="+cfg, "PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON))
	// TypeScript is on unless Pulumi.yaml says `runtime.options.typescript: false`.
	if ts, ok := opts["typescript"].(bool); !ok || ts {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if tsconfig, ok := opts["tsconfig"].(string); ok && tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}

	var args []string
	if preload := preloadScript(); preload != "" {
		// `--require=<path>` as one argument: the SDK treats a bare `--require` as a custom loader.
		args = append(args, "--require="+preload)
	}
	if nodeargs, ok := opts["nodeargs"].(string); ok {
		args = append(args, strings.Fields(nodeargs)...)
	}
	args = append(args, runPath)
	flagArg := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}
	flagArg("monitor", req.GetMonitorAddress())
	flagArg("engine", h.engineAddress)
	flagArg("organization", req.GetOrganization())
	flagArg("project", req.GetProject())
	flagArg("root-directory", info.GetRootDirectory())
	flagArg("stack", req.GetStack())
	flagArg("pwd", programDir)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	flagArg("parallel", strconv.Itoa(int(req.GetParallel())))
	entry := info.GetEntryPoint()
	if entry == "" {
		entry = "."
	}
	args = append(args, entry)
	args = append(args, req.GetArgs()...)

	cmd := exec.Command(nodeBin, args...)
	cmd.Dir = programDir
	cmd.Env = env
	// Node may flip its stdio to non-blocking; wrap so the child never shares our fds directly.
	cmd.Stdout = struct{ *os.File }{os.Stdout}
	cmd.Stderr = struct{ *os.File }{os.Stderr}
	if err := cmd.Start(); err != nil {
		return &pulumirpc.RunResponse{
			Error: "Problem executing program (could not run language executor): " + err.Error(),
		}, nil
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
		return &pulumirpc.RunResponse{
			Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
		}, nil
	}
	return &pulumirpc.RunResponse{Error: "Program exited unexpectedly: " + waitErr.Error()}, nil
}

// preloadScript is the workaround for a Node.js util.inspect bug that stalls failing programs for
// tens of seconds (see preload.js); install-pulumi.sh puts it next to this binary.
func preloadScript() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), "pulumi-language-nodejs-preload.js")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
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

// configJSON presents config keys as `<namespace>:config:<name>`, the form every
// @pulumi/pulumi version understands.
func configJSON(cfg map[string]string) (string, error) {
	out := make(map[string]string, len(cfg))
	for k, v := range cfg {
		key, err := config.ParseKey(k)
		if err != nil {
			return "", err
		}
		out[key.Namespace()+":config:"+key.Name()] = v
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func resolveModule(ctx context.Context, nodeBin, dir, mod string) (string, error) {
	script := fmt.Sprintf(
		`try { console.log(require.resolve(%q)); } catch (e) { console.error(e.code === "MODULE_NOT_FOUND" `+
			`? "It looks like the Pulumi SDK has not been installed. Have you run npm install?" : e.message); `+
			`process.exit(1); }`, mod)
	cmd := exec.CommandContext(ctx, nodeBin, "-e", script)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return "", errors.New(strings.TrimSpace(string(exitErr.Stderr)))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// InstallDependencies backs `pulumi install`: a plain `npm install` in the program directory.
func (h *languageHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory() //nolint:staticcheck // older engines only set this
	}
	fmt.Fprintln(stdout, "Installing dependencies...")
	cmd := exec.CommandContext(server.Context(), "npm", "install")
	cmd.Dir = dir
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm install failed: %w", err)
	}
	fmt.Fprintln(stdout, "Finished installing dependencies")
	return closer.Close()
}

func (h *languageHost) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "could not find node on the $PATH: %v", err)
	}
	out, _ := exec.CommandContext(ctx, nodeBin, "--version").Output()
	return &pulumirpc.AboutResponse{
		Executable: nodeBin,
		Version:    strings.TrimSpace(string(out)),
		Metadata:   map[string]string{"packagemanager": "npm"},
	}, nil
}

// GetProgramDependencies lists the program's declared npm dependencies (from
// package.json, not the resolved tree).
func (h *languageHost) GetProgramDependencies(
	_ context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	b, err := os.ReadFile(filepath.Join(req.GetInfo().GetProgramDirectory(), "package.json"))
	if err != nil {
		return &pulumirpc.GetProgramDependenciesResponse{}, nil
	}
	var pkg struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "package.json: %v", err)
	}
	var deps []*pulumirpc.DependencyInfo
	add := func(m map[string]string) {
		for name, ver := range m {
			deps = append(deps, &pulumirpc.DependencyInfo{Name: name, Version: ver})
		}
	}
	add(pkg.Dependencies)
	if req.GetTransitiveDependencies() {
		add(pkg.DevDependencies)
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

func (h *languageHost) RuntimeOptionsPrompts(
	context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}
