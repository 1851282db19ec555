package main

import (
	"bytes"
	"os"
	"testing"
)

func TestTheCheckedInFileIsWhatGenWrites(t *testing.T) {
	want, err := Source()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../" + Output)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("knowledge/" + Output + " is not what the generator writes (edited by hand, or stale): run go generate ./knowledge")
	}
}
