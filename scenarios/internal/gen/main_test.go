package main

import (
	"bytes"
	"os"
	"testing"
)

func TestTheCheckedInFileIsWhatGenWrites(t *testing.T) {
	want, err := Source("../../data")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../" + Output)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("scenarios/" + Output + " is not what the generator writes (edited by hand, or stale): run go generate ./scenarios")
	}
}
