package drills

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/store"
)

// A drill finished as the app quits: its command never runs, and Flush
// still writes the record; a command that did run is not written twice.
func TestFlushWritesRecordsTheAppNeverRan(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.json")
	clock := func() time.Time { return time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC) }
	d := NewState(Options{HistoryPath: path}, clock)
	_, ran := d.record(nil, store.NewRecord(drill.Flags, 1, drill.Score{}))
	_, dropped := d.record(nil, store.NewRecord(drill.Taxonomy, 2, drill.Score{}))
	if ran == nil || dropped == nil {
		t.Fatal("no command to write the records")
	}
	ran()
	d.Flush()
	d.Flush() // nothing left: no third record
	records, _, err := store.LoadHistory(path, "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 2 || records[0].Drill != drill.Flags || records[1].Drill != drill.Taxonomy {
		t.Errorf("after Flush the history holds %+v; want the flags record, then the taxonomy record", records)
	}
	if msg := dropped(); msg.(historyKept).err != nil {
		t.Errorf("the dropped command, run late, reports %v", msg.(historyKept).err)
	}
	if records, _, _ = store.LoadHistory(path, "x"); len(records) != 2 {
		t.Errorf("a command run after Flush wrote its record again: %d records", len(records))
	}
}
