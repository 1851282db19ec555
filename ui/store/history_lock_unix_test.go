//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stackpick/stackpick/ui/store"
)

// A lock another process holds is waited for a bounded time, then is a
// clear error naming the lock file; the history is untouched.
func TestAHeldLockIsAClearErrorNotAHang(t *testing.T) {
	defer store.SetLockWait(50 * time.Millisecond)()
	path := filepath.Join(t.TempDir(), "history.json")
	if _, err := store.AppendHistory(path, store.Record{Drill: "flags", Max: 1}, "x"); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := store.AppendHistory(path, store.Record{Drill: "flags", Max: 1}, "x")
		done <- err
	}()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second): // a generous bound: the wait is 50 ms
		t.Fatal("AppendHistory still waits for the lock after 10 s")
	}
	if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), path+".lock") {
		t.Fatalf("err = %v, want ErrLocked naming %s.lock", err, path)
	}
	// True: it waited, behind other processes (it did not "hold it for
	// over 10s", as the message said when the lock was polled).
	if !strings.Contains(err.Error(), "waited 50ms for "+path+".lock") {
		t.Errorf("err = %v, want it to say how long it waited", err)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if records, _, _ := store.LoadHistory(path, "x"); len(records) != 1 {
		t.Fatalf("%d records, want the first one only", len(records))
	}
	// The waiter that gave up gets the lock now and must drop it at once,
	// or this append would wait for it.
	if _, err := store.AppendHistory(path, store.Record{Drill: "flags", Max: 1}, "x"); err != nil {
		t.Fatalf("after the lock is released: %v", err)
	}
}

// A waiter blocks on the lock and gets it the moment it is released, not
// at its next poll.
func TestAWaiterGetsTheLockWhenItIsReleased(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.json")
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := store.AppendHistory(path, store.Record{Drill: "flags", Max: 1}, "x")
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // let it wait
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the waiter did not get a free lock")
	}
}
