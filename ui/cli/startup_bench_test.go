package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The start-up promises are ratios against a Go hello-world built with the
// same toolchain and run in the same benchmark, so a slow or busy machine
// moves both sides alike. Each iteration runs the hello-world and stackpick
// once, alternating, and the metric is the ratio of their medians:
//
//	go test ./ui/cli -run '^$' -bench Startup -benchtime 200x
//
// x-hello is the figure the README quotes; ms-stackpick and ms-hello are the
// medians behind it. The "floor" case is a program that links every
// package stackpick's command line does and returns from main at once:
// what loading those packages costs before stackpick runs a line.
// moduleRoot is the module's folder, seen from this package's.
const moduleRoot = "../.."

func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	stackpick := filepath.Join(dir, "stackpick")
	hello := filepath.Join(dir, "hello")
	floor := filepath.Join(dir, "floor")
	goBuild(b, moduleRoot, stackpick, ".")
	// The floor's main package exists only in a build overlay, so nothing
	// is written into the module.
	root, err := filepath.Abs(moduleRoot)
	if err != nil {
		b.Fatal(err)
	}
	floorMain := filepath.Join(dir, "floor.go")
	writeFile(b, floorMain, "package main\n\nimport _ \"github.com/stackpick/stackpick/ui/cli\"\n\nfunc main() {}\n")
	overlay := filepath.Join(dir, "overlay.json")
	writeFile(b, overlay, fmt.Sprintf(`{"Replace": {%q: %q}}`, filepath.Join(root, "startupfloor", "main.go"), floorMain))
	goBuild(b, moduleRoot, floor, "./startupfloor", "-overlay", overlay)
	helloDir := filepath.Join(dir, "hello-src")
	if err := os.MkdirAll(helloDir, 0o755); err != nil {
		b.Fatal(err)
	}
	writeFile(b, filepath.Join(helloDir, "go.mod"), "module hello\n\ngo 1.26\n")
	writeFile(b, filepath.Join(helloDir, "main.go"), "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\") }\n")
	goBuild(b, helloDir, hello, ".")

	for _, c := range []struct {
		name string
		bin  string
		args []string
	}{
		{"decide-json", stackpick, []string{"decide", "--scenario", "exit-test", "--format", "json"}},
		{"manifest", stackpick, []string{"manifest", "--scenario", "nvidia-fleet", "--out", "-"}},
		{"version", stackpick, []string{"version"}},
		{"help", stackpick, []string{"--help"}},
		{"floor", floor, nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			runTimed(b, c.bin, c.args) // warm the page cache
			runTimed(b, hello, nil)
			var sp, hw []time.Duration
			for b.Loop() {
				hw = append(hw, runTimed(b, hello, nil))
				sp = append(sp, runTimed(b, c.bin, c.args))
			}
			ms, mh := median(sp), median(hw)
			b.ReportMetric(float64(ms)/float64(mh), "x-hello")
			b.ReportMetric(float64(ms)/1e6, "ms-stackpick")
			b.ReportMetric(float64(mh)/1e6, "ms-hello")
		})
	}
}

// goBuild builds pkg in dir into out with the toolchain running the test
// (go test puts its own GOROOT/bin first on the PATH).
func goBuild(b *testing.B, dir, out, pkg string, flags ...string) {
	b.Helper()
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "-o", out, pkg)...)
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
}

func writeFile(b *testing.B, path, text string) {
	b.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
}

// runTimed executes bin with args, output discarded, and returns its wall time
// from start to exit.
func runTimed(b *testing.B, bin string, args []string) time.Duration {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "STACKPICK_KB=")
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %v: %v", filepath.Base(bin), args, err)
	}
	return time.Since(start)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
