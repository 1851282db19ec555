package store_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stackpick/stackpick/ui/store"
)

// appendHelperEnv makes the test binary a helper process that appends one
// record to the history it names, once its stdin closes.
const appendHelperEnv = "STACKPICK_TEST_APPEND_TO"

func TestMain(m *testing.M) {
	if path := os.Getenv(appendHelperEnv); path != "" {
		io.Copy(io.Discard, os.Stdin) // wait for the start: all processes at once
		n, _ := strconv.Atoi(os.Getenv("STACKPICK_TEST_APPEND_N"))
		if _, err := store.AppendHistory(path, store.Record{Drill: "taxonomy", Seed: uint64(n), Max: 1}, "20261201T000000"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	if path := os.Getenv(signalHelperEnv); path != "" {
		signalHelper(path)
	}
	os.Exit(m.Run())
}

// Eight drills finishing at the same moment, in eight processes, leave
// eight records (before the lock, 6 or 7 of 8 were lost, every process
// exiting 0).
func TestEightProcessesFinishingTogetherLeaveEightRecords(t *testing.T) {
	processesFinishingTogether(t, 8)
}

// Sixty-four at once keep every record too: waiters block on the lock and
// take turns (with polling, 155 of 200 drills at once starved past the
// old 10 s bound and lost their records).
func TestSixtyFourProcessesFinishingTogetherKeepEveryRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("64 processes")
	}
	processesFinishingTogether(t, 64)
}

func processesFinishingTogether(t *testing.T, n int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "history.json")
	var cmds []*exec.Cmd
	var starts []io.WriteCloser
	for i := range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), appendHelperEnv+"="+path, "STACKPICK_TEST_APPEND_N="+strconv.Itoa(i))
		cmd.Stderr = os.Stderr
		start, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, starts = append(cmds, cmd), append(starts, start)
	}
	for _, start := range starts {
		start.Close()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v", i, err)
		}
	}
	assertSeeds(t, path, n)
}

// Goroutines of one process lock each other out too (flock is per open
// file, not per process).
func TestConcurrentAppendsInOneProcessLoseNoRecord(t *testing.T) {
	const n = 32
	path := filepath.Join(t.TempDir(), "history.json")
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := store.AppendHistory(path, store.Record{Drill: "flags", Seed: uint64(i), Max: 1}, "x"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	assertSeeds(t, path, n)
}

// An unreadable history is set aside once, under the lock, however many
// drills find it at once; every record after it is kept.
func TestAnUnreadableHistoryIsSetAsideOnceUnderTheLock(t *testing.T) {
	const n = 16
	dir := t.TempDir()
	path := filepath.Join(dir, "history.json")
	os.WriteFile(path, []byte("{not json"), 0o644)
	var wg sync.WaitGroup
	notices := make([]string, n)
	for i := range n {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, notices[i], err = store.LoadHistory(path, "20261201T000000")
			} else {
				notices[i], err = store.AppendHistory(path, store.Record{Drill: "flags", Seed: uint64(i), Max: 1}, "20261201T000000")
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	set := 0
	for _, notice := range notices {
		if notice != "" {
			set++
		}
	}
	if set != 1 {
		t.Errorf("%d notices of a set-aside, want 1: %q", set, notices)
	}
	if kept, _ := os.ReadFile(path + ".unreadable-20261201T000000"); string(kept) != "{not json" {
		t.Errorf("the unreadable file was not kept: %q", kept)
	}
	records, notice, err := store.LoadHistory(path, "y")
	if err != nil || notice != "" || len(records) != n/2 {
		t.Errorf("the new history holds %d records (%q, %v), want %d", len(records), notice, err, n/2)
	}
	assertOnly(t, dir, "history.json", "history.json.lock", "history.json.unreadable-20261201T000000")
}

func assertSeeds(t *testing.T, path string, n int) {
	t.Helper()
	records, notice, err := store.LoadHistory(path, "x")
	if err != nil || notice != "" {
		t.Fatalf("load: %q, %v", notice, err)
	}
	seen := map[uint64]bool{}
	for _, r := range records {
		seen[r.Seed] = true
	}
	if len(records) != n || len(seen) != n {
		t.Fatalf("%d records (%d different) after %d appends: records were lost", len(records), len(seen), n)
	}
	assertOnly(t, filepath.Dir(path), "history.json", "history.json.lock")
}
