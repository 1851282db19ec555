package store_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/store"
)

func TestAppendThenLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.json")
	pass := true
	for i, rec := range []store.Record{
		{Drill: "taxonomy", At: "2026-11-30T10:00:00Z", Points: 7, Max: 9, Missed: []string{"taxonomy:kserve", "taxonomy:dynamo-triton"}},
		{Drill: "taxonomy", At: "2026-11-30T11:00:00Z", Points: 8, Max: 9, Missed: []string{"taxonomy:kserve"}},
		{Drill: "mock", At: "2026-11-30T12:00:00Z", Points: 1, Max: 1, Pass: &pass},
	} {
		if notice, err := store.AppendHistory(path, rec, "x"); err != nil || notice != "" {
			t.Fatalf("append %d: %v %q", i, err, notice)
		}
	}
	records, notice, err := store.LoadHistory(path, "x")
	if err != nil || notice != "" || len(records) != 3 {
		t.Fatalf("load: %d records, %q, %v", len(records), notice, err)
	}
	if m := store.Misses(records); m["taxonomy:kserve"] != 2 || m["taxonomy:dynamo-triton"] != 1 {
		t.Errorf("misses %v", m)
	}
	s := store.Summarize(records)
	if s.Drills[0].Drill != "taxonomy" || s.Drills[0].Attempts != 2 || s.Drills[0].Best < 0.88 || s.MostMissed[0].Item != "taxonomy:kserve" {
		t.Errorf("summary %+v", s)
	}
	assertOnly(t, filepath.Dir(path), "store.json", "store.json.lock")
}

func TestABrokenOrForeignFileIsSetAsideNotOverwritten(t *testing.T) {
	for name, content := range map[string]string{
		"broken":  `{"schema":"stackpick.history/v1","records":[{"drill":`,
		"foreign": `{"theme":"dark"}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "store.json")
			os.WriteFile(path, []byte(content), 0o644)
			notice, err := store.AppendHistory(path, store.Record{Drill: "flags", Points: 1, Max: 2}, "20261130T1000")
			if err != nil {
				t.Fatal(err)
			}
			aside := path + ".unreadable-20261130T1000"
			if !strings.Contains(notice, "set aside as "+aside) {
				t.Errorf("notice %q", notice)
			}
			if kept, _ := os.ReadFile(aside); string(kept) != content {
				t.Errorf("the old file was not kept byte for byte: %q", kept)
			}
			records, _, _ := store.LoadHistory(path, "y")
			if len(records) != 1 {
				t.Errorf("new history has %d records", len(records))
			}
		})
	}
}

func TestTwoSetAsidesInOneSecondKeepBothFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.json")
	for _, content := range []string{"{not json", `{"schema":"other/v1"}`} {
		os.WriteFile(path, []byte(content), 0o644)
		if _, err := store.AppendHistory(path, store.Record{Drill: "flags", Max: 1}, "20261130T1000"); err != nil {
			t.Fatal(err)
		}
	}
	first, _ := os.ReadFile(path + ".unreadable-20261130T1000")
	second, _ := os.ReadFile(path + ".unreadable-20261130T1000-2")
	if string(first) != "{not json" || string(second) != `{"schema":"other/v1"}` {
		t.Fatalf("set-aside files: %q, %q", first, second)
	}
}

// The mock exit test is kept as a point per part with its verdict.
func TestTheMockExitTestIsRecordedWithItsVerdict(t *testing.T) {
	r := drill.MockResult{Pass: true, Weakest: []string{"flags:vllm-block-size:name"}, Parts: []drill.MockPart{{Ratio: 1}, {Ratio: 1}, {Ratio: 0.75}, {Ratio: 0.5}}}
	rec := store.MockRecord(7, r)
	if rec.Drill != drill.Mock || rec.Seed != 7 || rec.Points != 3.25 || rec.Max != 4 || rec.Pass == nil || !*rec.Pass || len(rec.Missed) != 1 {
		t.Errorf("got %+v", rec)
	}
	if rec := store.NewRecord(drill.Flags, 3, drill.Score{Points: 5, Max: 6}); rec.Drill != drill.Flags || rec.Pass != nil || rec.Points != 5 {
		t.Errorf("got %+v", rec)
	}
}

func TestAppendCreatesAMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "folder", "history.json")
	if _, err := store.AppendHistory(path, store.Record{Drill: "taxonomy"}, "20261201T000000"); err != nil {
		t.Fatal(err)
	}
	records, _, err := store.LoadHistory(path, "20261201T000000")
	if err != nil || len(records) != 1 {
		t.Fatalf("got %d records, %v", len(records), err)
	}
}

func TestTheDefaultHistoryIsInTheXDGStateFolder(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	got, err := store.DefaultHistoryPath()
	if err != nil || got != filepath.Join(state, "stackpick", "history.json") {
		t.Fatalf("got %q, %v", got, err)
	}
	home := t.TempDir()
	t.Setenv("XDG_STATE_HOME", "relative/is/ignored")
	t.Setenv("HOME", home)
	got, err = store.DefaultHistoryPath()
	if err != nil || got != filepath.Join(home, ".local", "state", "stackpick", "history.json") {
		t.Fatalf("got %q, %v", got, err)
	}
	if fi, err := os.Stat(filepath.Dir(got)); err != nil || !fi.IsDir() {
		t.Fatalf("the folder was not created: %v", err)
	}
}

// A history that reaches RollBytes is archived beside itself and a new one
// starts: every record is kept, in the archive or the new file, and no file
// passes the bound.
func TestAFullHistoryRollsOverAndKeepsEveryRecord(t *testing.T) {
	defer store.SetRollBytes(2048)()
	dir := t.TempDir()
	path := filepath.Join(dir, "history.json")
	const n = 40
	notices := 0
	for i := range n {
		notice, err := store.AppendHistory(path, store.Record{Drill: "flags", Seed: uint64(i + 1), Max: 1, Missed: []string{"x"}}, "x")
		if err != nil {
			t.Fatal(err)
		}
		if notice != "" {
			notices++
			if !strings.Contains(notice, "archived as "+path+".") {
				t.Errorf("notice = %q, want it to name the archive", notice)
			}
		}
	}
	archives := store.Archives(path)
	if len(archives) < 2 || notices != len(archives) {
		t.Fatalf("archives = %v after %d notices, want two or more, one per notice", archives, notices)
	}
	seen := map[uint64]bool{}
	for _, name := range append(archives, path) {
		info, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > 2048 {
			t.Errorf("%s is %d bytes, over the bound", name, info.Size())
		}
		var f struct{ Records []store.Record }
		raw, _ := os.ReadFile(name)
		if err := json.Unmarshal(raw, &f); err != nil {
			t.Fatal(err)
		}
		for _, r := range f.Records {
			seen[r.Seed] = true
		}
	}
	if len(seen) != n {
		t.Fatalf("%d records across the history and its archives, want %d", len(seen), n)
	}
	// The archives are numbered in the order they filled.
	if archives[0] != path+".1" || archives[1] != path+".2" {
		t.Errorf("archives = %v, want %s.1, %s.2, ...", archives, path, path)
	}
}

// A history over the bound (grown by something else) is archived unread,
// never read whole into memory, and a new one starts.
func TestAnOversizedHistoryIsArchivedUnread(t *testing.T) {
	defer store.SetRollBytes(1024)()
	path := filepath.Join(t.TempDir(), "history.json")
	big := `{"schema":"stackpick.history/v1","records":[` + strings.Repeat(`{"drill":"flags","at":"","points":0,"max":1,"missed":[]},`, 100) + `{"drill":"flags","at":"","points":0,"max":1,"missed":[]}]}`
	if err := os.WriteFile(path, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	records, notice, err := store.LoadHistory(path, "x")
	if err != nil || len(records) != 0 || !strings.Contains(notice, "archived as "+path+".1") {
		t.Fatalf("load = %d records, %q, %v; want none, a notice naming %s.1", len(records), notice, err, path)
	}
	if kept, _ := os.ReadFile(path + ".1"); string(kept) != big {
		t.Error("the archive is not the old history")
	}
}
