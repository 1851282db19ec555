package tui

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPty opens a pseudo-terminal: the far end (what a terminal window,
// sshd or tmux holds) and the terminal a program reads.
func openPty(t *testing.T) (far, tty *os.File) {
	t.Helper()
	far, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, far.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, far.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("ptsname: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { far.Close(); tty.Close() })
	return far, tty
}

// A terminal whose far end closed (a closed window, tmux kill-session, a
// dropped ssh) with no SIGHUP reaching stackpick reads end of file: the
// app's watch on its keys sees the hang-up, and HungUp tells it from a
// ctrl+d on a live terminal. Before, Bubble Tea took the end of file for
// the input's end, stopped reading and ran on forever.
func TestAClosedTerminalIsAHangUp(t *testing.T) {
	far, tty := openPty(t)
	if HungUp(tty) {
		t.Fatal("a live terminal counts as hung up")
	}
	file, err := os.CreateTemp(t.TempDir(), "answers")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if HungUp(file) || watchHangup(file, nil) != io.Reader(file) {
		t.Fatal("a file counts as a terminal that can hang up")
	}
	hung := make(chan struct{})
	in := watchHangup(tty, func() { close(hung) })
	if _, ok := in.(*os.File); ok {
		t.Fatal("the terminal is read without a watch")
	}
	if _, ok := in.(interface{ Name() string }); !ok {
		t.Fatal("the watch hides the file's Name: Bubble Tea could no longer cancel its reads")
	}
	read := make(chan error, 1)
	go func() {
		_, err := in.Read(make([]byte, 16))
		read <- err
	}()
	far.Close()
	select {
	case <-hung:
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal closed and the watch saw no hang-up")
	}
	if err := <-read; err == nil {
		t.Error("a read of a closed terminal succeeded")
	}
	if !HungUp(tty) {
		t.Error("a terminal whose far end closed does not count as hung up")
	}
}
