package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/store"
)

// Reading the user's files and writing results: the one place the
// commands touch the file system.

// readInput reads an answers file, or stdin for "-", with an error a
// person can act on: only a regular file within knowledge.MaxInputBytes is
// read (a pipe, a device or a folder is refused before it is opened), and
// stdin is read no further than the limit.
func readInput(stdin io.Reader, file string) ([]byte, error) {
	if file == "-" {
		return knowledge.ReadInputFrom(stdin, "-", knowledge.AnswersFile)
	}
	data, err := knowledge.ReadInput(file, knowledge.AnswersFile)
	var e *knowledge.Error
	if errors.Is(err, fs.ErrNotExist) && errors.As(err, &e) {
		e.Hint = "check the path, or start from a preset: stackpick decide --scenario exit-test"
	}
	return data, err
}

// emit writes a rendering to stdout, or atomically to a file. render gets
// color=true when the destination is stdout (the writer strips colour when
// stdout is not a colour terminal); files never get colour. Missing
// folders in the path are created, as ADR tools do; only a regular file is
// replaced, and only with --force.
func (a *app) emit(out string, force bool, render func(w io.Writer, color bool) error) error {
	if out == "" || out == "-" {
		w := a.out(a.io.Stdout)
		return render(w, true)
	}
	undo, err := store.MakeParents(out)
	if err == nil {
		err = store.WriteFrom(out, func(w io.Writer) error {
			// Files never get colour, whatever the terminal can do.
			plain := colorprofile.NewWriter(w, a.io.Env)
			plain.Profile = colorprofile.NoTTY
			return render(plain, false)
		}, force)
		if err != nil {
			undo()
		}
	}
	var notRegular *store.NotRegularError
	switch {
	case errors.Is(err, store.ErrIsDir):
		return badInput(&knowledge.Error{File: out, Problem: "is a folder", Hint: "give a file name inside it, for example --out " + filepath.Join(out, "decision.md")})
	case errors.As(err, &notRegular):
		return badInput(&knowledge.Error{File: out, Problem: notRegular.Problem(), Hint: "give --out the name of a regular file, or leave --out out to write to standard output"})
	case errors.Is(err, store.ErrExists):
		return badInput(&knowledge.Error{File: out, Problem: "already exists; not overwritten", Hint: "pass --force to replace it, or choose another --out"})
	case err != nil:
		// store says "cannot write in DIR: …" or "cannot create the
		// folder DIR: …" itself; a bare reason gets the "cannot write".
		problem := strings.TrimPrefix(err.Error(), out+": ")
		if !strings.HasPrefix(problem, "cannot ") {
			problem = "cannot write: " + problem
		}
		ke := &knowledge.Error{File: out, Problem: problem}
		if isEnvironment(err) {
			return environmentFault(ke)
		}
		return badInput(ke)
	}
	fmt.Fprintf(a.io.Stderr, "wrote %s\n", out)
	return nil
}
