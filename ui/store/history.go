package store

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/stackpick/stackpick/scenarios/drill"
)

// Schema names the file format.
const Schema = "stackpick.history/v1"

// Record is one finished drill.
type Record struct {
	Drill  string   `json:"drill"`
	At     string   `json:"at"` // RFC 3339, from the caller's clock
	Seed   uint64   `json:"seed,omitempty"`
	Points float64  `json:"points"`
	Max    float64  `json:"max"`
	Pass   *bool    `json:"pass,omitempty"` // mock exit test only
	Missed []string `json:"missed"`
}

// NewRecord is the record of a graded drill; the caller stamps At from its
// clock.
func NewRecord(name string, seed uint64, s drill.Score) Record {
	return Record{Drill: name, Seed: seed, Points: s.Points, Max: s.Max, Missed: s.Missed}
}

// MockRecord is the record of the mock exit test: its score (a point per
// part) and its verdict.
func MockRecord(seed uint64, r drill.MockResult) Record {
	rec := NewRecord(drill.Mock, seed, r.Score())
	pass := r.Pass
	rec.Pass = &pass
	return rec
}

type file struct {
	Schema  string   `json:"schema"`
	Records []Record `json:"records"`
}

// DefaultHistoryPath is the history file in the XDG state folder:
// $XDG_STATE_HOME/stackpick/history.json, where an unset (or relative)
// XDG_STATE_HOME means ~/.local/state, as the XDG base directory spec
// says; on Windows, the local application data folder. The folder is
// created if needed. (A few lines here instead of a dependency whose init
// reads ~/.config/user-dirs.dirs on every run of every command.)
func DefaultHistoryPath() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) {
		if runtime.GOOS == "windows" {
			dir, err := os.UserCacheDir() // %LocalAppData%
			if err != nil {
				return "", err
			}
			base = dir
		} else {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("no home folder for the drill history (set STACKPICK_HISTORY): %w", err)
			}
			base = filepath.Join(home, ".local", "state")
		}
	}
	dir := filepath.Join(base, "stackpick")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return filepath.Join(dir, "history.json"), nil
}

// RollBytes bounds the history file: an append that would take it past
// this size first archives it beside itself (path + ".1", ".2", ... in
// the order they filled) and starts a new file, so no record is lost and
// no drill reads or rewrites more than this. A history found larger than
// this (grown by something else) is archived the same way when it is
// read, never read into memory.
var RollBytes int64 = 4 << 20

// errTooLarge is why a history over RollBytes is archived unread.
var errTooLarge = errors.New("too large")

// LoadHistory reads the history. A missing file is an empty history. A file that
// does not parse, or is not a stackpick history, is renamed aside under the
// history's lock; the returned notice says where it went. A file over
// RollBytes is archived unread (see RollBytes).
func LoadHistory(path, stamp string) (records []Record, notice string, err error) {
	records, bad, err := readHistory(path)
	if err != nil || bad == nil {
		return records, "", err
	}
	// Set aside under the lock: another stackpick may be appending, or
	// may have set it aside already.
	unlock, err := lockHistory(path)
	if err != nil {
		return nil, "", err
	}
	defer unlock()
	return loadLocked(path, stamp)
}

// readHistory reads the file without the lock (every write is a rename,
// so a reader sees a whole file). bad is why the file is not a history
// to keep, if it is not. It reads no more than RollBytes+1 bytes.
func readHistory(path string) (records []Record, bad error, err error) {
	// Opening a FIFO with no writer blocks for ever: look first.
	if info, serr := os.Stat(path); serr == nil && !info.Mode().IsRegular() {
		kind := "a folder"
		if !info.IsDir() {
			kind = kindOf(info.Mode())
		}
		return nil, nil, fmt.Errorf("drill history %s is %s, not a regular file; set STACKPICK_HISTORY to a file's path", path, kind)
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read drill history %s: %w", path, err)
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, RollBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read drill history %s: %w", path, err)
	}
	if int64(len(raw)) > RollBytes {
		return nil, errTooLarge, nil
	}
	var hf file
	if jerr := json.Unmarshal(raw, &hf); jerr != nil {
		return nil, fmt.Errorf("it does not parse (%w)", jerr), nil
	}
	if hf.Schema != Schema {
		return nil, errors.New("it is not a stackpick drill history"), nil
	}
	return hf.Records, nil, nil
}

// loadLocked reads the history, the lock held, setting an unreadable file
// aside and archiving one over RollBytes.
func loadLocked(path, stamp string) (records []Record, notice string, err error) {
	records, bad, err := readHistory(path)
	if err != nil || bad == nil {
		return records, "", err
	}
	if errors.Is(bad, errTooLarge) {
		archive, err := archiveLocked(path)
		if err != nil {
			return nil, "", err
		}
		return nil, fmt.Sprintf("drill history %s is over %s; it was archived as %s and a new history starts now", path, sizeText(RollBytes), archive), nil
	}
	aside := path + ".unreadable-" + stamp
	// Never replace an earlier set-aside file: number the next one.
	for n := 2; ; n++ {
		if _, serr := os.Lstat(aside); errors.Is(serr, fs.ErrNotExist) {
			break
		}
		aside = fmt.Sprintf("%s.unreadable-%s-%d", path, stamp, n)
	}
	if rerr := os.Rename(path, aside); rerr != nil {
		return nil, "", fmt.Errorf("drill history %s is unreadable and could not be set aside: %w", path, rerr)
	}
	return nil, fmt.Sprintf("drill history %s was set aside as %s: %v; a new history starts now", path, aside, bad), nil
}

// Archives lists the history's archives (see RollBytes), oldest first.
func Archives(path string) []string {
	type numbered struct {
		n    int
		name string
	}
	var found []numbered
	names, _ := filepath.Glob(globEscape(path) + ".[0-9]*")
	for _, name := range names {
		n, err := strconv.Atoi(strings.TrimPrefix(name, path+"."))
		if err == nil && n > 0 {
			found = append(found, numbered{n, name})
		}
	}
	slices.SortFunc(found, func(a, b numbered) int { return cmp.Compare(a.n, b.n) })
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.name
	}
	return out
}

// globEscape quotes the glob metacharacters in a path.
func globEscape(path string) string {
	var b strings.Builder
	for _, r := range path {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// archiveLocked renames the history, the lock held, to the next archive
// number beside it (one more than the newest), never replacing one.
func archiveLocked(path string) (string, error) {
	n := 1
	if all := Archives(path); len(all) > 0 {
		last, _ := strconv.Atoi(strings.TrimPrefix(all[len(all)-1], path+"."))
		n = last + 1
	}
	for ; ; n++ {
		archive := path + "." + strconv.Itoa(n)
		if _, err := os.Lstat(archive); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(path, archive); err != nil {
			return "", fmt.Errorf("drill history %s is full (%s) and could not be archived: %w", path, sizeText(RollBytes), err)
		}
		return archive, nil
	}
}

// sizeText is n bytes in MiB when whole, else in bytes.
func sizeText(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// AppendHistory adds one record: under an advisory lock on a file beside
// the history (path + ".lock"), it reads the history again, appends and
// rewrites it atomically, so drills finishing together lose no record.
func AppendHistory(path string, rec Record, stamp string) (notice string, err error) {
	// A history path the user chose ($STACKPICK_HISTORY) may name a folder
	// that does not exist yet, as the default XDG one may.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	unlock, err := lockHistory(path)
	if err != nil {
		return "", err
	}
	defer unlock()
	records, notice, err := loadLocked(path, stamp)
	if err != nil {
		return notice, err
	}
	if rec.Missed == nil {
		rec.Missed = []string{}
	}
	data, err := json.MarshalIndent(file{Schema: Schema, Records: append(records, rec)}, "", "  ")
	if err != nil {
		return notice, err
	}
	if int64(len(data)) >= RollBytes && len(records) > 0 {
		// Full: archive what is there, and start a new file with this one.
		archive, err := archiveLocked(path)
		if err != nil {
			return notice, err
		}
		notice = joinNotice(notice, fmt.Sprintf("drill history %s reached %s: its %d records were archived as %s, and a new history starts with this drill", path, sizeText(RollBytes), len(records), archive))
		if data, err = json.MarshalIndent(file{Schema: Schema, Records: []Record{rec}}, "", "  "); err != nil {
			return notice, err
		}
	}
	return notice, WriteFile(path, append(data, '\n'), true)
}

func joinNotice(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\nstackpick: " + b
}

// Misses counts how often each item was missed, for drills to ask the
// weakest items first and more often.
func Misses(records []Record) drill.Misses {
	m := drill.Misses{}
	for _, r := range records {
		for _, id := range r.Missed {
			m[id]++
		}
	}
	return m
}

// DrillStats is the progress of one drill over time.
type DrillStats struct {
	Drill    string    `json:"drill"`
	Attempts int       `json:"attempts"`
	Ratios   []float64 `json:"ratios"` // each attempt's share of points, oldest first
	Best     float64   `json:"best"`
	Last     float64   `json:"last"`
	Passes   int       `json:"passes,omitempty"`
}

// ItemMiss is how often one item was missed.
type ItemMiss struct {
	Item  string `json:"item"`
	Count int    `json:"count"`
}

// Summary is what `stackpick drill stats` shows.
type Summary struct {
	Drills     []DrillStats `json:"drills"`
	MostMissed []ItemMiss   `json:"most_missed"`
}

// Summarize computes progress per drill and the most-missed items.
func Summarize(records []Record) Summary {
	var s Summary
	for _, name := range drill.Names {
		ds := DrillStats{Drill: name}
		for _, r := range records {
			if r.Drill != name {
				continue
			}
			ratio := 0.0
			if r.Max > 0 {
				ratio = r.Points / r.Max
			}
			ds.Attempts++
			ds.Ratios = append(ds.Ratios, ratio)
			ds.Best = max(ds.Best, ratio)
			ds.Last = ratio
			if r.Pass != nil && *r.Pass {
				ds.Passes++
			}
		}
		if ds.Attempts > 0 {
			s.Drills = append(s.Drills, ds)
		}
	}
	for item, n := range Misses(records) {
		s.MostMissed = append(s.MostMissed, ItemMiss{item, n})
	}
	slices.SortFunc(s.MostMissed, func(a, b ItemMiss) int {
		return cmp.Or(b.Count-a.Count, cmp.Compare(a.Item, b.Item))
	})
	if len(s.MostMissed) > 10 {
		s.MostMissed = s.MostMissed[:10]
	}
	return s
}
