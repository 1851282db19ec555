// Package store owns stackpick's files: atomic writes (a temporary file in
// the same folder, synced, then renamed over the target, so a reader never
// sees half a file and a failed write leaves nothing behind) and the drill
// history, one JSON file in the XDG state folder, read again and appended
// under an advisory lock on a file beside it. Only regular files are
// replaced, never a pipe or a device. A history that is not ours or no
// longer parses is set aside (renamed), never overwritten.
// Grading and scores live in scenarios/drill; this package only keeps their
// records. It must not import ui/tui, ui/cli, ui/report or any Charm package.
package store
