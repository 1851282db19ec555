package store

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"

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

// LoadHistory reads the history. A missing file is an empty history. A file that
// does not parse, or is not a stackpick history, is renamed aside under the
// history's lock; the returned notice says where it went.
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
// to keep, if it is not.
func readHistory(path string) (records []Record, bad error, err error) {
	// Opening a FIFO with no writer blocks for ever: look first.
	if info, serr := os.Stat(path); serr == nil && !info.Mode().IsRegular() {
		kind := "a folder"
		if !info.IsDir() {
			kind = kindOf(info.Mode())
		}
		return nil, nil, fmt.Errorf("drill history %s is %s, not a regular file; set STACKPICK_HISTORY to a file's path", path, kind)
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read drill history %s: %w", path, err)
	}
	var f file
	if jerr := json.Unmarshal(raw, &f); jerr != nil {
		return nil, fmt.Errorf("it does not parse (%w)", jerr), nil
	}
	if f.Schema != Schema {
		return nil, errors.New("it is not a stackpick drill history"), nil
	}
	return f.Records, nil, nil
}

// loadLocked reads the history, the lock held, setting an unreadable file
// aside.
func loadLocked(path, stamp string) (records []Record, notice string, err error) {
	records, bad, err := readHistory(path)
	if err != nil || bad == nil {
		return records, "", err
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
	records = append(records, rec)
	data, err := json.MarshalIndent(file{Schema: Schema, Records: records}, "", "  ")
	if err != nil {
		return notice, err
	}
	return notice, WriteFile(path, append(data, '\n'), true)
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
