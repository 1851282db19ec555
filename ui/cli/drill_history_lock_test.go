package cli_test

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Eight `stackpick drill` processes finishing at the same moment leave
// eight records in the history (before its lock, 6 or 7 of 8 were lost
// and every process exited 0).
func TestEightDrillsFinishingTogetherLeaveEightRecords(t *testing.T) {
	bin := stackpickBinary(t)
	hist := filepath.Join(t.TempDir(), "history.json")
	const n = 8
	var cmds []*exec.Cmd
	var stdins []io.WriteCloser
	for i := range n {
		cmd := exec.Command(bin, "drill", "taxonomy", "--seed", strconv.Itoa(i+1))
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "STACKPICK_HISTORY=" + hist}
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, stdins = append(cmds, cmd), append(stdins, in)
	}
	// Every drill is waiting for its answers: give them all at once.
	answers := strings.Repeat("e\n", 9)
	for _, in := range stdins {
		io.WriteString(in, answers)
	}
	for _, in := range stdins {
		in.Close()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("drill %d: %v", i, err)
		}
	}
	var f struct{ Records []struct{ Seed uint64 } }
	raw, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	seeds := map[uint64]bool{}
	for _, r := range f.Records {
		seeds[r.Seed] = true
	}
	if len(f.Records) != n || len(seeds) != n {
		t.Fatalf("the history holds %d records (%d seeds) after %d drills", len(f.Records), len(seeds), n)
	}
}
