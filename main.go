// Command stackpick helps architects choose an LLM serving stack (engine,
// model server, orchestrator) and defend the choice. main only wires the
// process to the command line; everything else lives in ui/, decide/,
// knowledge/ and scenarios/.
package main

import (
	"context"
	"os"

	"github.com/stackpick/stackpick/ui/cli"
)

func main() {
	// SIGINT, SIGTERM and SIGHUP end the run through its context, before
	// any command starts: the terminal is put back, nothing half-written
	// is left, and the exit code is 128+n (cli.WithSignals).
	ctx, stop := cli.WithSignals(context.Background())
	code := cli.Run(ctx, os.Args[1:], cli.IO{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Env:    os.Environ(),
	})
	stop()
	os.Exit(code)
}
