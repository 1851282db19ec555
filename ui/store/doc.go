// Package store owns stackpick's files: atomic writes (a temporary file in
// the same folder, synced, then renamed over the target, so a reader never
// sees half a file and a failed write leaves nothing behind) and the drill
// history, one JSON file in the XDG state folder. A history that is not
// ours or no longer parses is set aside (renamed), never overwritten.
// Grading lives in scenarios/drill; this package is only I/O. It must not
// import ui/tui, ui/cli or ui/report.
package store
