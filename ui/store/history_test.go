package store_test

import (
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
