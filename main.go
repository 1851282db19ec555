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
	os.Exit(cli.Run(context.Background(), os.Args[1:], cli.IO{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Env:    os.Environ(),
	}))
}
