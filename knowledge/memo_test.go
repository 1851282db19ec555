package knowledge_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

const memoFile = `nodes = 4
kubernetes = "required"

[memo]
title = "Serve the tenants' fine-tunes on the H200 fleet"
status = "accepted"
deciders = ["Ana Ruiz", "Ben \"BJ\" Okafor"]
date = 2026-12-01
problem = "Three tenants, one base model:\nwhich stack?"
`

func TestMemoTableIsReadAsMetadataNotAnswers(t *testing.T) {
	a := answers(t, memoFile)
	m := a.Memo()
	want := knowledge.Memo{Title: "Serve the tenants' fine-tunes on the H200 fleet", Status: "accepted",
		Deciders: []string{"Ana Ruiz", `Ben "BJ" Okafor`}, Date: "2026-12-01", Problem: "Three tenants, one base model:\nwhich stack?"}
	if m.Title != want.Title || m.Status != want.Status || !slices.Equal(m.Deciders, want.Deciders) || m.Date != want.Date || m.Problem != want.Problem {
		t.Fatalf("memo = %#v, want %#v", m, want)
	}
	if got := a.Get("nodes").Int; got != 4 {
		t.Errorf("nodes = %d: the memo table swallowed the answers", got)
	}
	// The memo is no answer: the same answers without it are the same.
	if !kb.Same(a, answers(t, "nodes = 4\nkubernetes = \"required\"\n")) {
		t.Error("the [memo] table changed the answers")
	}
	if len(kb.Changed(a)) != 2 {
		t.Errorf("changed answers = %v, want nodes and kubernetes only", changes(kb.Changed(a)))
	}
}

func TestMemoTableRoundTripsThroughTheSavedFile(t *testing.T) {
	a := answers(t, memoFile)
	// Answers changed after loading keep their memo.
	a = a.With(kb.QuestionIndex("nodes"), knowledge.Value{Int: 6})
	saved := a.TOML("saved by a test")
	if !strings.Contains(string(saved), "\n[memo]") {
		t.Fatalf("the saved file has no [memo] table:\n%s", saved)
	}
	b, err := kb.ParseAnswers("saved.toml", saved)
	if err != nil {
		t.Fatalf("reading the saved file back: %v\n%s", err, saved)
	}
	am, bm := a.Memo(), b.Memo()
	if am.Title != bm.Title || am.Status != bm.Status || !slices.Equal(am.Deciders, bm.Deciders) || am.Date != bm.Date || am.Problem != bm.Problem {
		t.Errorf("memo after the round trip = %#v, want %#v", bm, am)
	}
	if !kb.Same(a, b) || b.Get("nodes").Int != 6 {
		t.Error("answers changed in the round trip")
	}
	// No memo set: no table written.
	if plain := kb.Defaults().TOML(""); strings.Contains(string(plain), "[memo]") {
		t.Error("answers without memo metadata wrote a [memo] table")
	}
}

func TestMemoTableErrorsNameTheLineAndWhatToWrite(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"bad status", "nodes = 2\n[memo]\nstatus = \"acepted\"\n", `a.toml:3: memo.status: "acepted" is not a decision record's status (allowed: proposed, accepted, rejected, deprecated, superseded); did you mean "accepted"?`},
		{"unknown key", "[memo]\ntitle = \"x\"\ndecider = [\"Ana\"]\n", `a.toml:3: memo.decider: unknown memo key (allowed: title, status, deciders, date, problem); did you mean "deciders"?`},
		{"bad date", "[memo]\ndate = \"2026/12/01\"\n", `a.toml:2: memo.date: "2026/12/01" is not a date`},
		{"deciders as a string", "[memo]\n\ndeciders = \"Ana, Ben\"\n", `a.toml:3: memo.deciders: expected a list of names, got the string "Ana, Ben"`},
		{"memo key at top level", "title = \"x\"\n", `put it under a [memo] table`},
		{"memo not a table", "memo = \"x\"\n", `a.toml:1: memo:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := kb.ParseAnswers("a.toml", []byte(tc.src))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %q, want it to contain %q", err, tc.want)
			}
		})
	}
	// The date's hint says how to write it.
	_, err := kb.ParseAnswers("a.toml", []byte("[memo]\ndate = \"2026/12/01\"\n"))
	if err == nil || !strings.Contains(err.Error(), "write 2026-12-01") {
		t.Errorf("date error %v lacks the way to write it", err)
	}
	// An answer error and a memo error are both reported.
	_, err = kb.ParseAnswers("a.toml", []byte("nodes = \"4\"\n[memo]\nstatus = \"done\"\n"))
	if err == nil || !strings.Contains(err.Error(), "a.toml:1: nodes") || !strings.Contains(err.Error(), "a.toml:3: memo.status") {
		t.Errorf("error = %v, want both the answer's and the memo's", err)
	}
}

func TestMemoOverKeepsWhatTheOverlayLeavesUnset(t *testing.T) {
	file := knowledge.Memo{Title: "From the file", Status: "proposed", Deciders: []string{"Ana"}}
	flags := knowledge.Memo{Status: "accepted", Date: "2026-12-02"}
	got := flags.Over(file)
	if got.Title != "From the file" || got.Status != "accepted" || got.Date != "2026-12-02" || !slices.Equal(got.Deciders, []string{"Ana"}) {
		t.Errorf("flags over file = %#v", got)
	}
	if knowledge.CheckMemoStatus("--status", "superseded") != nil || knowledge.CheckMemoStatus("--status", "draft") == nil {
		t.Error("CheckMemoStatus accepts the wrong statuses")
	}
	if got := knowledge.SplitDeciders(" Ana Ruiz, ,Ben "); !slices.Equal(got, []string{"Ana Ruiz", "Ben"}) {
		t.Errorf("SplitDeciders = %q", got)
	}
}
