// Package cli is stackpick's entry point: the choice of mode (the commands,
// the full-screen app, the line-by-line drills), one file per command,
// cobra styled by fang, and the exit-code discipline (0 ok, 1 internal
// error, 2 bad input or usage, 130 interrupted) from typed errors. It words
// decisions through ui/report, decides through decide/ and keeps files
// through ui/store; it never computes or words a decision itself. Nothing
// of ours imports it but main.
package cli
